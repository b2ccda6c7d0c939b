"""The picture of a finished game: a timeline (each player's line through the days and nights,
ended where and how he left) and each day's vote as a graph of who voted for whom, the
banished marked. Drawn with Pillow in the reader's language; a phone shows it at full width,
so the text is large and a long game's vote graphs go side by side in columns."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from core.engine.phase import PhaseKind
from core.engine.story import Heading

from .canvas import INK, MUTED, NIGHT_SHADE, OUT_RED, PAPER, SIDE_COLOURS, arrow, fitted, font
from .model import Story, VoteRound
from .texts import TIMELINE, Words

WIDTH = 1080
PAD = 28
ROW = 62  # a timeline row: the name over the role
VOTER_ROW = 40
NAME_W, FATE_W = 330, 290
GAP = 24
HEAD = 100  # a vote graph's title and result
MAX_COLUMNS = 3
TELEGRAM_SIDES = 10_000  # sendPhoto: width plus height at most this


def side_colour(story: Story, side: str) -> tuple[int, int, int]:
    from core.engine.registry import load_ruleset

    sides = list(load_ruleset(story.ruleset).sides)
    index = sides.index(side) if side in sides else len(sides) + sorted(
        {p.side for p in story.players}).index(side)
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def _header(story: Story, words: Words, width: int) -> Image.Image:
    sides = sorted({p.side for p in story.players}, key=lambda s: side_colour(story, s))
    image = Image.new("RGB", (width, 400), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, PAD), fitted(draw, words.title(), font(40, True), width - 2 * PAD),
              font=font(40, True), fill=INK)
    draw.text((PAD, PAD + 58), fitted(draw, words.winners(), font(32), width - 2 * PAD),
              font=font(32), fill=INK)
    x, y = PAD, PAD + 112
    for side in sides:
        label = words.word("side", side)
        wide = 36 + int(draw.textlength(label, font=font(28)))
        if x > PAD and x + wide > width - PAD:  # the legend wraps
            x, y = PAD, y + 44
        draw.rounded_rectangle([x, y + 4, x + 26, y + 30], 6, fill=side_colour(story, side))
        draw.text((x + 36, y), label, font=font(28), fill=INK)
        x += wide + 34
    return image.crop((0, 0, width, y + 60))


def timeline(story: Story, words: Words, width: int = WIDTH) -> Image.Image:
    rounds = story.rounds
    top = 100
    image = Image.new("RGB", (width, top + ROW * len(story.players) + PAD), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, 10), words.text(TIMELINE), font=font(34, True), fill=INK)
    grid_x = PAD + NAME_W
    fate_w = FATE_W if width == WIDTH else 2 * FATE_W
    col = (width - PAD - fate_w - grid_x) / max(1, len(rounds))
    for i, when in enumerate(rounds):
        x = grid_x + i * col
        if when.kind == PhaseKind.NIGHT:
            draw.rectangle([x, top - 8, x + col, image.height - PAD], fill=NIGHT_SHADE)
        label = words.short_when(when)
        face = font(22 if col >= 40 else 16)
        draw.text((x + col / 2, top - 14), label, font=face, fill=MUTED, anchor="md")
    for row, p in enumerate(story.players):
        y = top + row * ROW
        name = ("★ " if p.won else "") + p.name
        draw.text((PAD, y + 2), fitted(draw, name, font(28, True), NAME_W - 12),
                  font=font(28, True), fill=INK)
        draw.text((PAD, y + 34), fitted(draw, words.word("role", p.role), font(21), NAME_W - 12),
                  font=font(21), fill=MUTED)
        last = len(rounds) - 1
        if p.fate is not None:
            last = next((i for i, r in enumerate(rounds) if r.same_round(p.fate.when)), last)
        colour = side_colour(story, p.side)
        x0, x1 = grid_x + 4, grid_x + (last + 1) * col - 4
        draw.rounded_rectangle([x0, y + 16, x1, y + 44], 8, fill=colour)
        if p.fate is not None:
            draw.line([x1 - 18, y + 12, x1 + 2, y + 48], fill=OUT_RED, width=5)
            draw.line([x1 + 2, y + 12, x1 - 18, y + 48], fill=OUT_RED, width=5)
        fate = words.fate(p.fate)
        draw.text((width - PAD - fate_w + 12, y + 14), fitted(draw, fate, font(22), fate_w - 12),
                  font=font(22), fill=INK if p.fate else MUTED)
    return image


def graph_height(vote: VoteRound) -> int:
    return HEAD + max(1, len(vote.ballots)) * VOTER_ROW + PAD


def vote_graph(story: Story, words: Words, vote: VoteRound, width: int) -> Image.Image:
    """Voters on the left grouped by their choice, each with an arrow to it on the right."""
    counts = dict(vote.counts)
    order = sorted({t for _, t in vote.ballots}, key=lambda t: (-counts.get(t, 0), t))
    voters = [v for t in order for v, target in vote.ballots if target == t]
    head = HEAD
    height = graph_height(vote)
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([2, 2, width - 3, height - 3], 16, outline=(220, 216, 205), width=2)
    title = words.vote_title(vote)
    draw.text((PAD, 14), fitted(draw, title, font(30, True), width - 2 * PAD), font=font(30, True),
              fill=INK)
    out = words.voted_out(vote)
    draw.text((PAD, 54), fitted(draw, out, font(24), width - 2 * PAD), font=font(24),
              fill=OUT_RED if vote.removed else MUTED)
    if not voters:
        draw.text((PAD, head), words.heading(Heading.NO_VOTES), font=font(24), fill=MUTED)
        return image
    left_w = int(width * 0.38)
    box_x = int(width * 0.58)
    row_of = {v: i for i, v in enumerate(voters)}
    for voter in voters:
        y = head + row_of[voter] * VOTER_ROW + VOTER_ROW / 2
        p = story.player(voter)
        draw.text((PAD + left_w, y), fitted(draw, p.name, font(24), left_w), font=font(24),
                  fill=side_colour(story, p.side), anchor="rm")
    for target in order:
        mine = [row_of[v] for v, t in vote.ballots if t == target]
        centre = head + (min(mine) + max(mine) + 1) / 2 * VOTER_ROW
        banished = target in vote.removed
        label = f"{story.player(target).name}  {counts.get(target, len(mine))}"
        face = font(24, True)
        box = [box_x, centre - 19, width - PAD, centre + 19]
        draw.rounded_rectangle(box, 10, fill=OUT_RED if banished else (236, 233, 224))
        draw.text((box_x + 14, centre), fitted(draw, label, face, width - PAD - box_x - 24),
                  font=face, fill=(255, 255, 255) if banished else INK, anchor="lm")
        for r in mine:
            y = head + r * VOTER_ROW + VOTER_ROW / 2
            arrow(draw, (PAD + left_w + 10, y), (box_x - 6, centre),
                  OUT_RED if banished else (120, 120, 120))
    return image


def columns_for(story: Story, above: int) -> int:
    """How many columns of vote graphs keep the picture no taller than 2.4 times its width
    (a phone scrolls a narrow picture well; a long game's graphs, stacked in one column,
    would still be too tall for its photo viewer)."""
    heights = [graph_height(v) + GAP for v in story.votes]
    for n in range(1, MAX_COLUMNS + 1):
        if above + _packed(heights, n)[1] <= 2.4 * n * WIDTH:
            return n
    return MAX_COLUMNS


def _packed(heights: list[int], n: int) -> tuple[list[int], int]:
    """Each graph's column and the tallest column's height: the days in reading order, down
    the first column, then the next, each column about an n-th of the whole."""
    share = sum(heights) / n
    filled = [0] * n
    where = []
    column = 0
    for h in heights:
        if filled[column] and filled[column] + h / 2 > share and column < n - 1:
            column += 1
        where.append(column)
        filled[column] += h
    return where, max(filled, default=0)


def picture(story: Story, locale: str) -> Image.Image:
    words = Words(story, locale)
    above = 200 + 100 + ROW * len(story.players)
    n = columns_for(story, above)
    width = n * WIDTH
    parts = [_header(story, words, width), timeline(story, words, width)]
    column_w = (width - (n + 1) * PAD) // n
    where, column_h = _packed([graph_height(v) + GAP for v in story.votes], n)
    top = sum(p.height for p in parts)
    image = Image.new("RGB", (width, top + column_h + PAD), PAPER)
    y = 0
    for part in parts:
        image.paste(part, (0, y))
        y += part.height
    filled = [top] * n
    for vote, column in zip(story.votes, where, strict=True):
        graph = vote_graph(story, words, vote, column_w)
        image.paste(graph, (PAD + column * (column_w + PAD), filled[column]))
        filled[column] += graph.height + GAP
    return image


def png(story: Story, locale: str) -> bytes:
    """The picture as PNG bytes, as the platforms upload it."""
    image = picture(story, locale)
    width, height = image.size
    if width + height > TELEGRAM_SIDES:  # only the longest games: scaled to what is accepted
        scale = TELEGRAM_SIDES / (width + height)
        image = image.resize((int(width * scale), int(height * scale)), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()

"""A day's vote as an SVG graph for the archive page (the picture's layout: voters on the left
grouped by their choice, an arrow each to it, the banished in red). SVG is markup, not script:
it shows without JavaScript, scales to a phone's width and keeps its text selectable."""

from __future__ import annotations

from html import escape

from .model import Story, VoteRound

ROW = 28
HEAD = 8
WIDTH = 420
LONGEST = 16  # characters of a name before it is cut (the page lists every vote in full too)


def _short(name: str) -> str:
    return name if len(name) <= LONGEST else name[:LONGEST - 1] + "…"


def _marker(name: str, colour: str) -> str:
    return (f'<marker id="{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/>'
            "</marker>")


def vote_svg(story: Story, vote: VoteRound, title: str, uid: str) -> str:
    """The graph; `uid` keeps its arrowheads' ids apart from the other graphs' on the page."""
    counts = dict(vote.counts)
    order = sorted({t for _, t in vote.ballots}, key=lambda t: (-counts.get(t, 0), t))
    voters = [v for t in order for v, target in vote.ballots if target == t]
    row_of = {v: i for i, v in enumerate(voters)}
    height = HEAD * 2 + max(1, len(voters)) * ROW
    out = [f'<svg class="votes" viewBox="0 0 {WIDTH} {height}" role="img" '
           f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
           "<defs>", _marker(f"a{uid}", "#777"), _marker(f"o{uid}", "#c82828"), "</defs>"]
    for voter in voters:
        y = HEAD + row_of[voter] * ROW + ROW / 2
        out.append(f'<text x="160" y="{y + 5:.0f}" text-anchor="end" class="side-'
                   f'{escape(story.player(voter).side)}">{escape(_short(story.player(voter).name))}'
                   "</text>")
    for target in order:
        mine = [row_of[v] for v, t in vote.ballots if t == target]
        centre = HEAD + (min(mine) + max(mine) + 1) / 2 * ROW
        out_cls = " out" if target in vote.removed else ""
        for r in mine:
            y = HEAD + r * ROW + ROW / 2
            head = f'{"o" if out_cls else "a"}{uid}'
            out.append(f'<line x1="166" y1="{y:.0f}" x2="246" y2="{centre:.0f}" '
                       f'class="arrow{out_cls}" marker-end="url(#{head})"/>')
        out.append(f'<rect x="250" y="{centre - 12:.0f}" width="166" height="24" rx="6" '
                   f'class="target{out_cls}"/>')
        label = f"{_short(story.player(target).name)} {counts.get(target, len(mine))}"
        out.append(f'<text x="258" y="{centre + 5:.0f}" class="label{out_cls}">'
                   f"{escape(label)}</text>")
    out.append("</svg>")
    return "".join(out)

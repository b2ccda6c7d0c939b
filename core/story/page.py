"""The archive page of a finished game: the whole story day by day as static HTML and CSS (no
JavaScript), in the reader's language and readable on a phone: the players with role, side
and fate, the lovers, links and lines of succession, then each night's actions revealed and
each day's votes with their graph; the team chats only where the host allowed it."""

from __future__ import annotations

from html import escape

from .model import Story, When
from .picture import side_colour
from .style import CSS
from .svg import vote_svg
from .texts import (
    ACTION_LINE,
    BANISHED,
    ELECTION,
    LEFT_THEN,
    LINES,
    LINKS,
    LOVERS,
    NIGHT_ACTIONS,
    NO_ACTIONS,
    NO_VOTES,
    NOBODY_OUT,
    PLAYERS,
    STONE,
    TEAM_CHAT,
    VOTES_OF_DAY,
    WON,
    Words,
)


def e(text: object) -> str:
    return escape(str(text))


def archive_page(story: Story, locale: str, team_chats: bool = False) -> str:
    words = Words(story, locale)
    body = [f"<h1>{e(words.title())}</h1>", f'<p class="winners">{e(words.winners())}</p>',
            _players(story, words), _bonds(story, words)]
    body += [_round(story, words, when, team_chats) for when in story.rounds]
    return ("<!DOCTYPE html>\n"
            f'<html lang="{e(locale)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="robots" content="noindex"><title>{e(words.title())}</title>'
            f"<style>{CSS}{_side_colours(story)}</style></head><body><main>{''.join(body)}</main></body></html>\n")


def _side_colours(story: Story) -> str:
    """Each side's colour, as in the picture: the players' table and the graphs' voters."""
    rules = []
    for side in sorted({p.side for p in story.players}):
        r, g, b = side_colour(story, side)
        rules.append(f".side-{side}{{--side:rgb({r},{g},{b})}}"
                     f"svg text.side-{side}{{fill:rgb({r},{g},{b})}}")
    return "".join(rules)


def _players(story: Story, words: Words) -> str:
    rows = []
    for p in story.players:
        won = f' <span class="won">★ {e(words.text(WON))}</span>' if p.won else ""
        rows.append(f'<tr class="side-{e(p.side)}"><td class="name">{e(p.name)}{won}</td>'
                    f'<td>{e(words.word("role", p.role))}<br><small>'
                    f'{e(words.word("side", p.side))}</small></td>'
                    f"<td>{e(words.fate(p.fate))}</td></tr>")
    return (f'<section id="players"><h2>{e(words.text(PLAYERS))}</h2>'
            f'<table>{"".join(rows)}</table></section>')


def _bonds(story: Story, words: Words) -> str:
    lines = []
    if story.lovers:
        pairs = "; ".join(f"{words.name(a)} ♥ {words.name(b)}" for a, b in story.lovers)
        lines.append(words.text_n(LOVERS, len(story.lovers), pairs=pairs))
    for office, line in story.succession.items():
        if office in LINES:
            lines.append(words.text_n(LINES[office], len(line),
                                      names=" → ".join(map(words.name, line))))
    if story.stone_holders:
        lines.append(words.text_n(STONE, len(story.stone_holders),
                                  names=" → ".join(map(words.name, story.stone_holders))))
    return "".join(f"<p>{e(line)}</p>" for line in lines)


def _round(story: Story, words: Words, when: When, team_chats: bool) -> str:
    anchor = f"{when.kind}-{when.number}"
    parts = [f'<section id="{anchor}" class="{when.kind}"><h2>{e(words.when(when))}</h2>']
    actions = story.actions_of(when)
    if when.kind == "night" or actions:
        if when.kind == "night":
            parts.append(f"<h3>{e(words.text(NIGHT_ACTIONS))}</h3>")
        items = [_action(story, words, a.actor, a.action, a.targets, a.role) for a in actions]
        parts.append(f"<ul>{''.join(items)}</ul>" if items
                     else f"<p>{e(words.text(NO_ACTIONS))}</p>")
    for i, vote in enumerate(story.votes_of(when)):
        title = words.text(ELECTION if vote.when.stage == "election" else VOTES_OF_DAY,
                           when=words.when(when))
        parts.append(f"<h3>{e(title)}</h3>")
        if vote.ballots:
            parts.append(vote_svg(story, vote, title, f"{anchor}-{i}"))
            ballots = "".join(f"<li>{e(words.name(v))} → {e(words.name(t))}</li>"
                              for v, t in vote.ballots)
            parts.append(f'<ul class="ballots">{ballots}</ul>')
        else:
            parts.append(f"<p>{e(words.text(NO_VOTES))}</p>")
        out = (words.text_n(BANISHED, len(vote.removed), names=words.names(vote.removed))
               if vote.removed
               else words.text(NOBODY_OUT))
        parts.append(f'<p class="{"out" if vote.removed else "muted"}">{e(out)}</p>')
    for day, (a, b) in story.links:
        if day.same_round(when):
            pair = f"{words.name(a)} ⛓ {words.name(b)}"
            parts.append(f"<p>{e(words.text(LINKS, when=words.when(when), pairs=pair))}</p>")
    left = story.left_in(when)
    if left:
        names = ", ".join(f"{p.name} ({words.word('cause', p.fate.cause)})"
                          for p in left if p.fate)
        parts.append(f'<p class="left">{e(words.text_n(LEFT_THEN, len(left), names=names))}</p>')
    said = story.whispers_of(when) if team_chats else []
    if said:
        lines = "".join(f"<li><b>{e(words.name(w.sender))}</b>: {e(w.text)}</li>" for w in said)
        parts.append(f'<h3>{e(words.text(TEAM_CHAT))}</h3><ul class="chat">{lines}</ul>')
    parts.append("</section>")
    return "".join(parts)


def _action(story: Story, words: Words, actor: str, action: str, targets: tuple[str, ...],
            role: str | None) -> str:
    aimed = ", ".join(words.name(t) for t in targets)
    if role:
        aimed = f"{aimed} ({words.word('role', role)})" if aimed else words.word("role", role)
    line = words.text(ACTION_LINE, actor=words.name(actor),
                      role=words.word("role", story.player(actor).role),
                      action=words.word("action", action), targets=aimed)
    return f"<li>{e(line.rstrip())}</li>"

"""The archive page of a finished game: the whole story day by day as static HTML and CSS (no
JavaScript), in the reader's language and readable on a phone: the players with role, side
and fate, the rule set's game-long bonds and lines (the lovers, the mayors, a line of
succession), then each night's actions revealed, each day's votes with their graph and the
bonds of that day; the team chats only where the host allowed it."""

from __future__ import annotations

from html import escape

from core.engine.forms import SideForm
from core.engine.ids import ActionId
from core.engine.phase import PhaseKind
from core.engine.story import Bond, BondWords, Heading, Line

from .model import Story, When
from .picture import side_colour
from .style import CSS
from .svg import vote_svg
from .texts import (
    ACTION_LINE,
    LEFT_THEN,
    NIGHT_ACTIONS,
    NO_ACTIONS,
    PLAYERS,
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
                    f'{e(words.word(SideForm.LABEL, p.side))}</small></td>'
                    f"<td>{e(words.fate(p.fate))}</td></tr>")
    return (f'<section id="players"><h2>{e(words.text(PLAYERS))}</h2>'
            f'<table>{"".join(rows)}</table></section>')


def _bonds(story: Story, words: Words) -> str:
    """The game-long bonds, each kind in one line where its first stands, and the lines."""
    lines: list[BondWords | Line] = []
    pairs: dict[BondWords, list[Bond]] = {}
    for extra in story.extras:
        if isinstance(extra, Bond) and extra.during is None:
            if extra.words not in pairs:
                pairs[extra.words] = []
                lines.append(extra.words)
            pairs[extra.words].append(extra)
        elif isinstance(extra, Line):
            lines.append(extra)
    said = []
    for line in lines:
        if isinstance(line, BondWords):
            bonds = pairs[line]
            shown = "; ".join(_pair(words, b) for b in bonds)
            said.append(words.told(line.heading, len(bonds), pairs=shown))
        else:
            said.append(words.told(line.words.heading, len(line.holders),
                                   names=" → ".join(map(words.name, line.holders))))
    return "".join(f"<p>{e(line)}</p>" for line in said)


def _pair(words: Words, bond: Bond) -> str:
    return f"{words.name(bond.first)} {bond.words.mark} {words.name(bond.second)}"


def _round(story: Story, words: Words, when: When, team_chats: bool) -> str:
    anchor = f"{when.kind}-{when.number}"
    parts = [f'<section id="{anchor}" class="{when.kind}"><h2>{e(words.when(when))}</h2>']
    actions = story.actions_of(when)
    if when.kind == PhaseKind.NIGHT or actions:
        if when.kind == PhaseKind.NIGHT:
            parts.append(f"<h3>{e(words.text(NIGHT_ACTIONS))}</h3>")
        items = [_action(story, words, a.actor, a.action, a.targets, a.role) for a in actions]
        parts.append(f"<ul>{''.join(items)}</ul>" if items
                     else f"<p>{e(words.text(NO_ACTIONS))}</p>")
    for i, vote in enumerate(story.votes_of(when)):
        title = words.vote_title(vote)
        parts.append(f"<h3>{e(title)}</h3>")
        if vote.ballots:
            parts.append(vote_svg(story, vote, title, f"{anchor}-{i}"))
            ballots = "".join(f"<li>{e(words.name(v))} → {e(words.name(t))}</li>"
                              for v, t in vote.ballots)
            parts.append(f'<ul class="ballots">{ballots}</ul>')
        else:
            parts.append(f"<p>{e(words.heading(Heading.NO_VOTES))}</p>")
        out = words.voted_out(vote)
        if out:
            parts.append(f'<p class="{"out" if vote.removed else "muted"}">{e(out)}</p>')
    for bond in story.bonds_of(when):
        bound = words.told(bond.words.heading, 1, when=words.when(when), pairs=_pair(words, bond))
        parts.append(f"<p>{e(bound)}</p>")
    left = story.left_in(when)
    if left:
        names = words.renderer.listed([f"{p.name} ({words.word('cause', p.fate.cause)})"
                                        for p in left if p.fate])
        parts.append(f'<p class="left">{e(words.text_n(LEFT_THEN, len(left), names=names))}</p>')
    said = story.whispers_of(when) if team_chats else []
    if said:
        lines = "".join(f"<li><b>{e(words.name(w.sender))}</b>: {e(w.text)}</li>" for w in said)
        parts.append(f'<h3>{e(words.heading(Heading.TEAM_CHAT))}</h3><ul class="chat">{lines}</ul>')
    parts.append("</section>")
    return "".join(parts)


def _action(story: Story, words: Words, actor: str, action: ActionId, targets: tuple[str, ...],
            role: str | None) -> str:
    aimed = words.names(targets)
    if role:
        aimed = f"{aimed} ({words.word('role', role)})" if aimed else words.word("role", role)
    line = words.text(ACTION_LINE, actor=words.name(actor),
                      role=words.word("role", story.player(actor).role),
                      action=words.word("action", action), targets=aimed)
    return f"<li>{e(line.rstrip())}</li>"

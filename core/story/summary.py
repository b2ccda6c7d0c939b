"""The summary's lines that the story tells after the rule set has told who won: every player
with role, side and fate (when and how he left, or that he survived), then what the rule set
adds (its bonds and lines: the lovers, a day's links, the mayors, a line of succession, an
object's holders). Texts, not strings: they are rendered at delivery in the chat's language.
A player's line is in the game's voice where its rule set has one (`Ruleset.story_texts`: the
same placeholders, its own catalog), else in the plain words below; the extras carry their
own words."""

from __future__ import annotations

from core.engine.forms import SideForm, side_form
from core.engine.messages import N_, Ref, RefKind, Text, player
from core.engine.phase import PhaseKind
from core.engine.registry import load_ruleset
from core.engine.story import Bond, Extra, Line

from .model import PlayerStory, Story

# name -> msgid
TEXTS: dict[str, str] = {
    "survived": N_("{name} was {role} ({side}) and survived."),
    "left_day": N_("{name} was {role} ({side}): {cause} on day {number}."),
    "left_night": N_("{name} was {role} ({side}): {cause} on night {number}."),
}


def summary_texts(story: Story) -> list[list[Text]]:
    """The story's lines of the summary in two blocks, each read as one paragraph of a line
    per entry: the players (by seat), then the rule set's bonds and lines."""
    voice = load_ruleset(story.ruleset).story_texts
    players = [_player_line(voice, p) for p in story.players]
    lines = [text for extra in story.extras for text in _extra_lines(extra)]
    return [block for block in (players, lines) if block]


def _player_line(voice: dict[str, str], p: PlayerStory) -> Text:
    said = {"name": player(p.pid), "role": Ref(RefKind.ROLE_WAS, p.role),
            "side": side_form(p.side, SideForm.LABEL)}
    if p.fate is None:
        return Text(voice.get("survived", TEXTS["survived"]), said)
    line = "left_day" if p.fate.when.kind == PhaseKind.DAY else "left_night"
    return Text(voice.get(line, TEXTS[line]),
                {"cause": Ref(RefKind.CAUSE, p.fate.cause), "number": p.fate.when.number, **said})


def _extra_lines(extra: Extra) -> list[Text]:
    match extra:
        case Bond(first=first, second=second, words=words, during=during):
            day = {} if during is None else {"number": during.number}
            return [Text(words.line, {**day, "first": player(first), "second": player(second)})]
        case Line(holders=holders, words=words):
            if not holders or (len(holders) < 2 and not words.told_alone):
                return []
            one, many = words.line
            return [Text(one, {"names": tuple(player(pid) for pid in holders)}, many,
                         len(holders))]

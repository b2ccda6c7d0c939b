"""The summary's lines that the story tells after the rule set has told who won: every player
with role, side and fate (when and how he left, or that he survived), the lovers, each day's
links, the lines of succession (the mayors, the Father's heirs, the Xing Alchemist's
successor) and the Stone's holders. Texts, not strings: they are rendered at delivery in the
chat's language, each in the game's voice where its rule set has one (`Ruleset.story_texts`:
the same placeholders, its own catalog), else in the plain words below."""

from __future__ import annotations

from core.engine.messages import N_, Ref, Text, n_, player
from core.engine.registry import load_ruleset

from .model import PlayerStory, Story

# name -> msgid (a pair: singular and plural, counted by the names in the line)
TEXTS: dict[str, str | tuple[str, str]] = {
    "survived": N_("{name} was {role} ({side}) and survived."),
    "left_day": N_("{name} was {role} ({side}): {cause} on day {number}."),
    "left_night": N_("{name} was {role} ({side}): {cause} on night {number}."),
    "lovers": N_("{first} and {second} were lovers."),
    "linked": N_("Day {number}: {first} and {second} were linked."),
    "mayor": n_("The mayor: {names}.",
              "The mayors, in turn: {names}."),
    "father": n_("The Father: {names}.",
              "The Father and his heirs, in turn: {names}."),
    "xing": n_("The Xing Alchemist: {names}.",
              "The Xing Alchemist and his successors, in turn: {names}."),
    "stone": n_("The Philosopher's Stone was held by {names}.",
              "The Philosopher's Stone passed from hand to hand: {names}."),
}
# A line of succession that only names who began it says nothing the players' lines do not
# (the Father is listed with his role); the mayor was elected, which is news.
TOLD_ALONE = frozenset({"mayor"})


def summary_texts(story: Story) -> list[list[Text]]:
    """The story's lines of the summary in two blocks, each read as one paragraph of a line
    per entry: the players (by seat), then the bonds, successions and the Stone."""
    voice = load_ruleset(story.ruleset).story_texts
    players = [_player_line(voice, p) for p in story.players]
    lines: list[Text] = []
    for first, second in story.lovers:
        lines.append(_text(voice, "lovers", first=player(first), second=player(second)))
    for day, (first, second) in story.links:
        lines.append(_text(voice, "linked", number=day.number, first=player(first),
                           second=player(second)))
    for office, line in story.succession.items():
        if office in TEXTS and line and (len(line) > 1 or office in TOLD_ALONE):
            lines.append(_counted(voice, office, line))
    if story.stone_holders:
        lines.append(_counted(voice, "stone", story.stone_holders))
    return [block for block in (players, lines) if block]


def _player_line(voice: dict[str, str | tuple[str, str]], p: PlayerStory) -> Text:
    said = {"name": player(p.pid), "role": Ref("role_was", p.role), "side": Ref("side", p.side)}
    if p.fate is None:
        return _text(voice, "survived", **said)
    line = "left_day" if p.fate.when.kind == "day" else "left_night"
    return _text(voice, line, cause=Ref("cause", p.fate.cause), number=p.fate.when.number,
                 **said)


def _text(voice: dict[str, str | tuple[str, str]], line: str, **params: object) -> Text:
    key = voice.get(line, TEXTS[line])
    assert isinstance(key, str), line
    return Text(key, params)


def _counted(voice: dict[str, str | tuple[str, str]], line: str, pids: list[str]) -> Text:
    one, many = voice.get(line, TEXTS[line])
    return Text(one, {"names": tuple(player(pid) for pid in pids)}, many, len(pids))

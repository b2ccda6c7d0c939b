"""Whole games in German and Russian, both rule sets, through the service on the console
adapter, with the host's commands and the players' /status, /help and /myrole: what players
read holds no English word, no raw id, no empty list and no unfilled placeholder."""

from __future__ import annotations

import io
import random
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adapters.console.demo import NAMES, _play
from adapters.console.session import ConsoleSession
from core.engine.registry import load_ruleset
from core.i18n import LOCALES_DIR, ONE
from core.service.games.deadline_times import PACES

WORD = re.compile(r"(?<![/@\w])[A-Za-z][A-Za-z']{3,}")
LATIN = re.compile(r"(?<![/@\w.])[A-Za-z][A-Za-z']{2,}")  # a Russian text has no Latin words
PLACEHOLDER = re.compile(r"\{\w*(?::\w*)?\}|%\(\w+\)[sd]|%[sd]\b")
SNAKE = re.compile(r"(?<![/\w])[a-z]+_[a-z_]+\b")
RAW_PID = re.compile(r"\bp\d+\b")
RAW_PHASE = re.compile(r"\b(day|night) \d+\b")
EMPTY_LIST = re.compile(r"[:,—–]\s*[.,;]|\(\s*\)")
HEADING = re.compile(r":\s*$")  # fine when the same message goes on in the next line
COMMAND_ARG = re.compile(r"/\w+(?: [A-Z]+\b| [a-z_]+)?")  # "/option NAME", "/option stone_holder"
FLAG = re.compile(r"(?<!\w)--[a-z]+\b")  # "--once", a command's flag as the host types it
TIME_ZONE = re.compile(r"\b[A-Z][a-z]+/[A-Z][A-Za-z_]+\b")  # Europe/Berlin, as the host types it
URL = re.compile(r"\bhttps?://\S*")
PICTURE = re.compile(r"^\[[^\]]*\] picture: /\S+$")  # the console's file of a sent picture
PLAYER_COUNT = {"changelings": 8, "alchemists": 9}

# Common English words (four letters or more), besides every word of the English source texts:
# what a German or Russian text must not carry even where no source text has it.
COMMON_ENGLISH = frozenset("""
about above across after again against almost along already also although always among
another answer anyone anything around away back because become been before began begin
behind being believe below best better between both bring brought came cannot chance
change choose chosen close closed come comes could dark dead death does done down during
each early either else enough even ever every everyone everything face fact fall fell
find first found four friend from full gave give given goes going gone good great group
had half hand happen hard have having head hear heard help here high himself hold home
hope hour house however idea into itself just keep kept kill kind knew know known last
late later least leave left less life like little live long look made make many maybe mean
might mind more morning most move much must myself name near need needs never next nice
night nobody none nothing now number often once only open other others over own part people
perhaps place play player players please point power quite rather ready real really right
round said same saw says second seen sees send sent should show side since small some
someone something sometimes soon still stop such sure take taken tell than thank that their
them then there these they thing things think this those though three through time today
together told tonight took town turn turns under until upon very vote voted votes wait want
wants was watch water were what when where whether which while whole whom whose why wins
with within without woman word words work world would year years your yours yourself
""".split())  # noqa: SIM905 (a word list reads best as text)

# Words a German text rightly shares with English: German words and loanwords, the pony
# world's and the alchemists' proper names, and the role names the German community keeps in
# English (the source, ../shared/rules/changelings.source.de.txt).
GERMAN_ALSO = frozenset("""
admin alchemist alibi alle also bald bring chat chats client die fallen falls fast forum hand
hell id kind link matrix minute private
material name nest option phase plan rest screenshots stand start still team text warm will
explosion transmutation homunculus homunculi ishval ouroboros xing
pony ponys ponyville canterlot equestria celestia luna derpy pinkie chrysalis everfree forest
sweet apple
acres sugarcube corner muffin cupcake cupcakes party psst tick aaaaah
drama queen love poison mare well sense anti hate shield stalker pegasus changeling changelings
""".split())  # noqa: SIM905 (a word list reads best as text)


def _catalogs() -> list[Path]:
    found = [LOCALES_DIR]
    for ruleset_id in PLAYER_COUNT:
        locales = load_ruleset(ruleset_id).locales_dir
        assert locales is not None
        found.append(locales)
    return [p for d in found for p in d.glob("*/LC_MESSAGES/*.po")]


@cache
def english_words() -> frozenset[str]:
    """Every word of the English source texts, and common English words besides."""
    english: set[str] = set(COMMON_ENGLISH)
    for path in _catalogs():
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=path.parent.parent.name)
        for message in catalog:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            for text in ids:
                if text:
                    english.update(w.casefold() for w in WORD.findall(PLACEHOLDER.sub("", text)))
    return frozenset(english)


@cache
def typed_words() -> frozenset[str]:
    """What players and the host type as it is in every language: player names, option
    values and paces, on/off, the languages' codes."""
    words = {n.casefold() for n in NAMES} | set(PACES) | {"on", "off", "de", "ru", "en"}
    words.add("element")  # the Matrix client's name, whose menus a how-to names
    for ruleset_id in PLAYER_COUNT:
        for values in load_ruleset(ruleset_id).option_choices.values():
            words.update(v.casefold() for v in values)
    return frozenset(words)


def english_in(text: str, locale: str) -> list[str]:
    """The English words in a German or Russian text (commands and their arguments aside):
    in Russian every Latin word but a typed one, in German an English word that is not German
    as well."""
    prose = COMMAND_ARG.sub("", URL.sub("", TIME_ZONE.sub("", FLAG.sub("", text))))
    if locale == "ru":
        return [w for w in LATIN.findall(prose) if w.casefold() not in typed_words()]
    return [w for w in WORD.findall(prose) if w.casefold() in english_words()
            and w.casefold() not in GERMAN_ALSO | typed_words()]


def where(line: str) -> str:
    return line.partition("]")[0]


def problems(line: str, after: str = "", locale: str = "de") -> list[str]:
    """What is wrong in one line a player reads (its "[to Ann]" prefix taken off); `after`
    is the next line printed (a heading must be followed by its list, to the same reader)."""
    text = re.sub(r"^\[[^\]]*\] (buttons: )?", "", line)
    found = [f"placeholder {m}" for m in PLACEHOLDER.findall(text)]
    found += [f"raw phase {m.group(0)!r}" for m in RAW_PHASE.finditer(text)]
    found += ["empty list"] if EMPTY_LIST.search(text) or (
        HEADING.search(text) and where(after) != where(line)) else []
    prose = COMMAND_ARG.sub("", FLAG.sub("", text))
    found += [f"raw id {m}" for m in (*SNAKE.findall(prose), *RAW_PID.findall(prose))]
    found += [f"English {w!r}" for w in english_in(text, locale)]
    return found


async def whole_game(db_url: str, ruleset: str, locale: str, seed: int) -> list[str]:
    out = io.StringIO()
    session = ConsoleSession(db_url, out, locale, "manual", seed)
    await session.start()
    names = list(NAMES[:PLAYER_COUNT[ruleset]])
    host = names[0]
    try:
        for line in (f"{host}: /newgame {ruleset}", *(f"{n}: /join" for n in names[1:]),
                     f"{host}: /status", f"{host}: /option", f"{host}: /option early_close on",
                     f"{host}: /timer", f"{host}: /timer vote 3m",
                     f"{host}: /pace quick", f"{host}: /roles", f"{host}: /startgame",
                     f"{names[2]}> /help", f"{names[2]}> /status", f"{names[2]}> /myrole",
                     f"{host}: /status", f"{host}: /pause", f"{host}: /status",
                     f"{host}: /resume", f"{host}: /extend 5", f"{host}: /modkill {names[-1]}",
                     f"{names[3]}> /status", f"{host}: /roles"):
            await session.feed(line)
        await _play(session, names, random.Random(seed))
        await session.feed(f"{host}: /status")
    finally:
        await session.stop()
    return out.getvalue().splitlines()


@pytest.mark.parametrize("locale", ["de", "ru"])
@pytest.mark.parametrize("ruleset", sorted(PLAYER_COUNT))
async def test_a_whole_game_reads_native(db_url, ruleset, locale):
    lines = await whole_game(db_url, ruleset, locale, seed=3)
    assert any("[group]" in line for line in lines[-40:]), "the game was played to its end"
    bad = [(line, found) for line, after in zip(lines, [*lines[1:], ""], strict=True)
           if not PICTURE.match(line) for found in [problems(line, after, locale)] if found]
    assert not bad, "\n".join(f"{found}: {line}" for line, found in bad[:40])


def test_the_checks_catch_what_they_are_for():
    assert problems("[group] Phase: day 2 vote.")
    assert problems("[group] Einstellung geändert: random_lovers = aus.")
    assert problems("[to Ann] Noch nicht abgestimmt: .")
    assert problems("[group] Tote: , Bob.")
    assert problems("[to Ann] Noch nicht abgestimmt:", "[group] Tag 2.")
    assert not problems("[to Ann] Deine Rolle:", "[to Ann] Depp.")
    assert problems("[group] Spiel: {ruleset}.")
    assert problems("[group] Spiel: %(ruleset)s.")
    assert problems("[group] Zeit: noch 4 minutes.")
    assert problems("[to Ann] Das war mindestens 20 % cooler als sonst.")  # no source word
    assert problems("[to Ann] Твой выбор: Check.", locale="ru")
    assert problems("[to Ann] Это на 20% cooler.", locale="ru")
    assert problems("[group] p3 ist tot.")
    assert not problems("[group] Schreib /vote NAME oder /option stone_holder.")
    assert not problems("[group] Die Drama Queen ist still, und Ann will abstimmen.")
    assert not problems("[group] Темп — quick или forum, например Europe/Moscow.", locale="ru")


def _translations(path: Path) -> list[tuple[str, str]]:
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=path.parent.parent.name)
    return [(message.id[0] if isinstance(message.id, tuple) else message.id, text)
            for message in catalog if message.id
            for text in (message.string if isinstance(message.string, tuple)
                         else (message.string,))]


@pytest.mark.parametrize("path", sorted(_catalogs()),
                         ids=lambda p: f"{p.stem}-{p.parent.parent.name}")
def test_no_translation_carries_an_english_word(path):
    """Beyond the texts a few games happen to show: every German and Russian text."""
    locale = path.parent.parent.name
    bad = [(msgid, text, found) for msgid, text in _translations(path)
           for found in [english_in(PLACEHOLDER.sub("", text), locale)] if found]
    assert not bad, "\n".join(f"{found}: {text}" for _, text, found in bad[:30])


#: lists whose length needs no agreement: the languages the bot speaks, the rule sets, the
#: players a written name matches (always several), a day's link (one pair a line), the
#: roles of an alchemists' game (nine players or more: always several), a label before a
#: colon (no verb to agree: „Noch offen für dich: …“, «Тебе ещё осталось: …»)
LISTS_WITHOUT_COUNT = frozenset({
    "I speak {names}.", "There is no rule set called {name}. Available: {names}.",
    "“{name}” matches several players: {names}. Please write the full name.",
    "Links of {when}: {pairs}.",
    "A game of Alchemists begins with {count:w} players. Roles in play: {roles}.",
    "Still open for you: {actions}.",
})
LIST = re.compile(r"\{(names|roles|actions|pairs|sides)\}")


@pytest.mark.parametrize("path", sorted({p.parent.parent.parent / f"{p.stem}.pot"
                                        for p in _catalogs()}), ids=lambda p: p.stem)
def test_every_list_comes_with_its_count(path):
    """A sentence can agree with one name or several only if it knows how many: every text
    with a list is a plural message (ngettext), but for the few whose length never varies.
    (A plural message's sentence for exactly one, context `ONE`, is part of it.)"""
    with path.open("rb") as fh:
        catalog = read_po(fh)
    bare = [m.id for m in catalog if m.id and not isinstance(m.id, tuple) and m.context != ONE
            and LIST.search(m.id) and m.id not in LISTS_WITHOUT_COUNT]
    assert not bare, bare

"""The whole pipe, for every message: each msgid of every gettext domain (the core's
`nightfall`, each rule set's) with parameters of every kind its placeholders take, stored as
an outbox row (JSON and back), rendered in en, de and ru, and formatted by each adapter
(each with its own wording: command prefix and how-to texts; Telegram's splitting and
limits, Matrix's content, the console's lines).

No exception, no unfilled placeholder, no raw id, no English in German or Russian beyond the
names and commands people type. A placeholder this file does not know fails the test: a new
kind of parameter is added here with the values it takes, so the pipe is proven for it too.
"""

from __future__ import annotations

import ast
import asyncio
import io
import json
import re
import string
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from adapters.console.adapter import ConsoleAdapter
from adapters.matrix.adapter import MatrixAdapter
from adapters.matrix.protocol import content
from adapters.telegram.adapter import TelegramAdapter
from adapters.telegram.sending import split_text
from core.balance.presets import Preset
from core.balance.render import FEWER, FITTED_SKILL, MORE, SHARE, SPREAD_ITEM, TITLES
from core.engine.game import Game
from core.engine.log_codec import encode
from core.engine.messages import Either, Ref, Tally, Text, WithRole, counted
from core.engine.refusals import Refused
from core.engine.registry import load_ruleset
from core.engine.table import Table
from core.i18n import Renderer
from core.scenario import run_file, scenario_files
from core.service import ChatRef, HowTo, Post
from core.service.delivery.rendering import PLAIN, render_text
from core.service.messages.payloads import Part, PostPayload, from_json, to_json
from core.service.ports.howto import Wording, howto
from core.service.telling.settings_view import setting
from core.simulate import play_random_game
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.changelings import RULESET as CHANGELINGS

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("changelings", "alchemists")
DOMAINS: dict[str, Path] = {
    "nightfall": ROOT / "locales",
    **{rs: ROOT / "rulesets" / rs / "locales" for rs in RULESETS},
}
LOCALES = ("en", "de", "ru")
TELEGRAM_LIMIT = 4096

# Display names that break naive formatting: punctuation, markup, emoji, Cyrillic, spaces
NAMES = {"p1": "Ann", "p2": "O'Neil <b>&amp;", "p3": "Зоя 🦄", "p4": "Kim Lee", "p5": "_*[x]*_",
         "p6": "Бо"}
FREE_TEXTS = ("", "Ouch", "Dear Cid, I know what you did… <i>*_`[]</i> 🦄 Привет",
              "x" * 4000)


def vocabulary_ids(ruleset: str, kind: str) -> list[str]:
    return sorted(load_ruleset(ruleset).vocabulary.get(kind, {}))


def refs(kind: str, ids: list[str]) -> list[Ref]:
    return [Ref(kind, i) for i in ids]


PLAYERS = refs("player", list(NAMES))
COUNTS = (0, 1, 2, 5, 21)
DURATIONS = [Ref("duration", s) for s in ("0", "45", "240", "5400", "90061")] + [
    Ref("until", "3600 1796594400.0 Europe/Berlin"), Ref("duration", ""), Ref("span", "150")]


def _names(n: int) -> tuple[Ref, ...]:
    return tuple(PLAYERS[i % len(PLAYERS)] for i in range(n))


@cache
def parameters(ruleset: str) -> dict[str, list[Any]]:
    """What each placeholder is filled with in a game of `ruleset`: every kind of value the
    engine, the rule sets, the service and the archive pass for it (the random games and the
    scenarios emit these kinds, see test_every_emitted_kind_is_covered)."""
    def vocabulary(kind: str) -> list[Ref]:
        return refs(kind, vocabulary_ids(ruleset, kind))

    roles, actions = vocabulary("role"), vocabulary("action")
    sides = vocabulary_ids(ruleset, "side")
    return {
        "name": [*PLAYERS, "Zoë-Ann (♥)"],
        "first": PLAYERS, "second": PLAYERS, "target": PLAYERS, "voter": PLAYERS,
        "partner": PLAYERS, "actor": PLAYERS, "choice": [*PLAYERS, *roles[:3], *actions[:3]],
        "names": [_names(1), _names(2), _names(5), _names(21),
                  tuple(Ref("language_choice", code) for code in ("de", "en", "ru")),
                  (PLAYERS[0], WithRole(PLAYERS[1], roles[0])), (WithRole(PLAYERS[2], roles[1]),)],
        "targets": [_names(1), _names(2)],
        "role": [*roles, *vocabulary("role_was")],
        # a role's and a side's other forms, each asked by its own placeholder
        # (core/engine/forms.py): the code fills it with that form and no other
        "role_whom": refs("role_whom", vocabulary_ids(ruleset, "role_was")),
        "side_with": refs("side_with", sides),
        "roles": [tuple(roles[:1]), tuple(roles[:5]), tuple(roles)],
        "card": [*vocabulary("card"), *vocabulary("about")], "dealt": vocabulary("dealt"),
        "action": [*actions, Either(tuple(actions[:2]))],
        "actions": [tuple(actions[:1]), tuple(actions[:3])],
        "side": [*vocabulary("side"), *vocabulary("check"), *refs("side_label", sides)],
        "sides": ["ponies, changelings", tuple(refs("side_the", sides))],
        "cause": vocabulary("cause"),
        "result": vocabulary("check") or ["—"],
        "kind": vocabulary("kind") or ["—"],
        "count": list(COUNTS), "number": [1, 2, 21], "needed": [6, 9], "low": [-30, 1],
        "high": [10_080], "won": [0, 1, 21], "survived": [0, 1, 5], "rate": [0, 50, 100],
        "votes": [counted(("{count} penalty vote", "{count} penalty votes"), n) for n in COUNTS],
        "tally": [(Tally(PLAYERS[0], 3), Tally(PLAYERS[2], 1)), (Tally(PLAYERS[1], 21),)],
        "left": DURATIONS, "duration": DURATIONS,
        "due": [Ref("due", "1796594400.0 Europe/Berlin"), Ref("due", "1796000000.0 Asia/Tokyo")],
        "phase": [Ref("phase", p) for p in ("day 1 election", "day 2 vote", "night 3 dusk",
                                            "night 2", "day 4 reactions", "ended")],
        "ruleset": refs("ruleset", list(RULESETS)),
        "option": [*vocabulary("option_name"), "random_lovers"],
        "title": vocabulary("option_name"),
        "about": vocabulary("option"),
        "value": [Ref("option_value", v) for v in ("on", "off", "random", "3", "—")],
        "pace": [Ref("option_value", v) for v in ("quick", "forum")],
        "setting": [setting("pace", "quick"), setting("random_lovers", False)],
        "settings": [(setting("pace", "forum"), setting("roles", "default"))],
        "values": ["majority, all", "0, 2–4",
                   Either((Ref("option_value", "on"), Ref("option_value", "off")))],
        # a setting typed by the host, checked against the sign-up (issue 32)
        "paces": [Either((Ref("option_value", "quick"), Ref("option_value", "forum")))],
        "options": ["random_lovers, early_close"],
        "signed": ["Ann", Either(("Ann", "Bob", "Zoë-Ann (♥)"))],
        "least": [6, 9], "most": [20, 30], "players": [6, 21],
        "tz": ["Europe/Berlin", "America/Argentina/Buenos_Aires"],
        "command": ["vote", "abduct", "stone_check"],
        "chat": ["Pony Club <3 & «Друзья» 🦄", "g"], "host": ["Ann", "Зоя 🦄"],
        "language": ["Deutsch", "Русский", "—",
                     *(Ref("option_value", v) for v in ("en", "de", "ru")),
                     *(Ref("language", v) for v in ("en", "de", "ru"))],
        "link": ["https://example.org/chat/+AbC_d-1?x=1&y=2"],
        "text": list(FREE_TEXTS), "new": ["Zoë"], "old": ["Ann"],
        "how": [howto(topic) for topic in HowTo],
        # the archive page's own sentences get their words from core/story/texts.py
        "when": ["Night 2", "Ночь 2"], "pairs": ["Ann ♥ Bob", "Ann ♥ Bob, Cid ♥ Dot"],
        "date": ["Thursday, 3 December"], "time": ["20:00"], "weekday": ["Tuesday", "вторника"],
        # the host's timers (/timer): a window of the rule set, an exact span
        "window": vocabulary("window"), "windows": [tuple(vocabulary("window"))],
        "window_id": ["vote", "night"],  # a window as the host types it (/timer vote 10m)
        "shortest": [Ref("span", "30"), Ref("span", "150")],
        "longest": [Ref("span", "604800"), Ref("span", "90061")],
        # the balance advisor (core/balance/render.py): the rule set's own verdicts
        **balance_parameters(ruleset, sides, roles),
    }


def balance_parameters(ruleset: str, sides: list[str], roles: list[Ref]) -> dict[str, list[Any]]:
    target = load_ruleset(ruleset).balance
    assert target is not None
    share = [Text(SHARE, {"side": Ref("side", s), "rate": r, "margin": m})
             for s, r, m in zip(sides, (53, 46, 1), (2, 2, 1), strict=False)]
    return {
        # a preset's title, or the skill a chat's own games fit (core/balance/calibrate.py)
        "skill": [*(Text(TITLES[p], {}) for p in Preset), Text(FITTED_SKILL, {"fitted": 32})],
        "preset": [Text(TITLES[p], {}) for p in Preset], "fitted": [5, 32, 60],
        "shares": [tuple(share[:1]), tuple(share)],
        "verdict": [Text(target.fair, {}), Text(target.leans, {"side": Ref("side", sides[0])})],
        "margin": [1, 2, 12],
        "spread": [tuple(Text(SPREAD_ITEM, {"skill": Text(TITLES[p], {}), "rate": 41,
                                            "margin": 3}) for p in Preset)],
        "changes": [(Text(MORE, {"count": 1, "role": roles[0]}),),
                    (Text(FEWER, {"count": 1, "role": roles[1]}),
                     Text(MORE, {"count": 2, "role": roles[2]}))],
        "days": ["6"], "seconds": [30],
        # the skills as a host types them after /balance, in the reader's words
        "presets": [Either(tuple(Ref("skill", p.value) for p in Preset))],
        "example": [Ref("skill", p.value) for p in Preset],
    }

# Latin words a German or Russian text may hold: what people type after a command, the
# names and codes of things, and what the parameters above bring
TYPED = {"on", "off", "de", "ru", "en", "default", "group", "quick", "forum", "Europe",
         "Berlin", "researcher", "night", "game", "majority", "all", "random", "always",
         "never", "https", "Telegram", "Matrix", "Element", "ROLE", "NAME", "TEXT", "MINUTES",
         "NEWCOMER", "LINK", "ACTION", "username", "once", "reset", "BotFather"}
ENGLISH = {"the", "you", "your", "is", "are", "has", "have", "with", "this", "that", "not",
           "they", "their", "which", "would", "could", "player", "players", "vote", "votes",
           "night", "day", "role", "roles", "when", "what", "who", "cannot", "already",
           "please", "game", "choose", "nobody", "everybody", "time", "left", "of", "and",
           "to", "be", "been", "it", "its", "there", "here"}
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
RAW_PLAYER = re.compile(r"\bp[1-6]\b")
COMMAND = re.compile(r"[/!][^\W\d][\w]*(?:\s+(?:[a-z_]+\|)+[a-z_]+)?")


@cache
def catalog(domain: str, locale: str | None = None) -> list[Any]:
    folder = DOMAINS[domain]
    path = (folder / f"{domain}.pot" if locale is None
            else folder / locale / "LC_MESSAGES" / f"{domain}.po")
    with path.open("rb") as fh:
        return [m for m in read_po(fh, locale=locale) if m.id]


def placeholders(template: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(template) if field]


def parameter_rounds(fields: set[str], ruleset: str) -> Iterator[dict[str, Any]]:
    """Each placeholder takes each of its kinds at least once across the rounds."""
    kinds = parameters(ruleset)
    unknown = fields - kinds.keys()
    assert not unknown, f"placeholders of unknown kind (add them to `parameters`): {unknown}"
    rounds = max((len(kinds[f]) for f in fields), default=1)
    for i in range(rounds):
        yield {f: kinds[f][i % len(kinds[f])] for f in sorted(fields)}


def stored_and_back(part: Part) -> Part:
    """The part as an outbox row keeps it: JSON text, then the payload again."""
    row = json.loads(json.dumps(to_json(PostPayload((part,)))))
    payload = from_json(row)
    assert isinstance(payload, PostPayload)
    return payload.parts[0]


def renderer(locale: str, ruleset: str, words: Wording = PLAIN) -> Renderer:
    return Renderer(locale, load_ruleset(ruleset).vocabulary,
                    lambda pid: NAMES.get(pid, pid), words.prefix, ruleset, words.howto)


def given_words(params: dict[str, Any], shown: Renderer) -> str:
    """What the parameters themselves put into the text (names, free text, typed values)."""
    words = [str(v) for v in params.values() if isinstance(v, str)]
    words += [str(shown.value(v)) for v in params.values() if not isinstance(v, str)]
    return " ".join(words) + " " + " ".join(NAMES.values())


def foreign_words(text: str, locale: str, allowed: str) -> set[str]:
    """English words in a German or Russian text, beyond the allowed ones."""
    text = COMMAND.sub(" ", text.replace(allowed, " "))
    text = re.sub(r"https?://\S+|\b[\w-]+/[\w/-]+", " ", text)  # links, time zones
    latin = set(re.findall(r"[A-Za-z][A-Za-z'’]+", text)) - set(re.findall(r"[A-Za-z']+", allowed))
    if locale == "ru":
        return {w for w in latin if w not in TYPED}
    return {w for w in latin if w.lower() in ENGLISH and w not in TYPED}


async def through_console(text: str) -> str:
    out = io.StringIO()
    await ConsoleAdapter(out).send_post(Post(1, ChatRef("g"), text))
    return out.getvalue()


def on_telegram(text: str) -> None:
    chunks = split_text(text)
    assert all(0 < len(c) <= TELEGRAM_LIMIT for c in chunks)
    assert "".join(chunks).replace("\n", "").replace(" ", "") == \
        (text.strip() or "…").replace("\n", "").replace(" ", "")


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.data: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.add(tag)

    def handle_data(self, data: str) -> None:
        self.data.append(data)


def on_matrix(text: str) -> None:
    body = content.message(text, content.TEXT, {})
    assert json.loads(json.dumps(body))["body"] == text
    # a text that asks a player to act names him with a pill in its HTML body: the text's
    # own characters (names with markup, free text) stay text, never tags
    name = NAMES["p2"]
    html = _Html()
    html.feed(content.with_pill(text, "@oneil:example.org", name))
    assert html.tags <= {"a", "br"}
    shown = "".join(html.data)
    assert shown in (text.replace("\n", ""), f"{name}: " + text.replace("\n", ""))


def on_console(text: str) -> None:
    printed = asyncio.run(through_console(text))
    assert all(line in printed for line in text.split("\n") if line.strip())


# each adapter's wording (its command prefix, its how-to texts) and its own form of a text
ADAPTERS = {"telegram": (TelegramAdapter.wording, on_telegram),
            "matrix": (MatrixAdapter.wording, on_matrix),
            "console": (ConsoleAdapter.wording, on_console)}


def domain_rulesets(domain: str) -> tuple[str, ...]:
    """The core's texts are said in games of every rule set (each with its vocabulary)."""
    return RULESETS if domain == "nightfall" else (domain,)


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_every_message_is_translated_in_each_language(domain):
    for locale in ("de", "ru"):
        missing = []
        for message in catalog(domain, locale):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(forms):
                missing.append(message.id)
        assert not missing, f"{domain}/{locale}: untranslated {missing[:5]} ({len(missing)})"


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_every_message_survives_the_outbox_rendering_and_each_adapter(domain):
    problems: list[str] = []
    for message in catalog(domain):
        if message.context:  # a role's running-text form: a word, not a sentence
            continue
        singular, plural = (message.id if isinstance(message.id, tuple)
                            else (message.id, None))
        fields = set(placeholders(singular)) | set(placeholders(plural or ""))
        for ruleset in domain_rulesets(domain):
            for params in parameter_rounds(fields, ruleset):
                counts = COUNTS if plural is not None else (None,)
                for count in counts:
                    values = dict(params, count=count) if count is not None else params
                    part = stored_and_back(Part(singular, plural, count, _encoded(values)))
                    for locale in LOCALES:
                        for platform, (words, formatted) in ADAPTERS.items():
                            shown = renderer(locale, ruleset, words)
                            try:
                                text = render_text(shown, (part,))
                            except Exception as err:  # each is reported, the walk goes on
                                problems.append(f"{platform}/{locale}: {singular!r}: {err!r}")
                                continue
                            problems += _checked(text, locale, singular, values, shown)
                            formatted(text)
    assert not problems, "\n".join(sorted(set(problems))[:40]) + f"\n({len(problems)} in all)"


def _encoded(values: dict[str, Any]) -> dict[str, Any]:
    return encode(values)  # type: ignore[no-any-return]


def _checked(text: str, locale: str, key: str, params: dict[str, Any],
             shown: Renderer) -> list[str]:
    found = []
    if PLACEHOLDER.search(text):
        found.append(f"{locale}: unfilled placeholder in {text[:80]!r}")
    if RAW_PLAYER.search(text):
        found.append(f"{locale}: a raw player id in {text[:80]!r}")
    for value in params.values():
        for ref in (value if isinstance(value, tuple) else (value,)):
            if isinstance(ref, Ref) and ref.kind in {"role", "action", "side", "cause",
                                                     "check", "role_was"} \
                    and "_" in ref.value and ref.value in text:
                found.append(f"{locale}: the raw id {ref.value} in {text[:80]!r}")
    if locale != "en":
        english = foreign_words(text, locale, given_words(params, shown))
        if english:
            found.append(f"{locale}: English {sorted(english)} in {key!r}: {text[:100]!r}")
    return found


def test_a_counted_phrase_inside_a_sentence_keeps_its_own_plural():
    phrase = counted(("{count} penalty vote", "{count} penalty votes"), 5)
    part = stored_and_back(Part("{name} carries {votes}.", None, None,
                                _encoded({"name": PLAYERS[2], "votes": phrase})))
    assert render_text(renderer("en", "alchemists"), (part,)) == \
        "Зоя 🦄 carries 5 penalty votes."


# ----------------------------------------------------------------- what the code emits

@cache
def msgids(*domains: str) -> set[str]:
    found: set[str] = set()
    for domain in domains:
        for message in catalog(domain):
            found.update(message.id if isinstance(message.id, tuple) else (message.id,))
    return found


def kind_of(value: Any) -> str:
    """A parameter's kind, as the renderer tells them apart."""
    if isinstance(value, Ref):
        return f"ref:{value.kind}"
    if isinstance(value, tuple):
        return "list:" + ",".join(sorted({kind_of(v) for v in value}))
    return type(value).__name__


def emitted_texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Every text the engine and the rule sets say or refuse with, in random games of both
    rule sets and in every scenario (the rules' own situations), with its rule set."""
    said: list[tuple[str, Any]] = []
    playing: list[str] = []

    def keep(key: str, plural: str | None, params: dict[str, Any]) -> None:
        said.append((playing[-1], (key, plural, dict(params))))

    tell, tell_n = Table.tell, Table.tell_n
    monkeypatch.setattr(Table, "tell", lambda self, audience, key, **params: (
        keep(key, None, params), tell(self, audience, key, **params))[1])
    monkeypatch.setattr(Table, "tell_n", lambda self, audience, one, many, count, **params: (
        keep(one, many, {**params, "count": count}),
        tell_n(self, audience, one, many, count, **params))[1])
    apply = Game.apply

    def applied(self: Game, command: Any) -> Any:
        try:
            return apply(self, command)
        except Refused as refusal:
            text = refusal.text
            keep(text.key, text.plural, dict(text.params))
            raise

    monkeypatch.setattr(Game, "apply", applied)
    for ruleset, sizes in ((CHANGELINGS, range(6, 19, 3)), (ALCHEMISTS, range(9, 21, 3))):
        playing.append(ruleset.id)
        for seed, players in enumerate(sizes):
            play_random_game(ruleset, players, seed)
    for path in scenario_files([str(ROOT / "tests" / "scenarios")]):
        playing.append(next(rs for rs in RULESETS if rs in path.parts))
        run_file(path)
    return said


def test_every_text_the_engine_emits_is_an_extracted_msgid_with_known_kinds(monkeypatch):
    said = emitted_texts(monkeypatch)
    assert len(said) > 10_000
    strays, unknown_kinds = set(), set()
    for ruleset, (key, plural, params) in said:
        known = msgids(ruleset, "nightfall")
        if key not in known or (plural is not None and plural not in known):
            strays.add(key)
        kinds = parameters(ruleset)
        for name in set(placeholders(key)) | set(placeholders(plural or "")):
            value = params.get(name)
            if kind_of(value) not in {kind_of(v) for v in kinds.get(name, [])}:
                unknown_kinds.add(f"{name}={kind_of(value)} in {key!r}")
    assert not strays, f"not extracted (mark them with N_): {sorted(strays)}"
    assert not unknown_kinds, f"kinds this test does not send through: {sorted(unknown_kinds)}"


SPEAKERS = {"Refused": 0, "Reply": 0, "SetupError": 0, "refused_n": 0, "tell": 1,
            "tell_n": 1, "post": 0, "part": 0}


def literal_texts() -> Iterator[tuple[str, int, str]]:
    """The literal texts given to a refusal, a reply, a setup error or a `tell` anywhere in
    the code: (file, line, text)."""
    for folder in ("core", "adapters", "rulesets"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "_template.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                position = SPEAKERS.get(name)
                if position is None or len(node.args) <= position:
                    continue
                arg = node.args[position]
                if isinstance(arg, ast.JoinedStr):
                    yield str(path.relative_to(ROOT)), node.lineno, "<an f-string>"
                elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield str(path.relative_to(ROOT)), node.lineno, arg.value


def test_every_literal_refusal_reply_and_tell_is_an_extracted_msgid():
    known = msgids(*DOMAINS)
    strays = [f"{path}:{line}: {text!r}" for path, line, text in literal_texts()
              if text not in known]
    assert not strays, "texts no catalog holds (mark them with N_):\n" + "\n".join(strays)

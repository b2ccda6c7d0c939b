"""The secrecy check both platforms' end-to-end tests run over whole games: every group
message the engine produced carries the number of the command behind it, so the log is
replayed to that point and the text the group really received is checked against the
secrets of that moment:
- until the game ends, a living player's role never stands in one sentence with their name
  (role cards, checks, team knowledge stay private) — unless the rules made it public (Derpy
  escaping a banishment is revealed to the group, an `escaped` event);
- while a night runs (not the command that ends it), the group hears no player's name
  (night targets stay secret until the morning post);
- the lovers are never named together, in words of love, while both live (a list of several
  players, such as a tie or a roll call, that happens to hold both says nothing about them).
"""

from __future__ import annotations

import re
from typing import Any

from core.engine import replay
from core.engine.log_codec import command_from_json, setup_from_json
from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.service.delivery.rendering import PLAIN, render
from core.service.messages.payloads import PostPayload, from_json
from core.service.ports.howto import Wording
from core.storage.models import GameRecord, LogEntry, Outbox

SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
PUBLIC_REVEALS = frozenset({"escaped"})  # events after which a living player's role is public
LOVE = re.compile(r"lov|heart|lieb|herz|люб|влюб|сердц", re.IGNORECASE)  # any catalog's words


async def assert_no_early_secrets(seen: set[str], row: GameRecord,
                                  words: Wording = PLAIN) -> int:
    """Check every engine message the group received (`seen`: every version of every text
    the group's members could read, in the platform's `words`);
    returns how many were checked."""
    rows = [r for r in await Outbox.filter(game_id=row.id, private=False, status="sent")
            .order_by("id") if engine_seq(r) is not None]
    commands = [command_from_json(e.command)
                for e in await LogEntry.filter(game_id=row.id).order_by("seq")]
    setup = setup_from_json(row.setup or {})
    rules = load_ruleset(row.ruleset)
    vocabulary = Renderer("en", rules.vocabulary, str)  # the words a secret would be told in
    checked = 0
    for message in rows:
        text = (await render(message, words)).text
        assert text in seen, f"delivered but not in the group's history: {text}"
        seq = engine_seq(message)
        game = replay(rules, setup, commands[:seq])
        state = game.state
        public = {e.data["player"] for _, outcome in game.log for e in outcome.events
                  if e.kind in PUBLIC_REVEALS}
        before = replay(rules, setup, commands[:seq - 1]).state if seq else state
        in_the_night = before.phase.kind == state.phase.kind == "night"
        if state.phase.kind == "ended":
            continue  # the end-of-game summary makes every secret public
        problems = leaks(text, state, in_the_night, vocabulary, public)
        assert not problems, problems
        checked += 1
    assert checked >= 8  # a whole game's announcements were checked (the opening is one)
    return checked


def engine_seq(row: Outbox) -> int | None:
    """The game version an engine message came from; None for anything else."""
    payload = from_json(row.payload)
    return payload.seq if isinstance(payload, PostPayload) else None


def leaks(text: str, state: Any, in_the_night: bool, words: Renderer,
          public: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """What in a group text gives away a secret of this moment of the game (`public`: the
    players whose role the rules have revealed to the group while they live)."""
    found = []
    for sentence in SENTENCE.split(text):
        for p in state.players.values():
            role = words.word(Ref("role", p.role))
            if p.alive and p.pid not in public and _names(sentence, p.name) and \
                    _names(sentence, role):
                found.append(f"{p.name} ({role}) revealed while alive: {sentence}")
        if in_the_night and any(_names(sentence, p.name) for p in state.players.values()):
            found.append(f"a name in the group during the night: {sentence}")
        lovers = getattr(state.rs, "lovers", None)
        if lovers and all(state.players[pid].alive for pid in lovers) and all(
                _names(sentence, state.players[pid].name) for pid in lovers) and \
                LOVE.search(sentence):
            found.append(f"the lovers named together: {sentence}")
    return found


def _names(sentence: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", sentence) is not None

"""Events are typed records, one declared kind each; the stored form stays `[kind, data]`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from core import simulate
from core.engine.events import EVENT_KINDS, Event, Removed, Voted, event_kind, make_event
from core.engine.ids import PlayerId
from core.engine.registry import load_ruleset


def test_an_event_is_a_typed_record_with_its_stored_form() -> None:
    vote = Voted(PlayerId("p1"), None)
    assert vote.kind == "voted"
    assert vote.data == {"voter": "p1", "target": None}
    assert make_event("voted", vote.data) == vote


def test_a_kind_nobody_declared_or_a_wrong_field_fails_at_once() -> None:
    with pytest.raises(KeyError, match="no event kind"):
        make_event("vanished", {"player": "p1"})
    with pytest.raises(TypeError):
        make_event("removed", {"player": "p1", "why": "modkill", "role": "pony"})


def test_a_kind_declared_twice_must_have_the_same_fields() -> None:
    @event_kind("removed")
    @dataclass(frozen=True, slots=True)
    class RemovedAgain(Event):  # a copied rule set declaring it once more: harmless
        player: PlayerId
        cause: str
        role: str

    EVENT_KINDS["removed"] = Removed
    with pytest.raises(TypeError, match="declared twice"):
        @event_kind("removed")
        @dataclass(frozen=True, slots=True)
        class Other(Event):
            player: PlayerId


@pytest.mark.parametrize("ruleset_id", ["changelings", "alchemists"])
def test_every_event_of_a_played_game_is_of_a_declared_kind(ruleset_id: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    seen: set[str] = set()
    for seed in range(8):
        game = simulate.play_random_game(ruleset, 12, seed)
        for _command, outcome in [(None, game.opening), *game.log]:
            for event in outcome.events:
                assert isinstance(event, EVENT_KINDS[event.kind])
                seen.add(event.kind)
    assert {"phase", "voted", "removed", "ended"} <= seen

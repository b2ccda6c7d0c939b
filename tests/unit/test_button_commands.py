"""A button's command is stored as the JSON it always was, so that a button offered by an
earlier version (still under a message in a chat) resolves as it did."""

from __future__ import annotations

import pytest

from core.engine.ids import PlayerId, RoleId
from core.service.messages.button_commands import (
    ActOn,
    Confirm,
    Hello,
    Join,
    Leave,
    MarkEarly,
    PickFirst,
    VoteFor,
    from_json,
    to_json,
)

P1, P2 = PlayerId("p1"), PlayerId("p2")

# each kind with the JSON earlier versions stored for it
STORED = [
    (VoteFor(P1), {"type": "vote", "target": "p1"}),
    (VoteFor(None), {"type": "vote", "target": None}),
    (MarkEarly(), {"type": "early"}),
    (ActOn("check", (P1,)), {"type": "act", "action": "check", "targets": ["p1"]}),
    (ActOn("pass", ()), {"type": "act", "action": "pass", "targets": []}),
    (ActOn("love", (P1, P2)), {"type": "act", "action": "love", "targets": ["p1", "p2"]}),
    (ActOn("guess", (), RoleId("pony")),
     {"type": "act", "action": "guess", "targets": [], "role": "pony"}),
    (PickFirst("love", P1), {"type": "pick", "action": "love", "targets": ["p1"]}),
    (Join(), {"type": "join"}),
    (Leave(), {"type": "leave"}),
    (Hello(), {"type": "hello"}),
    (Confirm("flee", 7, "confirm-1-7-ab"),
     {"type": "flee", "identity": 7, "replace": "confirm-1-7-ab"}),
    (Confirm("endgame", 7, "confirm-1-7-cd"),
     {"type": "endgame", "identity": 7, "replace": "confirm-1-7-cd"}),
    (Confirm("keep", 7, "confirm-1-7-cd"),
     {"type": "keep", "identity": 7, "replace": "confirm-1-7-cd"}),
]


@pytest.mark.parametrize(("command", "stored"), STORED)
def test_each_kind_is_stored_as_before_and_read_back(command, stored):
    assert to_json(command) == stored
    assert from_json(stored) == command


def test_a_command_of_no_known_kind_is_refused():
    with pytest.raises(ValueError, match="no such button command"):
        from_json({"type": "dance"})

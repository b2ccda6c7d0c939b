"""What the homunculus game's texts tell a simulated player, read by key and typed parameters:
his card, the requests forwarded to father, the Stone in his hands, and the sides the group is
told of the executed (AL-REVEAL)."""

from __future__ import annotations

from core.balance.view import Public, View, player_of
from core.engine import Message
from core.engine.ids import RoleId
from core.engine.messages import Ref

from ..voice import OWN

STONE, FINISHED = "stone", "stone_finished"  # `View.notes` keys
REQUEST = "request:"  # `View.notes` key prefix: father's forwarded requests, by sender
_REQUESTS = frozenset(OWN["REQUEST"])
_STONE = "The Philosopher's Stone is yours."
_STONE_FINISHED = ("The Philosopher's Stone is yours, and it is finished.", "Five or fewer")


def read(view: View | None, public: Public, message: Message) -> None:
    """One message for one player (`view`) or for the whole table (`view` None)."""
    text = message.text
    params = text.params
    if view is None:
        first, second = player_of(params.get("first")), player_of(params.get("second"))
        if first is not None and second is not None:  # linked today: no votes between them
            public.links |= {(first, second), (second, first)}
        published = params.get("published")
        if isinstance(published, Ref):
            pid = player_of(params.get("name"))
            if pid is not None:  # the side as xing's check says it: homunculi, town, loner
                public.revealed[pid] = RoleId(published.value)
        return
    key = text.key
    if key in _REQUESTS:
        sender = player_of(params.get("name"))
        if sender is not None:
            view.notes[REQUEST + sender] = player_of(params.get("target"))
    elif key.startswith(_STONE):
        view.counts[STONE] = len(public.living)  # the living when it came to him
        if key.startswith(_STONE_FINISHED[0]):
            view.notes[FINISHED] = view.me
    elif key.startswith(_STONE_FINISHED[1]):
        view.notes[FINISHED] = view.me
    else:
        dealt = params.get("dealt")
        if isinstance(dealt, Ref):
            view.card = RoleId(dealt.value)

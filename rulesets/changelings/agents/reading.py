"""What the pony game's texts tell a simulated player: each message the bot sends is read by
its key (the msgid the rule set told) and its typed parameters, never by its words, into the
reader's `View` (or, for the group's messages, into the table's `Public`)."""

from __future__ import annotations

from collections.abc import Callable

from core.balance.view import Public, View, player_of
from core.engine import Message
from core.engine.ids import RoleId
from core.engine.messages import Ref

from .. import flavour
from ..voice import OWN

CHANGELING = RoleId("changeling")
FORESIGHT, CONFUSED = "foresight", "confused"  # `View.notes` keys

_FELLOWS = "Your fellow changeling: {names}."
_JOINED = ("{name} has joined the changelings.", "The exchange worked: {name} is one of you now.")
_TURNED = (*flavour.EXCHANGED, *flavour.EXCHANGED_IN_LOVE,
           "You wake up: you were a changeling all along! The hive welcomes you, but your heart "
           "still belongs to {partner}.",
           "You wake up: you were a changeling all along! You now play with the changelings.")
_STALKED = "{name} is the confused changeling."


def _fellows(view: View, message: Message) -> None:
    names = message.text.params.get("names", ())
    for name in names if isinstance(names, tuple) else (names,):
        pid = player_of(name)
        if pid is not None:
            view.fellows.add(pid)
    _turned(view, message)


def _joined(view: View, message: Message) -> None:
    pid = player_of(message.text.params.get("name"))
    if pid is not None:
        view.fellows.add(pid)


def _turned(view: View, message: Message) -> None:
    """He is on the changelings' team now (exchanged, awakened, or from the start)."""
    if view.card not in TEAM_ROLES:
        view.card = CHANGELING


def _foresight(view: View, message: Message) -> None:
    view.notes[FORESIGHT] = player_of(message.text.params.get("name"))


def _quiet(view: View, message: Message) -> None:
    view.notes[FORESIGHT] = None


def _stalked(view: View, message: Message) -> None:
    view.notes[CONFUSED] = player_of(message.text.params.get("name"))


_MAYOR = frozenset(OWN["NEW_MAYOR"])
TEAM_ROLES = frozenset({CHANGELING, RoleId("queen"), RoleId("liar")})
_PRIVATE: dict[str, Callable[[View, Message], None]] = {
    _FELLOWS: _fellows, _STALKED: _stalked,
    **dict.fromkeys(_JOINED, _joined), **dict.fromkeys(_TURNED, _turned),
    **dict.fromkeys(OWN["PINKIE_TINGLES"], _foresight),
    **dict.fromkeys(OWN["PINKIE_QUIET"], _quiet),
}


def read(view: View | None, public: Public, message: Message) -> None:
    """One message for one player (`view`) or for the whole table (`view` None)."""
    params = message.text.params
    if view is None:
        if message.text.key in _MAYOR:
            public.mayor = player_of(params.get("name"))
            return
        revealed = params.get("revealed")
        if isinstance(revealed, Ref):
            pid = player_of(params.get("name"))
            if pid is not None:
                public.revealed[pid] = RoleId(revealed.value)
        elif "roles" in params:
            listed = params["roles"]
            public.in_play = frozenset(RoleId(r.value) for r in
                                       (listed if isinstance(listed, tuple) else (listed,))
                                       if isinstance(r, Ref))
        elif "side" in params and message.text.count is not None:
            public.hiding = message.text.count
        return
    handler = _PRIVATE.get(message.text.key)
    if handler is not None:
        handler(view, message)
        return
    dealt = params.get("dealt")
    if isinstance(dealt, Ref):
        view.card = RoleId(dealt.value)
    partner = player_of(params.get("partner"))
    if partner is not None:
        view.partner = partner

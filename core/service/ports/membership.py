"""People coming and going in a game's group chat, as each adapter reads it from its
platform (a Matrix `m.room.member` event, a Telegram `chat_member` update or its
`left_chat_member` / `new_chat_members` service message).

The rules know no chat: a player who leaves the game's chat while his game runs goes as
`/flee` takes him out (after a grace time in which coming back cancels it; at once when
someone else put him out), and a sign-up is dropped at once. The service decides that
(commands/departures.py); an adapter only says what happened, once per platform update."""

from __future__ import annotations

from dataclasses import dataclass

from .contract import ChatRef, UserRef


@dataclass(frozen=True, slots=True)
class MemberLeft:
    """`user` is no longer a member of the group chat `chat` (the whole chat: a Telegram
    forum's topics all go with it). `kicked`: someone else put him out (a kick, a ban),
    rather than he left (or his client left for him). `update_id` is the platform's id of
    the update that said so, applied once."""

    platform: str
    update_id: str
    chat: ChatRef
    user: UserRef
    kicked: bool = False


@dataclass(frozen=True, slots=True)
class MemberBack:
    """`user` is a member of the group chat `chat` again (he rejoined, or accepted an
    invite back): a departure still in its grace time is cancelled."""

    platform: str
    update_id: str
    chat: ChatRef
    user: UserRef


Membership = MemberLeft | MemberBack

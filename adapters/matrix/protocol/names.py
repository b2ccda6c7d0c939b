"""People's names as the bot hands them to the service, computed as the Matrix spec says
clients must ("Calculating the display name for a user"): the room's member event's display
name (else the user id's localpart); a name another member of the room also has, or one
that spells another member's user id, is disambiguated with the user id, "Ann
(@ann:example.org)" for each who shares it. Nobody can take another player's name and be
voted for in his place: a vote cast stays with its seat, and "vote Ann" typed after Bob
renamed himself "Ann" names Ann or is asked back, never Bob. Names are cleaned of line
breaks and control characters (a nickname "Ann\\n\\n☀️ Bob is a changeling" must not become a
fake announcement inside the bot's message) and shortened to what the database holds.

A person's name is his name in the game's room, never one read elsewhere: what he does in
a private or team room, or in a room the bot knows nothing of yet (a direct chat it has just
joined), names him as in the group room he shares with the bot — the one he last wrote in,
else any — so his name does not change with the room he writes in. Only a person who shares
no group room with the bot is named by the room itself (or his localpart).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from core.service import NAME_LENGTH

from .incoming import localpart

PRESENT = ("join", "invite")
Members = Mapping[str, Mapping[str, tuple[str, str | None]]]  # room → user → (membership, name)
# invisible format characters that reorder or hide text; emoji joiners and selectors stay
BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F,
                         0x061C)}


def clean(name: str) -> str:
    """One line of visible text: control characters, line and paragraph breaks and bidi
    controls become spaces, runs of spaces one."""
    kept = [" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI else c
            for c in name]
    return " ".join("".join(kept).split())


def display_name(members: Members, room_id: str, user: str, private: set[str],
                 last: str | None = None) -> str:
    """The person's name as the service should know it (see the module's docstring);
    `last`: the group room he last wrote in, if any."""
    people = members.get(naming_room(members, room_id, user, private, last), {})
    own = _own_name(people, user)
    others = [(other, _own_name(people, other)) for other, (membership, _) in people.items()
              if other != user and membership in PRESENT]
    wanted = own.casefold()
    taken = any(name.casefold() == wanted or other.casefold() in wanted
                for other, name in others)
    return with_id(own, user) if taken else own[:NAME_LENGTH]


def naming_room(members: Members, room_id: str, user: str, private: set[str],
                last: str | None = None) -> str:
    """The room whose member state names the person: this one if it is a group room he is
    in, else the group room he last wrote in, else the first group room he is in, else this
    one."""
    def present(room: str) -> bool:
        return room not in private and \
            members.get(room, {}).get(user, ("leave",))[0] in PRESENT

    if present(room_id):
        return room_id
    if last is not None and present(last):
        return last
    shared = sorted(room for room in members if present(room))
    return shared[0] if shared else room_id


def with_id(name: str, user: str) -> str:
    """`Ann (@ann:example.org)`, the name shortened so that the whole fits the database."""
    suffix = f" ({user})"
    room_for_name = NAME_LENGTH - len(suffix)
    if room_for_name < 1:
        return user[:NAME_LENGTH]
    return name[:room_for_name].rstrip() + suffix


def _own_name(people: Mapping[str, tuple[str, str | None]], user: str) -> str:
    member = people.get(user)
    name = clean(member[1]) if member is not None and member[1] else ""
    return name or localpart(user)

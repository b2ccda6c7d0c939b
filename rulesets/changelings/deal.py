"""CH-SIZE and CH-DEAL: how many changelings, and the default walk of special roles."""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.engine.ids import RoleId
from core.engine.ruleset import SetupError

from .hooks import CHANGELING_ROLES, SETUP_CHECKS

WALK: tuple[str | tuple[str, str], ...] = (
    "researcher", "shield", "love_poison", "pinkie_sense", "queen", "drama_queen", "derpy",
    "mare_do_well", "lucky", "liar", "fanatic", ("confused_changeling", "stalker"))


# the walk's entries as groups of role ids, made once (every game is dealt from them)
_GROUPS = tuple(tuple(RoleId(r) for r in (entry if isinstance(entry, tuple) else (entry,)))
                for entry in WALK)


def default_changelings(count: int) -> int:
    return 2 if count <= 9 else 3 if count <= 14 else 4


def deal_roles(count: int, changelings: int, rng: random.Random) -> list[RoleId]:
    """Walk the list; a pony-side role fits only if plain ponies stay ≥ pony-side specials;
    queen and liar replace a plain changeling and need one left to replace."""
    changelings = changelings or default_changelings(count)
    plain_changelings = changelings
    pony_seats = count - changelings
    pony_specials: list[RoleId] = []
    changeling_specials: list[RoleId] = []
    for group in _GROUPS:
        if group[0] in CHANGELING_ROLES:
            if plain_changelings < 1:
                break
            plain_changelings -= 1
            changeling_specials.append(group[0])
            continue
        specials = len(pony_specials) + len(group)
        if pony_seats - specials < specials:
            break
        pony_specials.extend(group)
    roles = (pony_specials + [RoleId("pony")] * (pony_seats - len(pony_specials))
             + changeling_specials + [RoleId("changeling")] * plain_changelings)
    rng.shuffle(roles)
    return roles


def check_roles(roles: Sequence[RoleId], changelings_option: int) -> None:
    team = sum(1 for r in roles if r in CHANGELING_ROLES)
    if team < 1:
        raise SetupError("A game needs at least one changeling.")
    if not 2 <= team <= 4:  # CH-SIZE: "zwei bis vier Changelinge", a listed deal included
        raise SetupError("The number of changelings must be 2 to 4.")
    if team >= len(roles) - team:
        raise SetupError("There must be more ponies than changelings.")
    for role_id in dict.fromkeys(roles):  # each role once, in the order listed
        role_check = SETUP_CHECKS.handlers.get(role_id)
        if role_check is not None:
            role_check(roles)
    if changelings_option and not 2 <= changelings_option <= 4:
        raise SetupError("The number of changelings must be 2 to 4.")

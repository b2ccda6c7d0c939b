"""The homunculus game's balance target for the advisor (core/balance): three sides and
co-winners, so not "50 %" but the town and the homunculi within five points of each other,
and the Ishvalan near a loner's share, 10 to 20 % (the balance research's proposal); Crimson
and Greed win beside others and are reported, not aimed at."""

from __future__ import annotations

from core.engine.balance_target import BalanceTarget, Band, Pair
from core.engine.messages import N_

from .common import HOMUNCULI, ISHVALAN, TOWN

BALANCE = BalanceTarget(
    filler="alchemist",
    headline=TOWN,
    contenders=(TOWN, HOMUNCULI, ISHVALAN),
    bands=(Band(ISHVALAN, 0.10, 0.20),),
    pairs=(Pair(TOWN, HOMUNCULI, 0.05),),
    fair=N_("an even struggle"),
    leans=N_("weighted in favour of {side}"),
)

"""The pony game's balance target for the advisor (core/balance): the ponies win half the
games, give or take five points; the lovers' rare wins are reported, not aimed at."""

from __future__ import annotations

from core.engine.balance_target import BalanceTarget, Band
from core.engine.messages import N_

from .vocabulary import CHANGELINGS, PONIES

BALANCE = BalanceTarget(
    filler="pony",
    headline=PONIES,
    contenders=(PONIES, CHANGELINGS),
    bands=(Band(PONIES, 0.45, 0.55),),
    fair=N_("a fair fight for the herd"),
    leans=N_("tilted towards {side}"),
)

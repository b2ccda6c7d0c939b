"""A chat's own finished games for the balance advisor: each game's dealt setup and winners,
the line that counts them beside the prediction, and the skill they fit
(core/balance/calibrate.py) once there are enough.

A game is replayed once to learn who won and then kept by its archive token (drawn at
random when it ends, so unlike its row id it names one game in any database): a finished
game never changes, and `/setroles` and `/option` ask again at every change."""

from __future__ import annotations

from core.balance.answer import calibrated
from core.balance.calibrate import Calibration
from core.balance.history import Finished, finished, history
from core.balance.render import calibration_text, history_text
from core.engine.log_codec import setup_from_json
from core.engine.messages import Text
from core.engine.registry import load_ruleset
from core.storage.models import GameRecord
from core.storage.states import GameStatus
from core.story.archive import story_of_row

MOST_KEPT = 10_000  # games kept read; past it the memory starts anew
_read: dict[str, Finished] = {}


async def chat_games(chat_id: int, ruleset_id: str) -> list[Finished]:
    """The chat's finished games of the rule set, oldest first."""
    rows = await GameRecord.filter(chat_id=chat_id, status=GameStatus.ENDED,
                                   ruleset=ruleset_id).order_by("id")
    return [await _finished(row) for row in rows]


async def _finished(row: GameRecord) -> Finished:
    token = row.archive_token
    if token and token in _read:
        return _read[token]
    assert row.setup is not None  # a finished game was started
    story = await story_of_row(row)
    game = finished(setup_from_json(row.setup), story.winners)
    if token:
        if len(_read) >= MOST_KEPT:
            _read.clear()
        _read[token] = game
    return game


def record_texts(ruleset_id: str, games: list[Finished],
                 fit: Calibration | None) -> list[Text]:
    """The chat's games beside the prediction: how many and how often the headline side
    won, and, once fitted, the skill they fit."""
    ruleset = load_ruleset(ruleset_id)
    side = ruleset.balance.headline if ruleset.balance is not None else ruleset.sides[0]
    said = [history_text(history(games, ruleset_id, side))]
    return [*said, calibration_text(fit, ruleset_id)] if fit is not None else said


async def chat_record(chat_id: int, ruleset_id: str
                      ) -> tuple[list[Finished], Calibration | None]:
    """The chat's finished games of the rule set and the skill they fit (None: too few)."""
    games = await chat_games(chat_id, ruleset_id)
    return games, calibrated(games, ruleset_id)

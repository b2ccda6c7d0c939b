"""The advice for a question as the lobby and the command line ask it: from the shipped
table at once when it holds the table precisely enough, else from a worker (worker.py);
the skill a chat's own games fit against the same table; and the advice rendered as plain
lines for the command line."""

from __future__ import annotations

from collections.abc import Sequence

from core.engine.registry import load_ruleset
from core.i18n import Renderer
from core.interval import SHOWN

from .advice import Advice, advise
from .calibrate import Calibration, calibrate
from .history import Finished
from .presets import Assumed
from .render import advice_texts
from .setups import Setup
from .tables import shipped
from .worker import remembered


def instant(setup: Setup, skill: Assumed) -> Advice | None:
    """The advice without playing a game: an earlier on-demand answer, or the shipped table
    if it holds every number the advice shows — this setup's and the role sets it
    recommends — with a shown number's precision (None otherwise: games are played)."""
    asked, answer = remembered(setup, skill)
    if asked:
        return answer
    advice = advise(setup, skill, shipped(setup.ruleset))
    target = load_ruleset(setup.ruleset).balance
    if advice is None or target is None:
        return None
    shown = [advice.estimate, *(a.estimate for a in advice.alternatives)]
    if any(e.widest(target.sides()) > SHOWN for e in shown):
        return None
    return advice


def from_table(setup: Setup, skill: Assumed) -> Advice | None:
    """Whatever the shipped table says, however few its games (its margins say so)."""
    return advise(setup, skill, shipped(setup.ruleset))


def calibrated(games: Sequence[Finished], ruleset_id: str) -> Calibration | None:
    """The town's skill a chat's finished games fit against the shipped table (None below
    `calibrate.ENOUGH` games it can read, or for a rule set without a balance target)."""
    target = load_ruleset(ruleset_id).balance
    if target is None:
        return None
    return calibrate(games, shipped(ruleset_id), target.headline)


def lines(advice: Advice, locale: str) -> list[str]:
    """The advice as the command line prints it, in `locale`."""
    ruleset = load_ruleset(advice.setup.ruleset)
    renderer = Renderer(locale, ruleset.vocabulary, str, ruleset=ruleset.id)
    return [renderer.render(text) for text in advice_texts(advice)]

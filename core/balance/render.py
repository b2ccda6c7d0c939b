"""The advice in words: engine `Text`s with `Ref`s, rendered in the reader's language like
every other message (the lobby's `/balance`, the CLI). The verdict is the rule set's own
text (`BalanceTarget.fair`, `.leans`), so each game says it in its own voice."""

from __future__ import annotations

from collections import Counter

from core.engine.messages import N_, Param, Ref, RefKind, Text, n_
from core.engine.registry import load_ruleset

from .advice import Advice, Alternative
from .calibrate import Calibration
from .estimate import Estimate
from .history import History
from .presets import Assumed, Preset
from .setups import Change, Setup

HEAD = n_("Balance of {ruleset} for {count} player: {roles}.",
          "Balance of {ruleset} for {count} players: {roles}.")
SUMMARY = n_("Balance with {count} player, {skill}: {shares} — {verdict}. More: /balance.",
             "Balance with {count} players, {skill}: {shares} — {verdict}. More: /balance.")
RATES = N_("Informed play, {skill}: {shares} — {verdict}.")
SHARE = N_("{side} {rate} % (± {margin})")
SPREAD = N_("Win rate of {side} by the table's skill: {spread}.")
SPREAD_ITEM = N_("{skill} {rate} % (± {margin})")
GAMES = n_("From {count} simulated game; on average a game ends on day {days}.",
           "From {count} simulated games; on average a game ends on day {days}.")
NONE_NEEDED = N_("This role list is within the target: no change needed.")
CLOSER = N_("Closer to the target:")
ALTERNATIVE = N_("{changes}: {shares}.")
NONE_WITHIN = N_("No legal role set one step away reaches the target; the closest is "
                 "{changes}: {shares}.")
NOTHING_CLOSER = N_("No legal role set one step away comes closer to the target.")
TIMES = N_("{count} × {role}")
UNSEARCHED = N_("The time ran out before other role sets could be tried.")
UNTABULATED = N_("The precomputed tables hold no role sets near this one yet.")
MORE = N_("+{count} {role}")
FEWER = N_("−{count} {role}")
HISTORY = n_("This chat's finished games of {ruleset}: {count}, {side} won {rate} %.",
             "This chat's finished games of {ruleset}: {count}, {side} won {rate} %.")
NO_HISTORY = N_("This chat has not finished a game of {ruleset} yet.")
NOT_IN_TABLES = N_("Balance: this role list is not in the precomputed tables; /balance "
                   "estimates it with simulated games (up to {seconds} seconds).")
WORKING = N_("Estimating the balance with simulated games, up to {seconds} seconds …")
PLAYERS = N_("The balance advisor counts {low} to {high} players: write /balance and a number "
             "in between.")
ILLEGAL = N_("The rules do not allow this role list with these options, so there is no "
             "balance to estimate.")
USAGE = N_("Write /balance, or /balance with a player count and a table's skill: {presets} "
           "(for example /balance 12 {example}).")
NO_ADVICE = N_("The balance advisor has no numbers for this table.")
TITLES = {Preset.NEW: N_("new table"), Preset.REGULAR: N_("regular table"),
          Preset.SHARP: N_("sharp table")}
FITTED_SKILL = N_("this chat's skill ({fitted} %)")
FITTED = n_("This chat plays like a {preset}: fitted skill {fitted} % (95 % bounds "
            "{low}–{high} %), from {count} finished game of {ruleset}.",
            "This chat plays like a {preset}: fitted skill {fitted} % (95 % bounds "
            "{low}–{high} %), from {count} finished games of {ruleset}.")


def advice_texts(advice: Advice) -> list[Text]:
    """The whole advice: the table, the rates and verdict, the spread, the alternatives."""
    setup = advice.setup
    ruleset = load_ruleset(setup.ruleset)
    target = ruleset.balance
    assert target is not None  # an advice exists only for a rule set with a target
    verdict = _verdict(advice)
    texts = [
        Text(HEAD[0], {"ruleset": Ref(RefKind.RULESET, setup.ruleset), "count": setup.players,
                       "roles": _roles(setup, target.filler)}, HEAD[1], setup.players),
        Text(RATES, {"skill": skill_title(advice.skill),
                     "shares": shares(setup.ruleset, advice.estimate), "verdict": verdict}),
    ]
    if len(advice.spread) > 1:
        texts.append(Text(SPREAD, {"side": Ref(RefKind.SIDE, target.headline), "spread": tuple(
            Text(SPREAD_ITEM, {"skill": Text(TITLES[p], {}),
                               "rate": _percent(e.rate(target.headline)),
                               "margin": _margin(e, target.headline)})
            for p, e in advice.spread)}))
    texts.append(Text(GAMES[0], {"count": advice.estimate.games,
                                 "days": str(round(advice.estimate.mean_days))},
                      GAMES[1], advice.estimate.games))
    texts += _alternatives(advice)
    return texts


def summary_text(advice: Advice) -> Text:
    """The advice in one line (the sign-up's, after a change of roles or options)."""
    return Text(SUMMARY[0], {"count": advice.setup.players,
                             "skill": skill_title(advice.skill),
                             "shares": shares(advice.setup.ruleset, advice.estimate),
                             "verdict": _verdict(advice)}, SUMMARY[1], advice.setup.players)


def _verdict(advice: Advice) -> Text:
    """The rule set's own words for the verdict."""
    target = load_ruleset(advice.setup.ruleset).balance
    assert target is not None  # an advice exists only for a rule set with a target
    return (Text(target.fair, {}) if advice.fair
            else Text(target.leans, {"side": Ref(RefKind.SIDE, advice.leans)}))


def _alternatives(advice: Advice) -> list[Text]:
    if advice.fair:
        return [Text(NONE_NEEDED, {})]
    if not advice.alternatives:
        return [Text(NOTHING_CLOSER if advice.searched
                     else UNSEARCHED if advice.played else UNTABULATED, {})]
    ruleset = advice.setup.ruleset
    if advice.none_within:
        best = advice.alternatives[0]
        return [Text(NONE_WITHIN, {"changes": changes(best), "shares": shares(ruleset,
                                                                              best.estimate)})]
    return [Text(CLOSER, {}), *(Text(ALTERNATIVE, {"changes": changes(a),
                                                  "shares": shares(ruleset, a.estimate)})
                                for a in advice.alternatives)]


def shares(ruleset_id: str, estimate: Estimate) -> tuple[Param, ...]:
    """Every side that won a game, in the rule set's order, with its rate and margin."""
    return tuple(Text(SHARE, {"side": Ref(RefKind.SIDE, side), "rate": _percent(share.rate),
                              "margin": _margin(estimate, side)})
                 for side in load_ruleset(ruleset_id).sides
                 if (share := estimate.share(side)).won)


def changes(alternative: Alternative) -> tuple[Param, ...]:
    return tuple(_change(c) for c in alternative.changes)


def _change(change: Change) -> Text:
    return Text(MORE if change.count > 0 else FEWER,
                {"count": abs(change.count), "role": Ref(RefKind.ROLE, change.role)})


def _roles(setup: Setup, filler: str) -> tuple[Param, ...]:
    """The special roles in the rule set's order, a repeated one counted (the filler's seats
    are what is left)."""
    order = [str(r) for r in load_ruleset(setup.ruleset).roles]
    counts = Counter(r for r in setup.roles if r != filler)
    return tuple(Ref(RefKind.ROLE, r) if counts[r] == 1
                 else Text(TIMES, {"count": counts[r], "role": Ref(RefKind.ROLE, r)})
                 for r in sorted(counts, key=lambda r: order.index(r) if r in order else 99))


def _margin(estimate: Estimate, side: str) -> int:
    """The half-width in points, at least 1 (a "± 0" would claim too much)."""
    return max(1, round(100 * estimate.share(side).half_width))


def _percent(rate: float) -> int:
    return round(100 * rate)


def history_text(past: History) -> Text:
    if not past.games:
        return Text(NO_HISTORY, {"ruleset": Ref(RefKind.RULESET, past.ruleset)})
    return Text(HISTORY[0], {"ruleset": Ref(RefKind.RULESET, past.ruleset), "count": past.games,
                             "side": Ref(RefKind.SIDE, past.side), "rate": _percent(past.rate)},
                HISTORY[1], past.games)



def skill_title(skill: Assumed) -> Text:
    """The skill an advice assumed, in words: a preset's title, or the chat's own."""
    if isinstance(skill, Preset):
        return Text(TITLES[skill], {})
    return Text(FITTED_SKILL, {"fitted": _percent(skill.r)})


def calibration_text(fit: Calibration, ruleset: str) -> Text:
    """Which preset the chat plays like, its fitted skill and how sure the fit is."""
    return Text(FITTED[0], {"preset": Text(TITLES[fit.preset], {}),
                            "fitted": _percent(fit.skill), "low": _percent(fit.low),
                            "high": _percent(fit.high), "count": fit.games,
                            "ruleset": Ref(RefKind.RULESET, ruleset)}, FITTED[1], fit.games)

"""The words of the news that a scenario's `told` facts cannot see (issue 33): a banishment told
as the mayor's or chance's call, a tie explained before its executions, the Pinkie Sense's own
abduction in the second person, a Stone received finished without a backfire warning, and
Derpy's mail that stops once Derpy has left."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.engine import GameSetup
from core.engine.game import Game
from core.engine.messages import GROUP
from core.scenario import run_file
from rulesets.alchemists import flavour as al_flavour
from rulesets.changelings import RULESET as CHANGELINGS
from rulesets.changelings import flavour as ch_flavour
from rulesets.changelings import night as ch_night
from rulesets.changelings.vocabulary import Cause
from rulesets.changelings.voice import OWN

from ..conftest import SCENARIOS


def lines(ruleset: str, name: str, audience: str = "group") -> list[str]:
    result = run_file(SCENARIOS / ruleset / f"{name}.yaml", show=True)
    assert result.passed, result.reason
    prefix = f"[{audience}] " if audience == "group" else f"[to {audience}] "
    return [line.removeprefix(prefix) for line in result.transcript if line.startswith(prefix)]


def pattern(template: str) -> re.Pattern[str]:
    """A template as a pattern of the line it renders: each placeholder any text."""
    parts = re.split(r"\{\w+\}", template)
    return re.compile(".+".join(re.escape(part) for part in parts) + r"\Z")


def told_one_of(said: Iterable[str], templates: Iterable[str]) -> list[str]:
    patterns = [pattern(t) for t in templates]
    return [line for line in said if any(p.match(line) for p in patterns)]


def test_the_mayors_tiebreak_is_told_as_the_mayors_call() -> None:
    said = lines("changelings", "told_banished_by_mayor_tiebreak")
    assert len(told_one_of(said, ch_flavour.BANISHED_BY_MAYOR)) == 1
    assert not told_one_of(said, ch_flavour.REMOVED[Cause.BANISHED])


def test_a_tie_without_a_mayor_is_told_as_chances_call() -> None:
    said = lines("changelings", "told_banished_by_chance")
    assert len(told_one_of(said, ch_flavour.BANISHED_BY_CHANCE)) == 1
    assert not told_one_of(said, ch_flavour.REMOVED[Cause.BANISHED])


def test_the_pinkie_sense_is_told_her_own_abduction_in_the_second_person() -> None:
    said = lines("changelings", "told_pinkie_own_abduction", "Pip")
    assert len(told_one_of(said, OWN["PINKIE_SELF"])) == 1
    assert len(told_one_of(said, OWN["PINKIE_TINGLES"])) == 1  # the next night: Eve


def test_a_tie_of_two_is_explained_before_both_executions() -> None:
    said = lines("alchemists", "told_tie_executes_both")
    explained = told_one_of(said, al_flavour.TIE_BOTH)
    assert len(explained) == 1
    executions = told_one_of(said, al_flavour.EXECUTED)
    assert len(executions) == 2 and said.index(explained[0]) < said.index(executions[0])


def test_a_small_tables_tie_names_who_reached_the_count_first() -> None:
    said = lines("alchemists", "told_tie_first_to_reach")
    assert len(told_one_of(said, al_flavour.TIE_FIRST)) == 1


def test_a_stone_that_appears_finished_never_warns_of_a_backfire() -> None:
    said = lines("alchemists", "told_stone_appears_finished", "Xi")
    stone = [line for line in said if "Stone" in line]
    assert len(stone) == 1 and "it is finished" in stone[0], stone
    assert not any("may turn against you" in line for line in said)


def test_derpys_mail_stops_once_derpy_has_left() -> None:
    roles = ("changeling", "changeling", "derpy", "pony", "pony", "pony", "pony")
    players = tuple((f"p{i}", f"P{i}") for i in range(len(roles)))
    game = Game(CHANGELINGS, GameSetup("changelings", players, roles=roles,
                                       options=(("random_lovers", False),)))
    mail = [t for t in ch_flavour.MORNING_QUIET if "derpy" in ch_flavour.MOTIFS.get(t, ())]
    assert len(mail) == 1
    quiet = len(ch_flavour.MORNING_QUIET)

    def mornings() -> list[str]:
        game._out.messages.clear()
        for _ in range(3 * quiet):
            ch_night.morning_post(game)
        return [m.text.key for m in game._out.messages if m.audience == GROUP]

    assert mail[0] in mornings()  # while Derpy is around, the mail comes
    game.state.players["p2"].alive = False
    told = mornings()
    assert len(told) == 3 * quiet and mail[0] not in told

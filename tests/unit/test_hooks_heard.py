"""The engine skips a rule set's activity and vote hooks when their bodies are empty (every
action and vote would otherwise call them); a hook that does anything is still called."""

from __future__ import annotations

from core.engine.hooks_heard import hooks_heard
from core.engine.ruleset import Ruleset
from rulesets.alchemists import RULESET as ALCHEMISTS
from rulesets.changelings import RULESET as CHANGELINGS


class Quiet(Ruleset):
    def on_activity(self, game: object, player: object) -> None:
        """Nothing: a docstring only."""

    def after_vote(self, game: object, voter: object) -> None:
        pass


class Listening(Ruleset):
    def on_activity(self, game: object, player: object) -> None:
        self.seen = player

    def after_vote(self, game: object, voter: object) -> None:
        print(voter)


def test_empty_hooks_are_not_heard() -> None:
    assert hooks_heard(Ruleset) == (False, False)
    assert hooks_heard(Quiet) == (False, False)


def test_hooks_with_a_body_are_heard() -> None:
    assert hooks_heard(Listening) == (True, True)


def test_the_rule_sets_hooks() -> None:
    assert hooks_heard(type(CHANGELINGS)) == (True, False)  # inactivity; no early end by votes
    assert hooks_heard(type(ALCHEMISTS)) == (False, True)  # the vote log and the early close

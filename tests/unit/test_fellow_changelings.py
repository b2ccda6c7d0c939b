"""Each changeling learns his fellows in one message, with their number; a fellow's role is
named only when it is not the plain changeling (the finding: one line per teammate, each
naming "Changeling")."""

from __future__ import annotations

from core.engine.messages import Ref
from core.engine.registry import load_ruleset
from core.simulate import new_game
from rulesets.changelings.hooks import CHANGELING_ROLES

FELLOWS = "Your fellow changeling: {names}."


def test_every_changeling_hears_of_his_fellows_once_with_their_count():
    ruleset = load_ruleset("changelings")
    checked = 0
    for seed in range(1, 30):
        game = new_game(ruleset, 20, seed)
        team = [p for p in game.state.players.values() if p.role in CHANGELING_ROLES]
        for member in team:
            told = [m.text for m in game.opening.messages
                    if m.audience.ref == member.pid and m.text.key == FELLOWS]
            fellows = [p for p in team if p.pid != member.pid]
            if not fellows:
                assert not told
                continue
            [text] = told
            assert text.count == len(fellows) == len(text.params["names"])
            for entry, fellow in zip(text.params["names"], fellows, strict=True):
                if fellow.role == "changeling":
                    assert entry == Ref("player", fellow.pid)  # no "(Changeling)"
                else:
                    assert entry == (Ref("player", fellow.pid), Ref("role", fellow.role))
            checked += 1
    assert checked

"""Issue 17: a new role is one module. A copy of the Alchemists rule set gets the template's
"watcher" as `roles/watcher.py` plus its line in the role order, and a game plays it — no
other file of the rule set changes. (In a fresh interpreter: the copy registers its roles in
its own registries, and this process's rule set stays as it is.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

from ..conftest import ROOT

GAME = textwrap.dedent("""
    from core.engine import Act, GameSetup
    from core.engine.game import Game
    from alchemists_copy import RULESET
    from alchemists_copy.roles import CANONICAL

    roles = tuple("watcher" if i == 11 else r for i, r in enumerate(CANONICAL))
    players = tuple((f"p{i}", f"P{i}") for i in range(len(roles)))
    game = Game(RULESET, GameSetup("alchemists", players, roles=roles))
    assert "watch" in [spec.id for spec in RULESET.prompted(game, game.state.players["p11"])]
    told = []
    game.apply(Act("p11", "watch", ("p4",)))
    game.apply(Act("p4", "kill", ("p12",)))
    for pid in ("p0", "p1", "p2", "p3", "p5", "p6", "p7", "p9", "p10"):
        told += game.apply(Act(pid, "pass")).messages
    assert str(game.state.phase) == "day 1 vote", game.state.phase
    assert not game.state.players["p12"].alive
    watched = [m for m in told if m.audience.ref == "p11" and "acted" in m.text.key]
    assert [m.text.key for m in watched] == ["{name} acted tonight."], watched
    print("watched")
""")


def test_a_role_added_as_one_module_plays(tmp_path):
    copy = tmp_path / "alchemists_copy"
    shutil.copytree(ROOT / "rulesets" / "alchemists", copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(copy / "roles" / "_template.py", copy / "roles" / "watcher.py")
    order = copy / "roles" / "__init__.py"
    order.write_text(order.read_text().replace('"alchemist")', '"alchemist", "watcher")'))
    done = subprocess.run([sys.executable, "-c", GAME], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": f"{tmp_path}:{ROOT}"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "watched"

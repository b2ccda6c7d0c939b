"""What a scenario file may expect of a game (`../shared/scenarios/FORMAT.md`): the checks of
its `expect` steps, and the two ways a file fails (the file is wrong; the engine is)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from core.engine import Game
from core.engine.ids import PlayerId
from core.engine.messages import Ref
from core.engine.ruleset import Ruleset

# the statuses FORMAT.md names, and the alchemists' early vote
STATUSES = {"mayor", "lover", "voiceless", "inactive", "linked", "vote_void", "stone", "early"}
EXPECT_KEYS = {"phase", "alive", "alive_include", "alive_count", "removed", "causes", "roles",
               "sides", "status", "mayor", "lovers", "learned", "foresight", "tally", "stone",
               "winner", "told"}
TOLD_FACTS = {"names": "player", "not_names": "player", "roles": "role", "not_roles": "role",
              "sides": "side", "not_sides": "side"}


class ScenarioInvalid(Exception):
    """The file itself is wrong (not the engine); `step` is 0 for the file's top level."""

    def __init__(self, why: str, step: int = 0) -> None:
        super().__init__(why)
        self.why = why
        self.step = step

    def reason(self, path: Path) -> str:
        """`step N: invalid file PATH: why`, so that the line reads like any failure."""
        where = f"step {self.step}: " if self.step else ""
        return f"{where}invalid file {path}: {self.why}"


class ScenarioFailed(Exception):
    """The engine did not behave as the file expects."""


class Expectations:
    """The `expect` step's checks, for the scenario runner: it holds the game, its rule set,
    what each reader was told since the previous expect, and the helpers named here."""

    game: Game
    ruleset: Ruleset
    told: dict[str, set[tuple[str, str]]]
    _pid: Callable[[Any], PlayerId]
    _invalid: Callable[[str], ScenarioInvalid]
    _fail: Callable[[str], ScenarioFailed]

    # ------------------------------------------------------------------ expectations
    def _expect(self, body: Any) -> None:
        if not isinstance(body, dict):
            raise self._invalid("expect needs a mapping")
        unknown = set(body) - EXPECT_KEYS
        if unknown:
            raise self._invalid(f"unknown expectation {sorted(unknown)[0]!r}")
        try:
            for key, wanted in body.items():
                check: Callable[[Any], None] = getattr(self, f"_expect_{key}")
                try:
                    check(wanted)
                except (AttributeError, TypeError, ValueError) as err:
                    raise self._invalid(f"bad value for {key}: {wanted!r}") from err
        finally:
            self.told = {}  # `told` looks at the messages since the previous expect

    def _expect_told(self, wanted: Any) -> None:
        if not isinstance(wanted, dict):
            raise self._invalid("told needs a mapping audience → facts")
        for audience, facts in wanted.items():
            reader = "group" if audience == "group" else self._pid(audience)
            if not isinstance(facts, dict):
                raise self._invalid(f"told: {audience} needs a mapping of facts")
            unknown = set(facts) - set(TOLD_FACTS)
            if unknown:
                raise self._invalid(f"told: unknown fact {sorted(unknown)[0]!r}")
            carried = self.told.get(reader, set())
            for fact, values in facts.items():
                kind = TOLD_FACTS[fact]
                for value in values if isinstance(values, list) else [values]:
                    ref = (kind, self._pid(value) if kind == "player" else str(value))
                    self._check_known(kind, str(value))
                    named = ref in carried
                    if named == fact.startswith("not_"):
                        shown = sorted(self.game.name(PlayerId(v)) if k == "player" else v
                                       for k, v in carried if k == kind)
                        raise self._fail(
                            f"{audience} was {'' if named else 'not '}told {kind} {value}"
                            f" (named since the last expect: {shown})")

    def _check_known(self, kind: str, value: str) -> None:
        if kind == "role" and value not in self.ruleset.roles:
            raise self._invalid(f"unknown role id {value!r}")

    def _names(self, pids: Iterable[PlayerId]) -> list[str]:
        return sorted(self.game.name(p) for p in pids)

    def _mismatch(self, key: str, wanted: Any, got: Any) -> ScenarioFailed:
        return self._fail(f"expected {key} {wanted!r}, got {got!r}")

    def _expect_phase(self, wanted: Any) -> None:
        got = str(self.game.state.phase)
        if got != str(wanted):
            raise self._mismatch("phase", wanted, got)

    def _living(self) -> list[PlayerId]:
        return [p.pid for p in self.game.state.players.values() if p.alive]

    def _expect_alive(self, wanted: Any) -> None:
        want = sorted(self.game.name(self._pid(n)) for n in wanted)
        got = self._names(self._living())
        if want != got:
            raise self._mismatch("alive", want, got)

    def _expect_alive_include(self, wanted: Any) -> None:
        living = set(self._living())
        missing = [n for n in wanted if self._pid(n) not in living]
        if missing:
            raise self._fail(f"expected {missing} in the game, alive are "
                             f"{self._names(living)}")

    def _expect_alive_count(self, wanted: Any) -> None:
        got = len(self._living())
        if got != wanted:
            raise self._mismatch("alive_count", wanted, got)

    def _known(self, kind: str, value: Any, known: Iterable[str]) -> None:
        """An id the rule set does not know is a mistake in the file, not a failed rule."""
        if value not in known:
            raise self._invalid(f"unknown {kind} id {value!r}")

    def _expect_removed(self, wanted: Any) -> None:
        for name, cause_id in wanted.items():
            self._known("cause", cause_id, self.ruleset.causes)
            p = self.game.state.players[self._pid(name)]
            got = None if p.alive else p.cause
            if got != cause_id:
                raise self._fail(f"expected {name} removed ({cause_id}), got {got or 'alive'}")

    def _expect_causes(self, wanted: Any) -> None:
        counts = Counter(c for _, c in self.game.state.removals)
        for cause_id, count in wanted.items():
            self._known("cause", cause_id, self.ruleset.causes)
            if counts.get(cause_id, 0) != count:
                raise self._fail(f"expected {count} removed as {cause_id}, got "
                                 f"{counts.get(cause_id, 0)}")

    def _expect_roles(self, wanted: Any) -> None:
        for name, role_id in wanted.items():
            self._known("role", role_id, self.ruleset.roles)
            got = self.game.state.players[self._pid(name)].role
            if got != role_id:
                raise self._fail(f"expected {name}'s role {role_id}, got {got}")

    def _expect_sides(self, wanted: Any) -> None:
        for name, side_id in wanted.items():
            self._known("side", side_id, self.ruleset.sides)
            got = self.ruleset.side_of(self.game, self.game.state.players[self._pid(name)])
            if got != side_id:
                raise self._fail(f"expected {name}'s side {side_id}, got {got}")

    def _expect_status(self, wanted: Any) -> None:
        for name, statuses in wanted.items():
            p = self.game.state.players[self._pid(name)]
            for status in statuses or []:
                self._known("status", status, STATUSES)
            got = self.ruleset.statuses_of(self.game, p)
            missing = [s for s in (statuses or []) if s not in got]
            if missing:
                raise self._fail(f"expected {name} to have {missing}, has {sorted(got)}")

    def _fact(self, key: str) -> Any:
        try:
            return self.ruleset.fact(self.game, key)
        except KeyError as err:
            raise self._invalid(f"{key} is not known in this ruleset") from err

    def _expect_mayor(self, wanted: Any) -> None:
        got = self._fact("mayor")
        want = None if wanted is None else self._pid(wanted)
        if got != want:
            raise self._mismatch("mayor", wanted, got and self.game.name(got))

    def _expect_lovers(self, wanted: Any) -> None:
        got = self._fact("lovers")
        want = None if wanted is None else {self._pid(n) for n in wanted}
        if got != want:
            raise self._mismatch("lovers", wanted, got and self._names(got))

    def _expect_foresight(self, wanted: Any) -> None:
        got = self._fact("foresight")
        for name, seen in wanted.items():
            value = got.get(self._pid(name))
            want = None if seen is None else self._pid(seen)
            if value != want:
                raise self._fail(f"expected {name} to foresee {seen}, got "
                                 f"{value and self.game.name(value)}")

    def _expect_stone(self, wanted: Any) -> None:
        got = self._fact("stone")
        unknown = set(wanted) - {"holder", "finished"}
        if unknown:
            raise self._invalid(f"unknown stone key {sorted(map(str, unknown))[0]!r}")
        want: dict[str, object] = {}  # only the keys given are checked
        if "holder" in wanted:
            holder = wanted["holder"]
            want["holder"] = None if holder is None else self._pid(holder)
        if "finished" in wanted:
            want["finished"] = bool(wanted["finished"])
        if {key: got[key] for key in want} != want:
            raise self._mismatch("stone", wanted, got)

    def _expect_learned(self, wanted: Any) -> None:
        learned = self.game.state.learned
        for observer, subjects in wanted.items():
            known = learned.get(self._pid(observer), {})
            for subject, value in subjects.items():
                got = known.get(self._pid(subject))
                if got != value:
                    raise self._fail(f"expected {observer} to have learned {subject}: {value}, "
                                     f"got {got}")

    def _expect_tally(self, wanted: Any) -> None:
        tally = self.game.tally()
        for name, count in wanted.items():
            got = tally.get(self._pid(name), 0)
            if got != count:
                raise self._fail(f"expected {count} votes against {name}, got {got}")

    def _expect_winner(self, wanted: Any) -> None:
        got = self.game.state.winners
        if got is None:
            raise self._fail(f"expected the game won by {wanted}, it is still "
                             f"{self.game.state.phase}")
        for side_id in wanted or []:
            self._known("side", side_id, self.ruleset.sides)
        if sorted(got) != sorted(wanted or []):
            raise self._mismatch("winner", wanted, got)


def refs(value: Any) -> Iterator[tuple[str, str]]:
    """Every (kind, value) reference a message's parameters carry, nested ones included."""
    if isinstance(value, Ref):
        yield value.kind, str(value.value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from refs(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from refs(item)

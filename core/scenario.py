"""The scenario runner (`../shared/scenarios/FORMAT.md`): scripted games against the real engine.

No platform and no clock: windows close only on a `close` step, and the early close of complete
windows is off unless the file turns it on. An invalid file fails with its file, step and
problem, never with a traceback.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.engine import (
    Act,
    Announce,
    Close,
    Extend,
    Force,
    Game,
    GameSetup,
    HostCommand,
    MarkEarly,
    Modkill,
    Outcome,
    Pause,
    Refused,
    Replace,
    Resume,
    Say,
    Vote,
)
from core.engine.messages import Ref
from core.engine.registry import available, load_ruleset
from core.engine.ruleset import SetupError
from core.i18n import Renderer

TOP_KEYS = {"name", "ruleset", "seed", "locale", "options", "players", "roles", "setup",
            "start", "steps"}
STEP_KINDS = {"act", "vote", "early", "say", "host", "wait_hours", "close", "expect"}
ACT_KEYS = {"by", "action", "target", "text", "role"}
HOST_KEYS = {"command", "target", "by", "minutes", "text"}
BARE_POWERS = {"pause": Pause, "resume": Resume, "force": Force}  # the powers with no fields
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


@dataclass
class Result:
    name: str
    passed: bool
    reason: str = ""
    transcript: list[str] = field(default_factory=list)


def scenario_files(paths: Iterable[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        else:
            yield path


def run_file(path: Path, show: bool = False) -> Result:
    name = path.stem
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        return Result(name, False, f"invalid file {path}: {_one_line(err)}")
    if isinstance(data, dict) and isinstance(data.get("name"), str):
        name = data["name"]
    runner = _Runner(path, data, show)
    try:
        runner.run()
    except ScenarioInvalid as err:
        return Result(name, False, err.reason(path), runner.transcript)
    except ScenarioFailed as err:
        return Result(name, False, str(err), runner.transcript)
    return Result(name, True, transcript=runner.transcript)


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split())


class _Runner:
    def __init__(self, path: Path, data: Any, show: bool) -> None:
        self.path = path
        self.data = data
        self.show = show
        self.transcript: list[str] = []
        self.clock = 0.0
        self.step_no = 0
        # what each audience ("group", or a player id) was told since the previous expect:
        # the refs (kind, value) its messages carried as parameters
        self.told: dict[str, set[tuple[str, str]]] = {}

    # ------------------------------------------------------------------ setup
    def run(self) -> None:
        data = self.data
        if not isinstance(data, dict):
            raise ScenarioInvalid("the file must be a mapping")
        unknown = set(data) - TOP_KEYS
        if unknown:
            raise ScenarioInvalid(f"unknown key {sorted(unknown)[0]!r}")
        ruleset_id = data.get("ruleset")
        if ruleset_id not in available():
            raise ScenarioInvalid(f"unknown ruleset {ruleset_id!r}")
        self.ruleset = load_ruleset(ruleset_id)
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ScenarioInvalid("players must be a list of names")
        self.pid_of_name = {name: f"p{i + 1}" for i, name in enumerate(players)}
        roles = data.get("roles")
        if not isinstance(roles, dict):
            raise ScenarioInvalid("roles must map every player to a role id")
        for who, role_id in roles.items():
            self._pid(who)
            if role_id not in self.ruleset.roles:
                raise ScenarioInvalid(f"unknown role id {role_id!r} for {who}")
        missing = [p for p in players if p not in roles]
        if missing:
            raise ScenarioInvalid(f"no role for {missing[0]}")
        setup = dict(data.get("setup") or {})
        for key in setup:
            if key not in ("lovers", "mayor"):
                raise ScenarioInvalid(f"unknown setup key {key!r}")
        if "lovers" in setup:
            setup["lovers"] = [self._pid(n) for n in setup["lovers"]]
        if "mayor" in setup:
            setup["mayor"] = self._pid(setup["mayor"])
        if not isinstance(data.get("options") or {}, dict):
            raise ScenarioInvalid("options must be a mapping")
        options = {"early_close": False, **(data.get("options") or {})}
        for key in self.ruleset.player_options:
            if key in options:
                options[key] = self._pid(options[key])
        seed = data.get("seed") or 0
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ScenarioInvalid("seed must be an integer")
        game_setup = GameSetup(
            ruleset=ruleset_id,
            players=tuple((self.pid_of_name[n], n) for n in players),
            seed=seed,
            roles=tuple(roles[n] for n in players),
            options=tuple(options.items()),
            setup=tuple(setup.items()),
            start=data.get("start"),
        )
        try:
            self.game = Game(self.ruleset, game_setup)
        except SetupError as err:
            raise ScenarioInvalid(f"setup refused: {err}") from err
        self.renderer = Renderer(str(data.get("locale") or "en"), self.ruleset.vocabulary,
                                 self.game.name, ruleset=self.ruleset.id)
        self._record(self.game.opening)
        steps = data.get("steps") or []
        if not isinstance(steps, list):
            raise ScenarioInvalid("steps must be a list")
        for index, step in enumerate(steps, start=1):
            self.step_no = index
            self._step(step)

    def _pid(self, name: Any) -> str:
        game = getattr(self, "game", None)
        if game is not None and isinstance(name, str):
            p = game.state.by_name(name)
            if p is not None:
                return p.pid
        if not isinstance(name, str) or name not in self.pid_of_name:
            raise self._invalid(f"unknown player {name!r}")
        return self.pid_of_name[name]

    def _invalid(self, why: str) -> ScenarioInvalid:
        return ScenarioInvalid(why, self.step_no)

    def _fail(self, why: str) -> ScenarioFailed:
        return ScenarioFailed(f"step {self.step_no}: {why}")

    # ------------------------------------------------------------------ steps
    def _step(self, step: Any) -> None:
        if step == "close":
            step = {"close": True}
        if not isinstance(step, dict):
            raise self._invalid(f"not a step: {step!r}")
        refused = step.get("refused", False)
        if not isinstance(refused, bool):
            raise self._invalid("refused must be true or false")
        kinds = [k for k in step if k != "refused"]
        if len(kinds) != 1 or kinds[0] not in STEP_KINDS:
            raise self._invalid(f"unknown step {sorted(map(str, kinds))}")
        kind = kinds[0]
        body = step[kind]
        if refused and kind not in ("act", "vote", "host", "early"):
            raise self._invalid("only act, vote, early and host steps can be refused")
        if kind == "expect":
            self._expect(body)
        elif kind == "wait_hours":
            if not isinstance(body, (int, float)) or body < 0:
                raise self._invalid("wait_hours needs a number of hours")
            self.clock += float(body) * 3600
        elif kind == "close":
            self._apply(Close(at=self.clock), refused=False, what="close")
        elif kind == "say":
            self._apply(Say(self._pid(body), at=self.clock), refused=False, what="say")
        elif kind == "early":
            names = body if isinstance(body, list) else [body]
            for name in names:
                self._apply(MarkEarly(self._pid(name), at=self.clock), refused, f"early {name}")
        elif kind == "vote":
            if not isinstance(body, dict):
                raise self._invalid("vote needs a mapping voter: target")
            for voter, target in body.items():
                command = Vote(self._pid(voter), None if target is None else self._pid(target),
                               at=self.clock)
                self._apply(command, refused, f"vote {voter} → {target}")
        elif kind == "act":
            self._apply(self._act(body), refused, f"act {body}")
        elif kind == "host":
            self._apply(self._host(body), refused, f"host {body}")

    def _act(self, body: Any) -> Act:
        if not isinstance(body, dict) or not {"by", "action"} <= set(body):
            raise self._invalid("act needs by and action")
        unknown = set(body) - ACT_KEYS
        if unknown:
            raise self._invalid(f"unknown act key {sorted(unknown)[0]!r}")
        action = body["action"]
        if action not in self.ruleset.action_ids():
            raise self._invalid(f"unknown action id {action!r}")
        raw = body.get("target")
        targets = () if raw is None else tuple(
            self._pid(t) for t in (raw if isinstance(raw, list) else [raw]))
        role_id = body.get("role")
        if role_id is not None and role_id not in self.ruleset.roles:
            raise self._invalid(f"unknown role id {role_id!r}")
        text = body.get("text")
        return Act(self._pid(body["by"]), action, targets,
                   None if text is None else str(text), role_id, at=self.clock)

    def _host(self, body: Any) -> HostCommand:
        if not isinstance(body, dict) or "command" not in body:
            raise self._invalid("host needs a command")
        unknown = set(body) - HOST_KEYS
        if unknown:
            raise self._invalid(f"unknown host key {sorted(unknown)[0]!r}")
        power = body["command"]
        at = self.clock
        if power in ("modkill", "replace"):
            if body.get("target") is None:
                raise self._invalid(f"{power} needs a target")
            target = self._pid(body["target"])
            if power == "modkill":
                return Modkill(target, at=at)
            return Replace(target, str(body.get("by") or ""), at=at)
        if power == "extend":
            minutes = body.get("minutes") or 0
            if not isinstance(minutes, int) or isinstance(minutes, bool):
                raise self._invalid("minutes must be a whole number (negative shortens)")
            return Extend(minutes, at=at)
        if power == "announce":
            return Announce(str(body.get("text") or ""), at=at)
        if power not in BARE_POWERS:
            raise self._invalid(f"unknown host command {power!r}")
        return BARE_POWERS[power](at=at)

    def _apply(self, command: Any, refused: bool, what: str) -> None:
        before = self.game.snapshot() if refused else None
        try:
            outcome = self.game.apply(command)
        except Refused as err:
            reason = self.renderer.render(err.text)
            if not refused:
                raise self._fail(f"{what} was refused: {reason}") from err
            if self.game.snapshot() != before:
                raise self._fail(f"{what} was refused but changed the game") from err
            self.transcript.append(f"[refused] {what}: {reason}")
            return
        if refused:
            raise self._fail(f"{what} was accepted, expected a refusal")
        self._record(outcome)

    def _record(self, outcome: Outcome) -> None:
        for message in outcome.messages:
            carried = set(_refs(message.text.params))
            for reader in self._readers(message.audience):
                self.told.setdefault(reader, set()).update(carried)
        if not self.show:
            return
        for event in outcome.events:
            if event.kind == "voted":
                target = event.data["target"]
                self.transcript.append(
                    f"[vote] {self.game.name(event.data['voter'])} → "
                    f"{'(withdrawn)' if target is None else self.game.name(target)}")
        for message in outcome.messages:
            audience = message.audience
            if audience.kind == "player":
                where = f"to {self.game.name(audience.ref or '')}"
            else:
                where = str(audience)
            self.transcript.append(f"[{where}] {self.renderer.render(message.text)}")

    def _readers(self, audience: Any) -> list[str]:
        """Who reads a message: "group", a player id, a team's members at the time."""
        if audience.kind == "group":
            return ["group"]
        if audience.kind == "player":
            return [audience.ref or ""]
        if audience.kind == "team":
            return list(self.ruleset.team_members(self.game, audience.ref or ""))
        return []  # the host is nobody in a scenario

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
                        shown = sorted(self.game.name(v) if k == "player" else v
                                       for k, v in carried if k == kind)
                        raise self._fail(
                            f"{audience} was {'' if named else 'not '}told {kind} {value}"
                            f" (named since the last expect: {shown})")

    def _check_known(self, kind: str, value: str) -> None:
        if kind == "role" and value not in self.ruleset.roles:
            raise self._invalid(f"unknown role id {value!r}")

    def _names(self, pids: Iterable[str]) -> list[str]:
        return sorted(self.game.name(p) for p in pids)

    def _mismatch(self, key: str, wanted: Any, got: Any) -> ScenarioFailed:
        return self._fail(f"expected {key} {wanted!r}, got {got!r}")

    def _expect_phase(self, wanted: Any) -> None:
        got = str(self.game.state.phase)
        if got != str(wanted):
            raise self._mismatch("phase", wanted, got)

    def _living(self) -> list[str]:
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
        want = {}  # only the keys given are checked
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


def _refs(value: Any) -> Iterator[tuple[str, str]]:
    """Every (kind, value) reference a message's parameters carry, nested ones included."""
    if isinstance(value, Ref):
        yield value.kind, str(value.value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _refs(item)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _refs(item)

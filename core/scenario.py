"""The scenario runner (`../shared/scenarios/FORMAT.md`): scripted games against the real engine.

No platform and no clock: windows close only on a `close` step, and the early close of complete
windows is off unless the file turns it on. An invalid file fails with its file, step and
problem, never with a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, assert_never

import yaml  # type: ignore[import-untyped]  # PyYAML ships no type information

from core.engine import (
    Act,
    Announce,
    Close,
    Extend,
    Force,
    Game,
    GameSetup,
    HostCommand,
    Leave,
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
from core.engine.causes import OutOfStory
from core.engine.events import Voted
from core.engine.ids import ActionId, PlayerId
from core.engine.messages import Audience, Group, ToHost, ToPlayer, ToTeam
from core.engine.registry import available, load_ruleset
from core.engine.ruleset import SetupError
from core.i18n import Renderer
from core.scenario_expect import (
    Expectations,
    ScenarioFailed,
    ScenarioInvalid,
    refs,
)

TOP_KEYS = {"name", "ruleset", "seed", "locale", "options", "players", "roles", "setup",
            "start", "steps"}
STEP_KINDS = {"act", "vote", "early", "say", "leave", "host", "wait_hours", "close", "expect"}
ACT_KEYS = {"by", "action", "target", "text", "role"}
HOST_KEYS = {"command", "target", "by", "minutes", "text"}
#: a `leave` step's `how`: `/flee`, out of the game's chat after the grace time, kicked from it
LEAVE_HOW = {"flee": OutOfStory.LEFT, "left_chat": OutOfStory.LEFT_CHAT,
             "kicked": OutOfStory.KICKED}
BARE_POWERS: dict[str, type[Pause | Resume | Force]] = {  # the powers with no fields
    "pause": Pause, "resume": Resume, "force": Force}
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


class _Runner(Expectations):
    """Plays one file's steps against the engine; its expectations are `Expectations`'."""

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
        self.pid_of_name = {name: PlayerId(f"p{i + 1}") for i, name in enumerate(players)}
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
                                 self._name, ruleset=self.ruleset.id)
        self._record(self.game.opening)
        steps = data.get("steps") or []
        if not isinstance(steps, list):
            raise ScenarioInvalid("steps must be a list")
        for index, step in enumerate(steps, start=1):
            self.step_no = index
            self._step(step)

    def _name(self, pid: str) -> str:
        """A player's display name, for the renderer (which knows ids as plain strings)."""
        return self.game.name(PlayerId(pid))

    def _pid(self, name: Any) -> PlayerId:
        game: Game | None = getattr(self, "game", None)
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
        if refused and kind not in ("act", "vote", "host", "early", "leave"):
            raise self._invalid("only act, vote, early, leave and host steps can be refused")
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
        elif kind == "leave":
            self._apply(self._leave(body), refused, f"leave {body}")
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
        action = ActionId(body["action"])
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

    def _leave(self, body: Any) -> Leave:
        """`leave: NAME` (his `/flee`) or `leave: {by: NAME, how: flee|left_chat|kicked}`."""
        if not isinstance(body, dict):
            body = {"by": body}
        how = body.get("how", "flee")
        if set(body) - {"by", "how"} or "by" not in body or how not in LEAVE_HOW:
            raise self._invalid(f"leave needs by and how ({', '.join(LEAVE_HOW)})")
        return Leave(self._pid(body["by"]), at=self.clock, cause=LEAVE_HOW[how])

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
            carried = set(refs(message.text.params))
            for reader in self._readers(message.audience):
                self.told.setdefault(reader, set()).update(carried)
        if not self.show:
            return
        for event in outcome.events:
            if isinstance(event, Voted):
                target = event.target
                self.transcript.append(
                    f"[vote] {self.game.name(event.voter)} → "
                    f"{'(withdrawn)' if target is None else self.game.name(target)}")
        for message in outcome.messages:
            audience = message.audience
            if isinstance(audience, ToPlayer):
                where = f"to {self._name(audience.pid)}"
            else:
                where = str(audience)
            self.transcript.append(f"[{where}] {self.renderer.render(message.text)}")

    def _readers(self, audience: Audience) -> list[str]:
        """Who reads a message: "group", a player id, a team's members at the time."""
        match audience:
            case Group():
                return ["group"]
            case ToPlayer(pid=pid):
                return [pid]
            case ToTeam(team=team):
                return list(self.ruleset.team_members(self.game, team))
            case ToHost():
                return []  # the host is nobody in a scenario
            case unknown:
                assert_never(unknown)

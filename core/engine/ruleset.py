"""The contract between the generic engine and a rule set.

A role is data first (`RoleSpec`, `ActionSpec`); behaviour a table cannot say lives in the rule
set's hooks. The engine owns collecting actions, last-submission-wins, votes with weights, owed
reactions, pausing and the host's generic powers; the rule set owns what happens when a window
closes and who has won.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .balance_target import BalanceTarget
from .commands import Vote
from .game import Game
from .ids import PASS, ActionId, PlayerId, RoleId
from .messages import N_
from .refusals import Refused
from .specs import ActionSpec, RoleSpec, SetupError, TeamChat
from .state import Player, Submission
from .story import Heading, StoryExtension
from .windows import WindowSpec, from_pace_table

__all__ = ["ActionSpec", "Catalog", "RoleSpec", "Ruleset", "SetupError", "TeamChat", "WindowSpec"]


class Catalog(NamedTuple):
    """A gettext domain of a package's own, `<directory>/<locale>/LC_MESSAGES/<domain>.po`: how
    a role or an adapter from a package of its own brings its texts."""

    directory: Path
    domain: str


class Ruleset:
    """Base class with the hooks the engine calls; a rule set overrides what it needs."""

    id: str = ""
    roles: dict[RoleId, RoleSpec] = {}  # noqa: RUF012 - replaced per subclass
    sides: tuple[str, ...] = ()
    causes: tuple[str, ...] = ()
    default_options: dict[str, Any] = {}  # noqa: RUF012
    # the values a text option may take, and what each option does (a gettext message that
    # names its values): `/option` alone shows them, a value outside is refused when set
    option_choices: dict[str, tuple[str, ...]] = {}  # noqa: RUF012
    option_about: dict[str, str] = {}  # noqa: RUF012
    # further words a host may type for an option's name, beside its id and its shown name
    # (`vocabulary["option_name"]`): a `typed` message each, its translation comma-separated
    option_words: dict[str, str] = {}  # noqa: RUF012
    # kind ("role", "side", "cause") -> id -> English msgid, for rendering `Ref`s
    vocabulary: dict[str, dict[str, str]] = {}  # noqa: RUF012
    # the windows a host may time (`/timer`), with their defaults per pace and their bounds
    # (core/engine/windows.py); a rule set declaring them sets `pace = pace_table(windows)`
    windows: tuple[WindowSpec, ...] = ()
    # window stage -> deadline preset per pace ("quick", "forum"), see
    # core/service/games/deadline_times.py (the older form of `windows`)
    pace: dict[str, dict[str, Any]] = {}  # noqa: RUF012
    # option defaults that differ by pace (a host's own /option still wins)
    pace_options: dict[str, dict[str, Any]] = {}  # noqa: RUF012
    summary: str = ""  # a short rules text (msgid) for /rules
    title: str = ""  # the game's name (msgid)
    # other names a host may type for the game in /newgame, as typed (its title in every
    # language is accepted anyway): a word players use that is not its title
    aliases: tuple[str, ...] = ()
    # The rule set's own gettext catalogs, `<locales_dir>/<lang>/LC_MESSAGES/<domain>.po` (the
    # domain is the rule set's id unless it says otherwise); its texts are looked up there
    # first, then in the core catalogs. None: the rule set has no texts of its own.
    locales_dir: Path | None = None
    domain: str = ""
    # the catalogs of roles that packages of their own add to the rule set (see
    # `registry.extra_roles`): asked after the rule set's own, before the core's
    role_catalogs: Sequence[Catalog] = ()
    # the rule set's voice for the core's prompts (core/engine/voice.py): core msgid -> its
    # own variants (msgids of its catalog, same placeholders); a core text without variants
    # is told as it is
    voice: dict[str, tuple[str, ...]] = {}  # noqa: RUF012
    # the end-of-game summary's player lines in the rule set's voice (core/story/summary.py):
    # a line's name ("survived", "left_day", "left_night") -> its own msgid
    story_texts: dict[str, str] = {}  # noqa: RUF012
    # the story's headings in the rule set's words (core/engine/story.py `Heading`)
    story_headings: Mapping[Heading, str | tuple[str, str]] = {}
    min_players: int = 0
    max_players: int = 0
    # what the balance advisor calls a fair game here (core/balance); None: it gives no advice
    balance: BalanceTarget | None = None

    def timed_windows(self) -> tuple[WindowSpec, ...]:
        """The windows a host may time: those declared, or those of the older `pace` table."""
        return self.windows or from_pace_table(self.pace)

    def window(self, window_id: str) -> WindowSpec | None:
        return next((w for w in self.timed_windows() if w.id == window_id), None)

    def action_ids(self) -> set[ActionId]:
        """Every action id this rule set knows (for validating scenario files)."""
        return {a.id for r in self.roles.values() for a in r.actions} | set(self.extra_actions)

    extra_actions: tuple[ActionId, ...] = ()
    player_options: tuple[str, ...] = ()  # options whose value names a player

    # --- setup -------------------------------------------------------------------------
    def new_state(self) -> Any:
        """The rule set's own part of the game state."""
        return None

    def check_options(self, options: dict[str, Any]) -> None:
        """Raise SetupError for an unknown option or a value of the wrong kind."""
        for key, value in options.items():
            if key not in self.default_options:
                raise SetupError("Unknown option: {option}.", option=key)
            default = self.default_options[key]
            choices = self.option_choices.get(key)
            if choices is not None and value not in choices:
                raise SetupError("Option {option} takes one of: {values}.", option=key,
                                 values=", ".join(choices))
            if default is not None and not isinstance(value, type(default)):
                raise SetupError("Option {option} has a wrong value.", option=key)
            # numeric options are counts and hours: a yes/no or a negative number is a slip
            if isinstance(default, int) and not isinstance(default, bool) and (
                    isinstance(value, bool) or value < 0):
                raise SetupError("Option {option} has a wrong value.", option=key)

    def deal(self, count: int, options: dict[str, Any], rng: random.Random) -> list[RoleId]:
        raise NotImplementedError

    def check_setup(self, roles: Sequence[RoleId], options: dict[str, Any]) -> None:
        """Raise SetupError if this list of roles may not be played."""

    def start(self, game: Game, setup: dict[str, Any], start_phase: str | None) -> None:
        raise NotImplementedError

    # --- player commands ---------------------------------------------------------------
    def abilities(self, game: Game, player: Player) -> Sequence[ActionSpec]:
        """The actions this player may send now (role powers, statuses, owed reactions)."""
        return self.roles[player.role].actions

    def offers(self, game: Game, player: Player) -> Sequence[ActionSpec]:
        """What to offer the player in the open window: usable actions only (prompts, buttons,
        random players). A command outside this list still gets its specific refusal."""
        stage = game.state.phase.stage
        return [spec for spec in self.abilities(game, player) if stage in spec.stages]

    def prompted(self, game: Game, player: Player) -> Sequence[ActionSpec]:
        """The actions to put in front of the player when a window opens (a keyboard):
        by default everything offered but `pass` (which every keyboard carries)."""
        return [spec for spec in self.offers(game, player) if spec.id != PASS]

    def may_act_removed(self, game: Game, player: Player, action: ActionId) -> bool:
        """Whether a player who has left may still send this action (a choice owed to him)."""
        return False

    def check_act(self, game: Game, player: Player, spec: ActionSpec,
                  targets: tuple[PlayerId, ...], text: str | None, role: RoleId | None) -> None:
        """Raise Refused for what the table cannot say (repeats, once-per-game, lovers...)."""

    def after_act(self, game: Game, sub: Submission) -> None:
        """React to an accepted submission (answer an owed choice, tell the team...)."""

    def voting_open(self, game: Game) -> bool:
        return False

    def check_vote(self, game: Game, voter: Player, target: Player | None) -> None:
        """Raise Refused for a vote the rules forbid."""

    def check_early(self, game: Game, voter: Player) -> None:
        raise Refused(N_("There are no early votes in this game."))

    def early_votes_open(self, game: Game) -> bool:
        """Whether today's vote may be marked early (the ballot then offers a button)."""
        return False

    def on_activity(self, game: Game, player: Player) -> None:
        """The player did something that counts as activity."""

    # --- windows ----------------------------------------------------------------------
    def waiting_for(self, game: Game) -> list[PlayerId]:
        """Who the open window still waits for, to be reminded before it closes: in a vote,
        the living who may vote and have not; otherwise whoever has a choice in front of him
        (`awaited`) and has sent nothing in this window."""
        s = game.state
        if self.voting_open(game):
            return [p.pid for p in s.players.values() if p.alive and p.pid not in s.votes
                    and game.check(Vote(p.pid, p.pid)) is None]
        sent = {actor for actor, _ in s.subs} | s.acted
        return [p.pid for p in s.players.values()
                if p.pid not in sent and self.awaited(game, p)]

    def awaited(self, game: Game, player: Player) -> bool:
        """Whether the open window offers this player a choice worth a reminder."""
        return bool(self.prompted(game, player))

    def window_complete(self, game: Game) -> bool:
        """Whether every player who can still act in the open window has acted."""
        return False

    def close(self, game: Game) -> None:
        raise NotImplementedError

    def after_vote(self, game: Game, voter: PlayerId) -> None:
        """A vote was cast, withdrawn or marked early (rules that end a day early look here)."""

    # --- removals and the host --------------------------------------------------------
    def on_removed(self, game: Game, player: Player, cause: str) -> None:
        """Consequences of a removal (heartbreak, succession, passing objects on)."""

    def after_host_removal(self, game: Game, player: Player) -> None:
        """A host removal happened; the rule set checks the end here."""

    def on_replaced(self, game: Game, player: Player) -> None:
        """A new account has taken over this seat (host `replace`); the seat keeps its role
        and statuses, and the rule set may clear what belonged to the old account."""

    # --- what the outside may ask -----------------------------------------------------
    def side_of(self, game: Game, player: Player) -> str:
        return self.roles[player.role].side

    def statuses_of(self, game: Game, player: Player) -> set[str]:
        return set(player.statuses)

    def fact(self, game: Game, key: str) -> Any:
        """A rule-set-specific fact for scenario expectations (mayor, lovers, foresight,
        stone); raise KeyError if this rule set has no such fact."""
        raise KeyError(key)

    def whisper_recipients(self, game: Game, sender: Player, to: PlayerId | None) -> list[PlayerId]:
        """Who hears the sender's private message (team chats, forwarding); refuse if nobody
        may."""
        raise Refused(N_("You have nobody to talk to in private in this game."))

    def team_chats(self, game: Game) -> list[TeamChat]:
        """The private chats the rules give right now, with their current members (players
        who left a chat are no longer listed). None by default."""
        return []

    def team_members(self, game: Game, team: str) -> list[PlayerId]:
        """The players a team message reaches now (resolved at sending time)."""
        return []

    def story(self, game: Game) -> StoryExtension[Game]:
        """What this rule set adds to the story of a game (its bonds and lines, see
        core/engine/story.py), made when the game has been dealt. None by default."""
        return StoryExtension()

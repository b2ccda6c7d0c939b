"""What anyone may ask in the group, changing nothing: /help, /rules, /roles, /role NAME and
/status (of the sign-up, with the host's changed settings; or of the running game, with whom
the vote still waits for)."""

from __future__ import annotations

from core import spoken
from core.engine.messages import Ref, RefKind
from core.engine.registry import load_ruleset
from core.storage.models import Chat, Identity, Seat
from core.storage.states import GameStatus

from ..games.deadline_times import status_left
from ..games.deadlines import pending_close
from ..messages import outbox, texts
from ..messages.payloads import PostPayload, part, post
from ..ports.replies import Reply
from ..telling.lobby_view import once_line
from ..telling.settings_view import changed_settings, role_id_named, role_line
from .group_commands import GroupCommands
from .guidance import group_help
from .lobby import default_ruleset
from .timers import timers_overview


class Information(GroupCommands):
    """The group's questions, answered in the group; a refusal raised as `Reply`."""

    async def _cmd_help(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        """The overview of the help's parts, or (/help N) one part; on a platform whose
        buttons open the private chat, each part's button sends it there."""
        wording = self.service.wordings.get(chat.platform)
        await outbox.to_group(chat, group_help(rest, wording is not None and wording.by_link))

    async def _cmd_rules(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        row = await self.service.current_game(chat)
        ruleset = load_ruleset(row.ruleset if row else default_ruleset())
        await outbox.to_group(chat, post(ruleset.summary), game=row)

    async def _cmd_roles(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        """The roles of the rule set; in a running game those in play, one line each."""
        row = await self.service.current_game(chat)
        ruleset = load_ruleset(row.ruleset if row else default_ruleset())
        if row is None or row.status != GameStatus.RUNNING:
            await outbox.to_group(chat, post(
                *texts.ROLES_IN_RULESET, count=len(ruleset.roles),
                ruleset=Ref(RefKind.RULESET, ruleset.id),
                roles=tuple(Ref(RefKind.ROLE, r) for r in ruleset.roles)), game=row)
            return
        game = await self.service.games.load(row)
        if not game.state.options.get("roles_public", True):
            raise Reply(texts.ROLES_SECRET)
        in_play = [r for r in ruleset.roles if any(p.role == r for p in
                                                   game.state.players.values())]
        await outbox.to_group(chat, PostPayload((part(texts.ROLES_IN_PLAY), *(
            role_line(ruleset, r) for r in in_play))), game=row)

    async def _cmd_role(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        """/role NAME: what a role does, from its role card (a name in any language)."""
        row = await self.service.current_game(chat)
        ruleset = load_ruleset(row.ruleset if row else default_ruleset())
        if not rest.strip():  # the example is a role of this game, named in the reader's words
            raise Reply(texts.ROLE_NEEDED, role=Ref(RefKind.ROLE, next(iter(ruleset.roles))))
        line = role_line(ruleset, role_id_named(ruleset, rest))
        await outbox.to_group(chat, PostPayload((line,)), game=row)

    async def _cmd_status(self, rest: str, chat: Chat, person: Identity, admin: bool) -> None:
        row = await self.service.current_game(chat)
        if row is None:
            raise Reply(texts.NO_GAME)
        if row.status == GameStatus.LOBBY:
            seats = await Seat.filter(game_id=row.id, active=True).count()
            await outbox.to_group(chat, post(
                texts.STATUS_LOBBY, ruleset=Ref(RefKind.RULESET, row.ruleset), count=seats,
                needed=load_ruleset(row.ruleset).min_players), game=row)
            changed = changed_settings(row, self.service.defaults.pace)
            if changed:
                await outbox.to_group(chat, post(texts.STATUS_SETTINGS,
                                                         settings=changed), game=row)
            once = once_line(row)
            if once is not None:  # not remembered for the group's next game
                await outbox.to_group(chat, PostPayload((once,)), game=row)
            await outbox.to_group(chat, timers_overview(load_ruleset(row.ruleset), row),
                                  game=row)
            roles = (row.settings or {}).get("roles")
            if roles:
                await outbox.to_group(chat, post(
                    *texts.ROLES_CURRENT, count=len(roles),
                    roles=tuple(Ref(RefKind.ROLE, r) for r in roles)), game=row)
            await outbox.to_group(chat, await self.service.lobby.group_settings(chat, row),
                                  game=row)
            return
        game = await self.service.games.load(row)
        deadline = await pending_close(row.id)
        left = status_left(row, deadline, self.service.clock.now())
        await outbox.to_group(chat, post(texts.STATUS, ruleset=Ref(RefKind.RULESET, row.ruleset),
                                                 phase=spoken.phase(game.state.phase), left=left),
                              game=row)
        if game.state.paused:
            await outbox.to_group(chat, post(texts.STATUS_PAUSED), game=row)
        if game.ruleset.voting_open(game):
            waiting = tuple(Ref(RefKind.PLAYER, p.pid) for p in game.state.living()
                            if p.pid not in game.state.votes)
            await outbox.to_group(chat, post(*texts.STATUS_WAITING, count=len(waiting),
                                             names=waiting) if waiting
                                  else post(texts.STATUS_ALL_VOTED), game=row)

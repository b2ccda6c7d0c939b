"""Steps that cannot be undone ask first: `/flee` (a player leaves a running game) and
`/endgame` (the host ends the game) are confirmed with a button in the private chat of the
one who asked — the only place where the question is his alone, on every platform (a group's
buttons are everybody's; on Matrix they become a poll). The confirmation is edited into what
came of it, so a second press finds nothing to press."""

from __future__ import annotations

import secrets

from core.engine import Leave
from core.engine.ids import PlayerId
from core.storage.models import Chat, GameRecord, Identity, Seat
from core.storage.states import CURRENT, GameStatus

from ..messages import outbox, texts
from ..messages.button_commands import Confirm, ConfirmStep
from ..messages.buttons import button
from ..messages.payloads import KeyboardPayload, TextLabel, part
from ..ports.replies import Reply
from .context import ServiceContext


class Confirmations:
    def __init__(self, service: ServiceContext) -> None:
        self.service = service

    async def ask_flee(self, person: Identity, chat: Chat | None = None) -> None:
        """/flee in the group (that chat's game) or in private (the player's running game)."""
        query = Seat.filter(identity_id=person.id, active=True, game__status=GameStatus.RUNNING)
        if chat is not None:
            query = query.filter(game__chat_id=chat.id)
        seat = await query.order_by("-id").first()
        if seat is None:
            raise Reply(texts.NOT_PLAYING)
        row = await GameRecord.get(id=seat.game_id)
        game = await self.service.games.load(row)
        refusal = game.check(Leave(PlayerId(seat.pid), at=self.service.clock.now()))
        if refusal is not None:  # already out of the game: nothing to confirm
            raise Reply.saying(refusal.text)
        await self._ask(row, person, texts.FLEE_CONFIRM, "flee", texts.FLEE_BUTTON)

    async def ask_endgame(self, row: GameRecord, host: Identity) -> None:
        question = texts.ENDGAME_CONFIRM if row.setup is not None else \
            texts.ENDGAME_CONFIRM_LOBBY
        await self._ask(row, host, question, "endgame", texts.ENDGAME_BUTTON)

    async def press(self, row: GameRecord, command: Confirm, person: Identity,
                    in_private: bool) -> Reply:
        """A confirmation's button: only the one asked, only in his private chat, and only
        while the game it asked about is still going."""
        if not in_private or command.identity != person.id:
            raise Reply(texts.NOT_YOUR_BUTTON)
        replace = command.replace
        if command.step == "keep":
            await self._settle(row, person, replace, texts.KEPT)
            return Reply(texts.KEPT)
        wanted = (GameStatus.RUNNING,) if command.step == "flee" else CURRENT
        if row.status not in wanted:
            raise Reply(texts.STALE_BUTTON)
        if command.step == "flee":
            seat = await Seat.filter(game_id=row.id, identity_id=person.id, active=True).first()
            if seat is None:
                raise Reply(texts.NOT_A_PLAYER)
            leave = Leave(PlayerId(seat.pid), at=self.service.clock.now())
            await self.service.games.apply(row, leave, person, refusal_as_reply=True)
            await self._settle(row, person, replace, texts.FLEE_DONE)
            return Reply(texts.FLEE_DONE)
        await self.service.lobby.cancel(row, await row.chat, person)
        await self._settle(row, person, replace, texts.ENDGAME_DONE)
        return Reply(texts.ENDGAME_DONE)

    async def _ask(self, row: GameRecord, person: Identity, question: str, step: ConfirmStep,
                   button_text: str) -> None:
        """A new question each time (an old one may be far up the chat); each is edited
        into its own answer."""
        replace = f"confirm-{row.id}-{person.id}-{secrets.token_hex(4)}"
        buttons = [await button(row, None, TextLabel(button_text),
                                Confirm(step, person.id, replace)),
                   await button(row, None, TextLabel(texts.KEEP_BUTTON),
                                Confirm("keep", person.id, replace))]
        await outbox.to_person(person, KeyboardPayload((part(question),), tuple(buttons),
                                                       replace, asks=person.id), game=row)

    @staticmethod
    async def _settle(row: GameRecord, person: Identity, replace: str, outcome: str) -> None:
        """The question becomes its answer, without buttons."""
        await outbox.to_person(person, KeyboardPayload((part(outcome),), (), replace),
                               game=row)

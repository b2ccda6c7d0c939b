"""Pressed buttons: the token a platform carries back, the stored button behind it (anything
a client made up is refused), and what its command asks: sign-up, "open the private chat",
a confirmation, a page or a change of the settings menu, a vote, an early end of the day,
a night action (and its second target).
A button of a closed window, or of another player, changes nothing."""

from __future__ import annotations

from typing import assert_never

from core.engine import Act, MarkEarly, Vote
from core.engine.registry import load_ruleset
from core.engine.voice import Voiced
from core.storage.models import TOKEN_LENGTH, Button, GameRecord, Identity
from core.storage.states import GameStatus

from ..games.running import Games
from ..messages import button_commands as pressed
from ..messages import outbox, texts
from ..messages.voiced import voiced_in_window
from ..ports.clock import Clock
from ..ports.contract import Notice
from ..ports.refusals import SHOWN_ON_KEYBOARD
from ..ports.replies import Reply
from ..rows.game_rows import known_game, locked_game, seat_pid
from ..rows.unit_of_work import current_work
from ..telling.prompts import chosen_text, second_pick, show_choice
from .confirm import Confirmations
from .guidance import help_part, pressed_help_part
from .lobby import Lobby
from .private import PrivateChats
from .settings_menu import SettingsMenu


async def pressed_button(token: str) -> Button | None:
    """The stored button behind a pressed token; anything a client made up is None.
    Read once per command (a button never changes)."""
    if not token or len(token) > TOKEN_LENGTH:
        return None
    work = current_work()
    if work is not None and token in work.buttons:
        return work.buttons[token]
    found = await Button.get_or_none(token=token)
    if work is not None:
        work.buttons[token] = found
    return found


async def taken_notice(token: str, reader: int) -> str:
    """The notice for a button that was taken, in the voice of its game (turned on with
    each window, so that a player does not read the same words every night)."""
    button = await pressed_button(token)
    row = None if button is None else (known_game(button.game_id)
                                       or await GameRecord.get_or_none(id=button.game_id))
    if button is None or row is None:
        return texts.PROMPT_TAKEN
    return voiced_in_window(row, load_ruleset(row.ruleset).voice, Voiced.PROMPT_TAKEN,
                            button.window, reader)


async def button_game(token: str) -> int | None:
    """The game of a pressed button (whose language its notice speaks), if it is one."""
    button = await pressed_button(token)
    return None if button is None else button.game_id


class ButtonPresses:
    """The rooms a button's command goes to: the lobby's sign-up, the private chat, the
    confirmations, the running game."""

    def __init__(self, games: Games, clock: Clock, lobby: Lobby, private: PrivateChats,
                 confirmations: Confirmations, menu: SettingsMenu) -> None:
        self.games = games
        self.clock = clock
        self.lobby = lobby
        self.private = private
        self.confirmations = confirmations
        self.menu = menu

    async def _guidance(self, token: str, person: Identity, in_private: bool) -> None:
        """A button with no stored row: "open the private chat" (what waited is sent, and
        the help), or a part of the group's help, sent privately."""
        number = pressed_help_part(token)
        if number is not None:
            await outbox.to_person(person, help_part(number))
        elif in_private:  # (a Matrix keycap presses it without a private message first)
            await outbox.reopen(person)
            await outbox.to_person(person, await self.private.help_for(person))

    async def press(self, token: str, person: Identity,
                    in_private: bool) -> Reply | Notice | None:
        """A pressed button: what its stored command asks, if the presser may; a refusal
        is raised as `Reply`, an answer of its own returned."""
        if token == pressed.HELLO or pressed_help_part(token) is not None:
            await self._guidance(token, person, in_private)
            return None
        button = await pressed_button(token)
        if button is None:
            raise Reply(texts.UNKNOWN_BUTTON)
        # the game's row is locked here, once, for the whole command
        row = await locked_game(button.game_id)
        command = pressed.from_json(button.command)
        match command:
            case pressed.Join() | pressed.Leave():
                await self.lobby.press(command, row, person)
            case pressed.Hello():  # "open the private chat": what waited is sent
                if in_private:  # (a Matrix keycap presses it without a private message first)
                    await outbox.reopen(person)
                    await outbox.to_person(person, await self.private.help_for(person))
            case pressed.Confirm():
                return await self.confirmations.press(row, command, person, in_private)
            case pressed.MenuShow() | pressed.MenuSet():
                return await self.menu.press(row, command, person, in_private)
            case pressed.VoteFor() | pressed.MarkEarly() | pressed.ActOn() | pressed.PickFirst():
                return await self.in_window(row, button, command, person, in_private)
            case _:
                assert_never(command)
        return None

    async def in_window(self, row: GameRecord, button: Button, command: pressed.InWindow,
                        person: Identity, in_private: bool) -> Reply | Notice | None:
        """A ballot's or a private keyboard's button: only in its own window, by its own
        player, where it was offered. A private keyboard's choice is confirmed once: on the
        keyboard while its window is open (the notice says nothing), else by the notice."""
        if in_private != (button.pid is not None):
            raise Reply(texts.UNKNOWN_BUTTON)  # a group button pressed elsewhere, or back
        if row.status != GameStatus.RUNNING or row.window != button.window:
            raise Reply(texts.STALE_BUTTON)
        pid = await seat_pid(row, person)
        if pid is None:
            raise Reply(texts.NOT_A_PLAYER)
        if button.pid is not None and button.pid != pid:
            raise Reply(texts.NOT_YOUR_BUTTON)
        now = self.clock.now()
        match command:
            case pressed.VoteFor(target):
                await self.games.apply(row, Vote(pid, target, at=now), person,
                                       refusal_as_reply=True, locked=True)
            case pressed.MarkEarly():
                await self.games.apply(row, MarkEarly(pid, at=now), person,
                                       refusal_as_reply=True, locked=True)
            case pressed.PickFirst(action, first):  # offer the second target, whose
                await second_pick(row, await self.games.load(row), pid, action, first,
                                  person)
                return SHOWN_ON_KEYBOARD  # keyboard names the first (no notice besides)
            case pressed.ActOn(action, targets, role):
                await self.games.apply(row, Act(pid, action, targets, None, role, at=now),
                                       person, refusal_as_reply=True, locked=True)
                game = await self.games.load(row)
                if row.window == button.window:  # the keyboard says what is chosen now
                    await show_choice(row, game, person, pid, button.token, command)
                    return SHOWN_ON_KEYBOARD
                # the choice closed the window: said once, by the notice, as done
                return Reply.saying(chosen_text(row, game, pid, command))
            case _:
                assert_never(command)
        return None


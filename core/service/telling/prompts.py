"""Each actor's private keyboards for a window: every valid (action, target) as a button, a
second keyboard for a second target or a role, the keyboard edited to show the choice made,
and every keyboard closed with its window."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from core.engine import Act, ActionSpec, Game, Message, Outcome
from core.engine.ids import PASS, ActionId, PlayerId
from core.engine.log_codec import encode
from core.engine.messages import Either, Param, Ref, RefKind, Text
from core.engine.registry import load_ruleset
from core.engine.state import Player
from core.engine.voice import Voiced
from core.storage.models import GameRecord, Identity, Prompt

from ..messages import outbox, texts
from ..messages.button_commands import ActOn, PickFirst
from ..messages.buttons import button
from ..messages.payloads import (
    KeyboardPayload,
    Label,
    NameLabel,
    Part,
    StoredButton,
    TextLabel,
    message_part,
    part,
)
from ..messages.voiced import voiced, voiced_in_window
from ..ports.replies import Reply
from ..rows.game_rows import seat_identities
from .audience import deliver_outcome


async def offer_keyboards(row: GameRecord, game: Game, asked: Sequence[Message] = ()) -> None:
    """The keyboards of the window that just opened, for each actor it prompts. `asked`: the
    rule set's own texts asking for this window's choices (told as `Purpose.ASKING`), each the text
    of its player's keyboard in place of the core's prompt; one whose player gets no
    keyboard goes out as it is."""
    seats = await seat_identities(row)
    own = {m.audience.ref: m for m in asked}
    for p in game.state.players.values():
        specs = game.ruleset.prompted(game, p) if p.pid in seats else []
        if specs and await _keyboard(row, game, p, specs, seats[p.pid], own.get(p.pid)):
            own.pop(p.pid, None)
    if own:
        await deliver_outcome(row, game, Outcome([], list(own.values())), urgent=True)


#: The most buttons one message takes when a window's keyboards for a player are merged (more
#: go out as keyboards of their own: a phone shows no more at once, and Telegram takes 100).
MERGED_BUTTONS = 50


async def _keyboard(row: GameRecord, game: Game, p: Player, specs: Sequence[ActionSpec],
                    person: Identity, asked: Message | None = None) -> bool:
    """The player's keyboard for this window: every valid (action, target) as a button
    (labelled by the target's name, or "action: name" when he has several actions), under
    the game's own question (`asked`) or the core's prompt; an action with two targets or a
    role asks for its first player (or its role) as well, in the same message while the
    buttons fit (`MERGED_BUTTONS`: every message spends the bot's budget with the platform),
    else in a keyboard of its own. Writing the command works as well. Whether the buttons
    went out under `asked`."""
    pressable = [s for s in specs if s.targets < 2 and not s.takes_role]
    several = len(pressable) > 1
    buttons = []
    for spec in pressable:
        action = Ref(RefKind.ACTION, spec.id)
        choices: list[tuple[PlayerId, ...]] = [()] if spec.targets == 0 else [
            (t.pid,) for t in game.state.players.values()]
        for targets in choices:
            if game.check(Act(p.pid, spec.id, targets)) is not None:
                continue
            if targets:
                name = Ref(RefKind.PLAYER, targets[0])
                label: Label = NameLabel(name) if not several else TextLabel(
                    texts.ACTION_ON, encode({"action": action, "name": name}))
            else:
                label = TextLabel(texts.ACTION_ONLY, encode({"action": action}))
            buttons.append(await button(row, p.pid, label, ActOn(spec.id, tuple(targets))))
    # each action's own prompt, told in the next variant (`nth`): a Stone holder's three
    # two-name actions read three ways, not one template three times
    more = [k for nth, spec in enumerate(s for s in specs if s.takes_role or s.targets == 2)
            for k in [await _more_keyboard(row, game, p, spec, bool(buttons), nth)] if k]
    prompts: list[Part] = []
    if buttons:
        prompts.append(message_part(asked) if asked is not None else part(
            voiced(row, game, Voiced.ACTION_PROMPT, p.pid),
            action=Either(tuple(Ref(RefKind.ACTION, s.id) for s in pressable))))
    if buttons and len(buttons) + sum(len(b) for _, b in more) < MERGED_BUTTONS:
        for prompt, extra in more:
            prompts.append(prompt)
            buttons += extra
        more = []
    if buttons:
        buttons.append(await button(row, p.pid, TextLabel(texts.PASS_BUTTON),
                                    ActOn(PASS, ())))
        await _offer(row, person, tuple(prompts), buttons)
    for prompt, extra in more:
        await _offer(row, person, (prompt,), extra)
    return bool(buttons) and asked is not None


async def _more_keyboard(row: GameRecord, game: Game, p: Player, spec: ActionSpec,
                         named: bool, nth: int = 0) -> tuple[Part, list[StoredButton]] | None:
    """An action that names a role (every role it may name) or two players (the players who
    can come first: some second one makes a valid choice with them; pressing one offers the
    second, `second_pick`): its prompt and buttons, the players' labelled "action: name" when
    they share a message with other buttons (`named`)."""
    action = Ref(RefKind.ACTION, spec.id)
    if spec.takes_role:
        roles = [await button(row, p.pid, NameLabel(Ref(RefKind.ROLE, role_id)),
                              ActOn(spec.id, (), role_id))
                 for role_id in game.ruleset.roles
                 if game.check(Act(p.pid, spec.id, (), None, role_id)) is None]
        return (part(voiced(row, game, Voiced.PICK_ROLE, p.pid, nth), action=action,
                     command=spec.id), roles) if roles else None
    players = list(game.state.players)
    firsts = []
    for first in players:
        if any(game.check(Act(p.pid, spec.id, (first, second))) is None
               for second in players if second != first):
            name = Ref(RefKind.PLAYER, first)
            label: Label = NameLabel(name) if not named else TextLabel(
                texts.ACTION_ON, encode({"action": action, "name": name}))
            firsts.append(await button(row, p.pid, label, PickFirst(spec.id, first)))
    return (part(voiced(row, game, Voiced.PICK_FIRST, p.pid, nth, spec.id), action=action,
                 command=spec.id), firsts) if firsts else None


async def second_pick(row: GameRecord, game: Game, pid: PlayerId, action: ActionId, first: PlayerId,
                      person: Identity) -> None:
    """The first target was pressed: the valid second ones, as a keyboard of their own (a
    first target pressed again, another or the same, edits it: one keyboard per action)."""
    buttons = [await button(row, pid, NameLabel(Ref(RefKind.PLAYER, second)),
                            ActOn(action, (first, second)))
               for second in game.state.players
               if second != first and game.check(Act(pid, action, (first, second))) is None]
    if not buttons:
        raise Reply(texts.PICK_NONE)
    prompt = part(voiced(row, game, Voiced.PICK_NEXT, pid, action=action),
                  action=Ref(RefKind.ACTION, action),
                  name=Ref(RefKind.PLAYER, first))
    key = _second_key(row, person, action)
    earlier = await Prompt.get_or_none(game_id=row.id, window=row.window,
                                       identity_id=person.id, message_key=key)
    if earlier is None:
        await _offer(row, person, (prompt,), buttons, key)
        return
    await outbox.to_person(person, KeyboardPayload((prompt,), tuple(buttons),
                                                   earlier.message_key, urgent=True,
                                                   asks=person.id, window=row.window), game=row)
    earlier.payload = prompt.to_json()
    await earlier.save(update_fields=["payload"])


def _second_key(row: GameRecord, person: Identity, action: ActionId) -> str:
    """The message key of the keyboard of second targets offered to `person` for `action`
    in this window: found again by its key, never by its words."""
    return f"second-{row.id}-{row.window}-{person.id}-{action}"


async def _offer(row: GameRecord, person: Identity, prompts: tuple[Part, ...],
                 buttons: list[StoredButton], replace: str | None = None) -> None:
    """A private keyboard of this window, remembered so that it closes with the window."""
    if replace is None:
        offered = await Prompt.filter(game_id=row.id, window=row.window).count()
        replace = f"choices-{row.id}-{row.window}-{offered}"
    await outbox.to_person(person, KeyboardPayload(prompts, tuple(buttons), replace,
                                                   urgent=True, asks=person.id,
                                                   window=row.window), game=row)
    stored = prompts[0].to_json() if len(prompts) == 1 else {
        "parts": [prompt.to_json() for prompt in prompts]}
    await Prompt.create(game=row, window=row.window, identity=person, message_key=replace,
                        payload=stored)


def prompt_parts(stored: Mapping[str, Any]) -> tuple[Part, ...]:
    """A stored keyboard's texts, without its buttons: one prompt, or several where the
    window's keyboards for a player went out as one message (`{"parts": [...]}`)."""
    if "parts" in stored:
        return tuple(Part.from_json(prompt) for prompt in stored["parts"])
    return (Part.from_json(stored),)


async def show_choice(row: GameRecord, game: Game, person: Identity, pid: str, token: str,
                      command: ActOn) -> None:
    """A button pressed on a private keyboard: the keyboard's own message is edited to
    say, once, what is chosen now (its buttons stay: the choice may change until the phase
    closes, which a line of its own says; the window's close keeps the choice without it)."""
    for entry in await Prompt.filter(game_id=row.id, window=row.window,
                                     identity_id=person.id).order_by("id"):
        version = await outbox.newest_version(row.id, entry.message_key,
                                              identity_id=person.id)
        buttons = outbox.offered_buttons(version)
        if not any(b.token == token for b in buttons):
            continue
        chosen = choice_part(row, game, pid, command)
        prompts = prompt_parts(entry.payload)
        await outbox.to_person(person, KeyboardPayload(
            (*prompts, chosen, replace(part(voiced(row, game, Voiced.CHOICE_OPEN, pid)),
                                       line=True)), buttons,
            entry.message_key, window=row.window), game=row)
        entry.payload = {"parts": [p.to_json() for p in prompts], CHOSEN: chosen.to_json()}
        await entry.save(update_fields=["payload"])
        return


#: a stored keyboard's choice made by its buttons (see `show_choice`); None: a choice typed
#: instead (its confirmation was a message of its own, see games/after/noted.py)
CHOSEN = "chosen"


async def note_typed_choice(row: GameRecord, person: Identity) -> None:
    """A choice of this window typed as a command: the player's keyboards close without
    saying that the choice is closed (he was just told what he chose)."""
    entry = await Prompt.filter(game_id=row.id, window=row.window,
                                identity_id=person.id).order_by("-id").first()
    if entry is not None and CHOSEN not in entry.payload:
        entry.payload = {"parts": [p.to_json() for p in prompt_parts(entry.payload)],
                         CHOSEN: None}
        await entry.save(update_fields=["payload"])


async def close_keyboards(row: GameRecord) -> None:
    """The window has closed: each private keyboard it offered is edited into its last
    version, without buttons (a press would only be answered as stale), with the choice made
    on it; the last one of a player who chose nothing on them says that the choice is
    closed, once."""
    offered = await Prompt.filter(game_id=row.id, window=row.window).order_by(
        "id").prefetch_related("identity")
    last = {entry.identity_id: entry.id for entry in offered}
    chose = {entry.identity_id for entry in offered if CHOSEN in entry.payload}
    voice = load_ruleset(row.ruleset).voice
    for entry in offered:
        chosen = entry.payload.get(CHOSEN)
        closing = (part(voiced_in_window(row, voice, Voiced.CHOICES_CLOSED, row.window,
                                         entry.identity_id)),) \
            if last[entry.identity_id] == entry.id and entry.identity_id not in chose else ()
        kept = () if chosen is None else (Part.from_json(chosen),)
        await outbox.to_person(entry.identity, KeyboardPayload(
            (*prompt_parts(entry.payload), *kept, *closing), (), entry.message_key,
            window=row.window), game=row)
    await Prompt.filter(game_id=row.id, window=row.window).delete()


def choice_part(row: GameRecord, game: Game, pid: str, command: ActOn) -> Part:
    """The pressed choice in the game's voice: the action with its target (a player, both
    players of a two-name action, a role), never a bare name (which reads as if the player
    were addressing that player)."""
    text = chosen_text(row, game, pid, command)
    return Part(text.key, params=encode(text.params))


def chosen_text(row: GameRecord, game: Game, pid: str, command: ActOn | Act) -> Text:
    """A choice (pressed or typed) in the game's voice: which text says it, with the
    action and its target (a player, both of a two-name action, a role)."""
    action = Ref(RefKind.ACTION, command.action)
    params: dict[str, Param]
    if command.action == PASS:
        prompt, params = Voiced.CHOICE_PASS, {}
    elif len(command.targets) == 2:
        first, second = command.targets
        prompt, params = Voiced.CHOICE_PAIR, {"action": action, "first": Ref(RefKind.PLAYER, first),
                                              "second": Ref(RefKind.PLAYER, second)}
    elif command.targets:
        prompt, params = Voiced.CHOICE_ACTION_ON, {
            "action": action, "name": Ref(RefKind.PLAYER, command.targets[0])}
    elif command.role is not None:
        prompt, params = Voiced.CHOICE_ACTION_ON, {"action": action,
                                                   "name": Ref(RefKind.ROLE, command.role)}
    else:
        prompt, params = Voiced.CHOICE_ACTION, {"action": action}
    pair = command.action if prompt is Voiced.CHOICE_PAIR else None
    return Text(voiced(row, game, prompt, pid, action=pair), params)

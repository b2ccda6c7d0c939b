"""Keyboards for every kind of choice, on every platform the same: an action with two targets
is chosen in two steps (the first player, then the second), an action that names a role from
a keyboard of roles (in one message with the player's other choices of the window), and the
group's ballot loses its buttons when its vote is closed, showing the count that decided;
private keyboards close with their window too."""

from __future__ import annotations

from core.service.messages import texts
from core.service.messages.outbox import stored
from core.service.messages.payloads import KeyboardPayload, part
from core.storage.models import Outbox, Prompt
from rulesets.changelings.voice import OWN

from .helpers import log_size, open_chat, started_changelings, the_game, voiced

ROLES = "liar,changeling,researcher,love_poison,pony,pony,pony"  # Bob liar, Gus love poison


async def night_one(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat, ROLES)
    lines = await chat("Ann: [Bob]", "Bob: [Bob]", ":wait 5m")
    return chat, lines


async def submissions(chat) -> dict:
    game = await chat.session.service.games.load(await the_game())
    return {(game.state.players[actor].name, action): (
        tuple(game.state.players[t].name for t in sub.targets), sub.role)
        for (actor, action), sub in game.state.subs.items()}


async def test_two_targets_are_chosen_one_after_the_other(db_url):
    chat, lines = await night_one(db_url)
    first = lines.index("[to Gus] buttons: [Ann] [Bob] [Cid] [Dot] [Eve] [Fay] [Gus]")
    assert lines[first - 1].removeprefix("[to Gus] ") in voiced(
        "PICK_FIRST", action="Love spell", command="love")
    before = await log_size()
    second = await chat("Gus> [Ann]")
    # the second keyboard names the first player: no notice says it besides
    assert second[0].removeprefix("[to Gus] ") in voiced(
        "PICK_NEXT", action="Love spell", name="Ann")
    assert second[1:] == ["[to Gus] buttons: [Bob] [Cid] [Dot] [Eve] [Fay] [Gus]"]
    assert await log_size() == before  # the first step changes nothing in the game
    chosen = await chat("Gus> [Cid]")
    # the keyboard names both players chosen, though its button named only the second; it
    # is the one confirmation (no notice)
    assert chosen[0].removeprefix("[to Gus] ") in voiced(
        "CHOICE_PAIR", action="Love spell", first="Ann", second="Cid")
    assert chosen[1].removeprefix("[to Gus] ") in voiced("CHOICE_OPEN")
    assert len(chosen) == 2
    assert (await submissions(chat))[("Gus", "love")] == (("Ann", "Cid"), None)


async def test_a_first_target_pressed_again_edits_the_second_keyboard(db_url):
    """Changing the first player offers the second ones in the same keyboard (edited),
    not in a new one each time."""
    chat, _ = await night_one(db_url)
    keyboards = chat.session.adapter.keyboards
    first = keyboards["Gus"]
    await chat("Gus> [Ann]")
    keyboards["Gus"] = first  # Gus presses the first step's keyboard again
    again = await chat("Gus> [Bob]")
    assert any(line.removeprefix("[to Gus] ") in voiced(
        "PICK_NEXT", action="Love spell", name="Bob") for line in again)
    offered = await Prompt.filter(identity__name="Gus").count()
    assert offered == 2  # the first step's keyboard and one for the second"


async def test_a_role_is_named_from_a_keyboard_of_roles(db_url):
    chat, lines = await night_one(db_url)
    prompt = next(i for i, line in enumerate(lines) if line.removeprefix("[to Bob] ") in
                  voiced("PICK_ROLE", action="Fake a role", command="fake"))
    # the liar's changeling choices and the roles he may fake come in one message, under
    # both prompts: a window's keyboards for one player are merged while they fit
    buttons = lines[prompt + 1]
    assert buttons.startswith("[to Bob] buttons: [Abduct: Ann] [Abduct: Cid]")
    assert "[Researcher] [Anti-Hate-Shield]" in buttons and buttons.endswith("[Pass]")
    chosen = await chat("Bob> [Researcher]")
    assert chosen[0].removeprefix("[to Bob] ") in voiced(
        "CHOICE_ACTION_ON", action="Fake a role", name="Researcher")
    assert not [line for line in chosen if line.startswith("[notice to")]
    assert (await submissions(chat))[("Bob", "fake")] == ((), "researcher")


async def test_a_stale_first_step_is_refused_and_changes_nothing(db_url):
    chat, _ = await night_one(db_url)
    keyboards = chat.session.adapter.keyboards
    dusk = keyboards["Gus"]
    await chat(":wait 5m")  # dusk is over: the first-step buttons are stale
    keyboards["Gus"] = dusk  # Gus presses a button of the dusk's message
    before = await log_size()
    assert "[notice to Gus] This button is from an earlier phase and no longer works." in \
        await chat("Gus> [Ann]")
    assert await log_size() == before


async def test_a_closed_ballot_loses_its_buttons_and_shows_the_deciding_count(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat, ROLES)
    lines = await chat("Ann: [Bob]", "Bob: [Bob]", "Cid: [Ann]", ":wait 5m")
    closed = lines.index("[group] The vote is closed.")
    assert lines[closed + 1] == "[group] Final count: Bob (2), Ann (1)."
    assert lines[closed + 2] == ("[group] That is the game's official count. Votes by button "
                                 "and by /vote NAME count alike, and only each player's last "
                                 "vote.")  # the console's words (a Matrix poll's differ)
    assert lines[closed + 3] in {f"[group] {text.format(name='Bob')}"  # the result comes after
                                 for text in OWN["NEW_MAYOR"]}
    assert "[group] buttons:" not in " ".join(lines[closed:closed + 4])


async def test_private_keyboards_close_with_their_window(db_url):
    """Each private keyboard is edited, when its window closes, into a version without
    buttons, so nobody presses a button that can only be stale; the last one of each player
    says so, once (not once per keyboard)."""
    chat, _ = await night_one(db_url)
    second = await chat("Gus> [Ann]")  # a second-step keyboard, offered on a press
    assert "[to Gus] buttons: [Bob] [Cid] [Dot] [Eve] [Fay] [Gus]" in second
    lines = await chat(":wait 5m")  # the dusk is over
    assert lines.count("[to Gus] This choice is closed.") == 1
    closed = lines.index("[to Gus] This choice is closed.")
    assert not [line for line in lines[:closed + 2] if line.startswith("[to Gus] buttons:")]
    rows = await Outbox.filter(private=True).order_by("id")
    dusk = (await the_game()).window - 1  # the window that closed
    keyboards = [(row.identity_id, stored(row)) for row in rows]
    offered = {p.replace for _, p in keyboards if isinstance(p, KeyboardPayload)
               and p.buttons and (p.replace or "").startswith((f"choices-1-{dusk}-",
                                                                   f"second-1-{dusk}-"))}
    last = {p.replace: (who, p) for who, p in keyboards
            if isinstance(p, KeyboardPayload) and p.replace in offered}  # the newest versions
    assert offered and all(not p.buttons for _, p in last.values())
    saying = [who for who, p in last.values() if p.parts[-1] == part(texts.CHOICES_CLOSED)]
    assert sorted(saying) == sorted({who for who, _ in last.values()})


async def test_a_choice_is_confirmed_once_and_kept_when_its_window_closes(db_url):
    """A pressed choice is said once, on its keyboard: the action and its target, and that
    it may still change; when the window closes, the keyboard keeps the choice without the
    "may change" line, and says no "this choice is closed" besides."""
    chat, _ = await night_one(db_url)
    chosen = await chat("Cid> [Ann]")
    assert chosen[0].removeprefix("[to Cid] ") in voiced(
        "CHOICE_ACTION_ON", action="Check", name="Ann")
    assert chosen[1].removeprefix("[to Cid] ") in voiced("CHOICE_OPEN")
    assert len(chosen) == 2  # no notice
    lines = await chat(":wait 5m")  # the dusk is over
    assert not [line for line in lines if line.startswith("[to Cid]")
                and line.removeprefix("[to Cid] ") == texts.CHOICES_CLOSED]
    dusk = (await the_game()).window - 1
    rows = [stored(row) for row in await Outbox.filter(
        private=True, identity__name="Cid").order_by("id")]
    final = [p for p in rows if isinstance(p, KeyboardPayload)
             and (p.replace or "").startswith(f"choices-1-{dusk}-")][-1]
    assert not final.buttons and len(final.parts) == 2  # the prompt and the choice
    assert final.parts[-1].key in voiced("CHOICE_ACTION_ON", action="{action}",
                                         name="{name}")


async def test_a_choice_that_closes_its_window_is_said_once_as_done(db_url):
    """The last choice of a window closes it at once: its notice says what was chosen,
    without "you can still change it"."""
    chat, _ = await night_one(db_url)
    await chat("Gus> [Ann]", "Gus> [Cid]", "Bob> [Pass]", "Cid> [Ann]")
    lines = await chat("Dot> [Pass]")
    notices = [line for line in lines if line.startswith("[notice to Dot]")]
    assert [n.removeprefix("[notice to Dot] ") for n in notices] in [
        [text] for text in voiced("CHOICE_PASS")]
    assert not [line for line in lines if line.startswith("[to Dot]")
                and line.removeprefix("[to Dot] ") in voiced("CHOICE_OPEN")]

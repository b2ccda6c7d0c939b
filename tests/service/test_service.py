"""The service over real databases: lobby, commands applied once, bad input answered without
change, restarts that replay and check the snapshot, deadlines that fire once, in order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.service import ChatRef, Command, Incoming, UserRef
from core.service.rows.game_rows import StateMismatch
from core.storage.models import Deadline, GameRecord, LogEntry, Outbox, Seat
from rulesets.changelings.flavour import REMOVED
from rulesets.changelings.vocabulary import Cause
from rulesets.changelings.voice import OWN
from tests.role_cards import has_role_card, is_role_card

from .helpers import PLAYERS, log_size, open_chat, started_changelings, the_game, voiced


async def roles_by_name(chat) -> dict[str, str]:
    row = await the_game()
    game = await chat.session.service.games.load(row)
    return {p.name: p.role for p in game.state.players.values()}


async def test_lobby_start_deals_roles_and_opens_the_election(db_url):
    chat = await open_chat(db_url)
    lines = await started_changelings(chat)
    assert any("Day 1" in line for line in lines)
    roles = await roles_by_name(chat)
    assert sorted(roles.values()) == sorted(["changeling", "changeling", "researcher", "shield",
                                             "pony", "pony", "pony"])
    for name in PLAYERS:
        assert any(is_role_card(line.removeprefix(f"[to {name}] ")) for line in lines)
    row = await the_game()
    assert row.status == "running"
    assert await Deadline.filter(game_id=row.id, kind="close", state="pending").count() == 1


async def test_one_game_per_group_and_one_game_per_player(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame")
    assert "[to Bob] A game is already running in this chat." in await chat("Bob: /newgame")
    assert await GameRecord.all().count() == 1
    assert "[to Ann] You have already joined." in await chat("Ann: /join")


async def test_too_few_players_and_non_hosts_are_refused(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame", "Bob: /join")
    assert "[to Bob] Only the host can do that." in await chat("Bob: /startgame")
    lines = await chat("Ann: /startgame")
    assert "[to Ann] Not enough players yet: 2 joined, 6 needed." in lines
    assert (await the_game()).status == "lobby"


async def test_a_duplicate_update_is_applied_once(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    service = chat.session.service
    vote = Incoming(platform="console", update_id="tg-42", user=UserRef("ann"),
                    user_name="Ann", text="/vote Bob", chat=ChatRef("group"),
                    command=Command("vote", "Bob"))
    await service.handle(vote)
    before = await log_size()
    await service.handle(vote)
    assert await log_size() == before


async def test_bad_input_gets_an_answer_and_changes_nothing(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    roles = await roles_by_name(chat)
    researcher = next(n for n, r in roles.items() if r == "researcher")
    before = await log_size()
    answers = await chat(
        "Ann: /dance",                                # unknown command
        f"{researcher}> /check Bob",                   # a night action by day
        "Zed: [Bob]",                                 # a stranger presses a button
        "Ann: /vote Xavier",                          # a name that matches nobody
        "Ann: /vote",                                 # no name at all
        "Bob: /modkill Ann",                          # host power by a non-host
        "Ann> [Bob]",                                 # a button that was never offered
    )
    assert await log_size() == before
    assert "[to Ann] I don't know the command /dance. Try /help." in answers
    assert any(line.startswith(f"[to {researcher}] You cannot use") for line in answers)
    assert "[notice to Zed] You are not playing in this game." in answers
    assert "[to Ann] Nobody in this game is called Xavier." in answers
    assert "[to Ann] Please name a player." in answers
    assert "[to Bob] Only the host can do that." in answers
    assert "[notice to Ann] This button is not valid." in answers


async def test_an_ambiguous_name_is_refused_with_the_candidates(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame", "Anna: /join", *(f"{p}: /join" for p in PLAYERS[1:]))
    await chat("Ann: /startgame")
    before = await log_size()
    lines = await chat("Bob: /vote An")
    assert "[to Bob] “An” matches several players: Ann and Anna. Please write the full name." \
        in lines
    assert await log_size() == before
    assert "Votes so far: Ann (1)." in " ".join(await chat("Bob: /vote ann"))


async def test_a_stale_keyboard_from_an_earlier_phase_is_refused(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: [Bob]", ":wait 3m")  # the election closes; the night begins
    before = await log_size()
    lines = await chat("Cid: [Bob]")  # the election's keyboard, pressed at night
    assert await log_size() == before
    assert "[notice to Cid] This button is from an earlier phase and no longer works." in lines


async def test_restart_replays_the_log_and_checks_the_snapshot(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: /vote Bob", "Cid: /vote Bob")
    await chat(":restart")
    lines = await chat("Dot: /vote Bob")
    assert "[group] Votes so far: Bob (3)." in lines
    row = await the_game()
    row.snapshot = {"tampered": True}
    await row.save()
    chat.session.service.games.forget(row.id)
    with pytest.raises(StateMismatch):
        await chat.session.service.games.load(row)


async def test_after_an_upgrade_a_game_goes_on_from_its_log(db_url):
    """A snapshot written by other code (an older release) may differ from the replay: the
    log of what the players did is the truth, the game goes on, and the next command stores
    a snapshot of this code."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: /vote Bob", "Cid: /vote Bob")
    row = await the_game()
    assert row.build is not None
    row.snapshot = {"written by": "an older release"}
    row.build = "0ld"
    await row.save()
    chat.session.service.games.forget(row.id)
    lines = await chat("Dot: /vote Bob")
    assert "[group] Votes so far: Bob (3)." in lines
    row = await the_game()
    assert row.build != "0ld" and "players" in row.snapshot


async def test_overdue_deadlines_fire_once_in_order_after_a_restart(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: /vote Bob")
    await chat.session.stop()
    await chat.session.start()
    chat.session.clock.advance(3 * 3600)  # the service comes back hours later
    await chat.session.pump()
    await chat.session.pump()  # nothing fires twice
    closes = [e.command for e in await LogEntry.all().order_by("seq")
              if e.command["type"] == "Close"]
    fired = await Deadline.filter(kind="close", state="fired").order_by("id")
    assert len(closes) == len(fired) == 1  # the election's; the night's are not yet due
    assert closes[0]["at"] == fired[0].due_at
    assert (await the_game()).window == 2


async def test_private_text_is_the_changelings_team_chat(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    roles = await roles_by_name(chat)
    first, second = [n for n, r in roles.items() if r == "changeling"]
    lines = await chat(f"{first}> meet at the library")
    assert lines == [f"[to {second}] {first} whispers: meet at the library"]
    pony = next(n for n, r in roles.items() if r == "pony")
    assert await chat(f"{pony}> hello?") == [
        f"[to {pony}] Only the changelings have a team chat."]


async def test_host_pause_stops_the_clock_and_resume_restarts_it(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: /pause")
    assert await Deadline.filter(state="pending").count() == 0
    await chat(":wait 2h")
    assert str((await chat.session.service.games.load(await the_game())).state.phase) \
        == "day 1 election"
    assert "[to Bob] The game is paused." in await chat("Bob: /vote Ann")
    assert await chat("Bob: anyone there?") == []  # chatter is never answered
    await chat("Ann: /resume", "Ann: /extend 10")
    pending = await Deadline.get(kind="close", state="pending")
    assert pending.due_at - chat.session.clock.now() == pytest.approx(180 + 600)


async def test_replace_moves_the_seat_to_a_new_account(db_url):
    """The newcomer gets the seat, the role card and all the seat was told; a name nobody
    answers to is refused (the seat would reach nobody)."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    assert "I don't know who Zoe is" in " ".join(await chat("Ann: /replace Gus Zoe"))
    await chat("Zoe> hello")  # Zoe has written to the bot: it knows her now
    lines = await chat("Ann: /replace Gus Zoe")
    seat = await Seat.get(pid="p7", active=True).prefetch_related("identity")
    assert seat.identity.name == "Zoe"
    told = " ".join(line for line in lines if line.startswith("[to Zoe]"))
    assert "You take over this seat" in told and has_role_card(told)
    assert "You take over a seat in this game." in told
    assert not any(line.startswith("[to Gus] You take over") for line in lines)
    assert "[group] Votes so far: Ann (1)." in await chat("Zoe: /vote Ann")


async def test_group_messages_are_rendered_in_the_groups_language(db_url):
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", "Ann: /language de")
    row = await Outbox.all().order_by("-id").first()
    assert row.status == "sent"


async def test_bad_input_is_answered_in_the_chats_language(db_url):
    chat = await open_chat(db_url, locale="de")
    await started_changelings(chat)
    before = await log_size()
    answers = await chat("Zed: [Bob]", "Ann: /vote Xavier", "Ann: /dance")
    assert await log_size() == before
    assert not any("You are not" in line or "Nobody" in line or "know" in line
                   for line in answers), answers
    assert len(answers) == 3


async def test_a_closing_that_leaves_someone_a_reaction_opens_a_window_with_its_deadline(db_url):
    """The banished mayor names a successor after the reactions window closed: that is a new
    window, with its own prompt and deadline (it once had neither, and the game stood still)."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat(*(f"{p}: /vote Ann" for p in PLAYERS))  # Ann is elected mayor
    await chat(":wait 3m")  # the night passes
    await chat(*(f"{p}: /vote Ann" for p in PLAYERS[1:]))
    lines = await chat(":wait 5m")  # the vote and its reactions close: Ann is banished
    assert {f"[to Ann] {text}" for text in OWN["SUCCESSOR"]} & set(lines), lines
    assert any(line.startswith("[to Ann] buttons: [Bob]") for line in lines), lines
    row = await the_game()
    assert await Deadline.filter(game_id=row.id, kind="close", state="pending").count() == 1
    lines = await chat(":wait 1m")  # she names nobody: the deadline decides
    announced = [re.escape(f"[group] {text}").replace(re.escape("{name}"), r"\w+")
                 for text in OWN["NEW_MAYOR"]]
    assert any(re.fullmatch(pattern, line) for pattern in announced for line in lines), lines


async def test_the_alchemists_ballot_offers_the_early_vote_from_day_3(db_url):
    chat = await open_chat(db_url, seed=11)
    script = (Path(__file__).resolve().parent.parent / "e2e" / "scripts" /
              "alchemists_full_game.play").read_text(encoding="utf-8").splitlines()
    day3 = script.index("# Day 3: lust is executed, the State Alchemists win")
    lines = []
    for line in script[:day3]:
        lines += await chat(line) if line and not line.startswith("#") else []
    ballots = [line for line in lines if line.startswith("[group] buttons:")]
    assert "[My vote is early]" not in ballots[0]  # day 1: no early votes yet
    assert "[My vote is early]" in ballots[-1]  # day 3
    before = await log_size()
    assert "[notice to Ann] Vote first, then mark your vote as early." in \
        await chat("Ann: [My vote is early]")
    assert await log_size() == before
    await chat("Ann: /vote Cid")
    noted = {f"[notice to Ann] {text}" for text in voiced("PROMPT_TAKEN", "alchemists")}
    assert noted & set(await chat("Ann: [My vote is early]"))  # in the alchemists' voice
    assert await log_size() == before + 2


@pytest.mark.parametrize(("host_sets", "hours"),
                         [((), 24), (("Ann: /option inactivity_hours 0",), 0)])
async def test_the_forum_pace_turns_inactivity_on_unless_the_host_chose(db_url, host_sets, hours):
    """CH-INACT: `inactivity_hours` is 24 by default in the `forum` pace (off in `quick`);
    the host's own /option wins."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /pace forum", *host_sets)
    await chat("Ann: /startgame")
    game = await chat.session.service.games.load(await the_game())
    assert game.state.options["inactivity_hours"] == hours


REMINDERS = [re.compile(re.escape(text).replace("LEFT", ".+") + "$")
             for name in ("REMIND_VOTE", "REMIND_CHOICE") for text in voiced(name, left="LEFT")]


def reminded(lines: list[str]) -> dict[str, str]:
    return {line[len("[to "):line.index("]")]: line[line.index("]") + 2:]
            for line in lines if line.startswith("[to ")
            and any(r.match(line[line.index("]") + 2:]) for r in REMINDERS)}


async def test_who_the_window_still_waits_for_is_reminded_once_before_it_closes(db_url):
    """A quarter of the window before its deadline, each player it still waits for is told
    privately how long is left: the non-voters in a vote, the silent actors at night."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    lines = await chat("Ann: [Bob]", "Bob: [Bob]", ":wait 140s")  # the election lasts 180 s
    told = reminded(lines)
    assert set(told) == {name for name in PLAYERS if name not in ("Ann", "Bob")}
    assert set(told.values()) <= voiced("REMIND_VOTE", left="40 seconds")
    assert not reminded(await chat(":wait 30s"))  # once per window
    await chat(":wait 20s")  # the election closes: the dusk (90 s) begins
    roles = await roles_by_name(chat)
    actor = next(name for name, role in roles.items() if role == "researcher")
    target = next(name for name in PLAYERS if name != actor)
    await chat(f"{actor}> [{target}]")
    lines = await chat(":wait 70s")
    told = reminded(lines)
    assert set(told) == {name for name, role in roles.items()
                         if role in ("changeling", "shield")}
    assert set(told.values()) <= voiced("REMIND_CHOICE", left="20 seconds")


async def test_a_paused_window_reminds_nobody_and_resuming_schedules_it_again(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: /pause")
    assert not reminded(await chat(":wait 1h"))
    await chat("Ann: /resume")  # 180 s were left: the reminder comes 45 s before the end
    assert not reminded(await chat(":wait 130s"))
    assert reminded(await chat(":wait 10s"))


async def test_a_failing_deadline_does_not_hold_up_the_others(db_url, monkeypatch):
    """Failure injection. The reminder before the election's close cannot be handled: the
    close, due later, still fires, and the error is raised after it. Then the dusk's close
    fails once: it is not retried at once, but after a pause, and then the night goes on."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    service = chat.session.service
    real_fire = service.games.fire
    broken = {"remind"}

    async def failing(row, deadline):
        if deadline.kind in broken:
            raise RuntimeError("injected")
        return await real_fire(row, deadline)

    monkeypatch.setattr(service.games, "fire", failing)
    chat.session.clock.advance(200)  # both the reminder (135 s) and the close (180 s) are due
    with pytest.raises(RuntimeError, match="injected"):
        await service.fire_due_deadlines()
    assert str((await service.games.load(await the_game())).state.phase) == "night 1 dusk"

    broken.clear()
    broken.add("close")  # now the dusk's close fails
    chat.session.clock.advance(100)
    with pytest.raises(RuntimeError, match="injected"):
        await service.fire_due_deadlines()
    broken.clear()
    assert await service.fire_due_deadlines() == 0  # not tried again at once
    chat.session.clock.advance(31)
    assert await service.fire_due_deadlines() == 1
    # the dusk closed (and the dawn at once: nobody here acts at dawn)
    assert str((await service.games.load(await the_game())).state.phase) == "day 2 vote"


async def test_a_forum_game_begun_today_marks_nobody_inactive_who_acts_daily(db_url):
    """CH-INACT with a clock that starts at today's date, not at zero: a player's clock
    starts when the game begins, so whoever writes at least once a day is never inactive
    (it once marked everybody who had not yet written inactive at the first night)."""
    import time

    chat = await open_chat(db_url)
    chat.session.clock.current = time.time()
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /pace forum")
    await chat("Ann: /startgame")
    for _ in range(24):  # nobody has written yet when the first night falls
        game = await chat.session.service.games.load(await the_game())
        if game.state.phase.kind != "day":
            break
        await chat(":wait 1h")
    assert game.state.phase.kind == "night"
    assert not [p.name for p in game.state.players.values() if "inactive" in p.statuses]
    for _ in range(8):  # four days and nights; everybody writes once a day
        await chat(*(f"{p}: good morning, Ponyville" for p in PLAYERS), ":wait 12h",
                   ":wait 12h")
        game = await chat.session.service.games.load(await the_game())
        assert not [p.name for p in game.state.players.values() if "inactive" in p.statuses]
        if game.state.phase.kind == "ended":
            break
    assert not any("inactive too long" in line for line in chat.all())


async def test_a_forum_game_marks_inactive_who_stays_silent_for_a_day(db_url):
    """CH-INACT still bites: one who never writes is marked at the first night after a full
    day of silence, counted from the start of the game."""
    import time

    chat = await open_chat(db_url)
    chat.session.clock.current = time.time()
    await chat("Ann: /newgame changelings", *(f"{p}: /join" for p in PLAYERS[1:]),
               "Ann: /option random_lovers false", "Ann: /pace forum")
    await chat("Ann: /startgame")
    for _ in range(8):
        await chat(*(f"{p}: hello" for p in PLAYERS if p != "Gus"), ":wait 12h")
        if any("Gus has been inactive too long" in line for line in chat.all()):
            break
    assert any("Gus has been inactive too long" in line for line in chat.all())
    assert not any("Ann has been inactive" in line for line in chat.all())


async def test_roles_outside_a_game_are_named_not_listed_as_ids(db_url):
    """/roles before any /newgame once printed raw role ids ("drama_queen")."""
    chat = await open_chat(db_url)
    lines = await chat("Ann: /roles")
    text = " ".join(lines)
    assert "drama_queen" not in text and "pinkie_sense" not in text
    assert "Drama Queen" in text or "Drama queen" in text


async def test_a_game_without_special_roles_says_so_instead_of_a_bare_dot(db_url):
    chat = await open_chat(db_url)
    lines = await started_changelings(chat, "changeling,changeling,pony,pony,pony,pony,pony")
    opening = next(line for line in lines if "A new game of Changelings" in line)
    assert "no special roles" in opening and ": ." not in opening


async def test_settings_a_host_can_see_and_that_are_checked_when_set(db_url):
    """/option alone lists every option with its value and what it does; a value is checked
    when it is set, naming the allowed ones; /setroles takes role names in the bot's
    languages and alone shows the list; the lobby's /status shows what differs."""
    chat = await open_chat(db_url)
    await chat("Ann: /newgame alchemists", *(f"{p}: /join" for p in PLAYERS[1:]))
    listing = " ".join(await chat("Ann: /option"))
    assert ("/option stone_backfire — the Stone's backfire: random. Possible: random, always "
            "or never") in listing
    assert "/option missed_vote_votes — votes for a missed vote: 2." in listing
    refused = " ".join(await chat("Ann: /option stone_backfire иногда"))
    assert "takes one of: random, always, or never" in refused
    await chat("Ann: /option stone_backfire never")
    assert "the Stone's backfire: never." in " ".join(await chat("Ann: /option"))
    assert "dealt by the rules" in " ".join(await chat("Ann: /setroles"))
    await chat("Ann: /setroles Отец, lust, зависть, Pride, ishvalan, crimson, greed")
    shown = " ".join(await chat("Ann: /setroles"))
    assert "Father" in shown and "Envy" in shown
    status = " ".join(await chat("Ann: /status"))
    assert "Changed from the defaults: the Stone's backfire: never." in status
    assert "roles to deal: Father, Lust, Envy" in status


async def test_extend_stays_between_now_and_a_week(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    bounds = "The deadline can be extended by up to 10,080 minutes (7 days) or shortened by up to"
    assert bounds in " ".join(await chat("Ann: /extend 99999999"))
    assert bounds in " ".join(await chat("Ann: /extend -100"))
    accepted = " ".join(await chat("Ann: /extend 10"))
    assert "extended the deadline by 10 minutes" in accepted


async def test_the_game_begins_before_its_first_ballot(db_url):
    """"The game begins! Check your private messages" once came after the day-1 ballot."""
    chat = await open_chat(db_url)
    lines = [line for line in await started_changelings(chat) if line.startswith("[group]")]
    begins = next(i for i, line in enumerate(lines) if "The game begins" in line)
    ballot = next(i for i, line in enumerate(lines)
                  if line.removeprefix("[group] ") in voiced("VOTE_PROMPT"))
    assert begins < ballot


async def test_role_help_and_the_roles_in_play(db_url):
    """/role NAME explains a role in any language; /roles in a game lists those in play,
    one line each; /endgame reveals who was who."""
    chat = await open_chat(db_url)
    researcher = " ".join(await chat("Ann: /role Researcher"))
    # the group reads about the role in the third person; "You are …" is the dealt card
    assert ("Researcher (the ponies): Each night the Researcher checks one other player"
            in researcher)
    assert "Researcher" in " ".join(await chat("Ann: /role исследователь"))
    await started_changelings(chat)
    roles = [line for line in await chat("Ann: /roles") if line.startswith("[group]")]
    assert "The roles in this game:" in roles[0]
    assert "Anti-Hate-Shield" in " ".join(roles) and "Love Poison" not in " ".join(roles)
    await chat("Ann: /endgame")
    ended = " ".join(await chat("Ann> [End the game]"))
    assert "Who was who:" in ended and "Gus was" in ended


async def test_a_players_own_view_in_private(db_url):
    """Private /status: where the game is, what is still open for him, what he was told last;
    /myrole: his role card, his team and everything he has learned."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    status = " ".join(await chat("Cid> /status"))
    assert "Phase: Day 1 (mayor election). Time left: 3 minutes." in status
    assert "Your vote is still missing." in status
    assert "Your role and what I told you last" in status
    await chat("Cid: /vote Ann", ":wait 400s")  # the election closes: night falls
    status = " ".join(await chat("Cid> /status"))
    assert "Still open for you: Check" in status
    checked = " ".join(await chat("Cid> /check Ann"))
    # his typed choice is confirmed once, with its action and target
    chose = voiced("CHOICE_ACTION_ON", action="Check", name="Ann")
    assert sum(checked.count(noted) for noted in chose) == 1
    assert any(still in checked for still in voiced("CHOICE_OPEN"))
    myrole = " ".join(await chat("Cid> /myrole"))
    assert has_role_card(myrole) and "Researcher" in myrole
    # what he learned, not what he chose (the engine said which message noted his choice)
    assert not any(noted in myrole for noted in chose)


async def test_nextgame_tells_a_player_when_sign_up_opens(db_url):
    chat = await open_chat(db_url)
    assert "I will tell you here when the next game opens" in " ".join(
        await chat("Zed: /nextgame"))
    lines = await chat("Ann: /newgame alchemists")
    assert any(line.startswith("[to Zed] A new game of Alchemists opens") for line in lines)
    assert not any("[to Zed]" in line for line in await chat(
        "Ann: /endgame", "Ann> [End the game]", "Ann: /newgame"))


async def test_father_writes_to_one_homunculus_by_name(db_url):
    """Rules §8: father answers one named homunculus; "@Name message" names him."""
    chat = await open_chat(db_url)
    nine = (*PLAYERS, "Hal", "Ivy")
    await chat("Ann: /newgame alchemists", *(f"{p}: /join" for p in nine[1:]),
               "Ann: /setroles father,lust,envy,pride,ishvalan,crimson,greed,xing,crystal")
    started = await chat("Ann: /startgame")
    assert any("begins with nine players" in line for line in started), started
    game = await chat.session.service.games.load(await the_game())
    by_role = {p.role: p.name for p in game.state.players.values()}
    father, lust, envy = by_role["father"], by_role["lust"], by_role["envy"]
    asked = " ".join(await chat(f"{father}> who goes tonight?"))
    assert "Name the homunculus" in asked
    lines = await chat(f"{father}> @{lust} you go tonight")
    assert any(line.startswith(f"[to {lust}]") and "you go tonight" in line for line in lines)
    assert not any(line.startswith(f"[to {envy}]") for line in lines)


async def test_a_typed_choice_that_closes_the_window_is_confirmed_once(db_url):
    """The last night action, typed, closes the dusk: the player reads what he chose, once,
    without "you can still change it" and without "this choice is closed" after it."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Ann: /vote Cid", "Bob: /vote Cid", "Cid: /vote Cid", ":wait 400s")
    game = await chat.session.service.games.load(await the_game())
    by_role: dict[str, list[str]] = {}
    for p in game.state.players.values():
        by_role.setdefault(p.role, []).append(p.name)
    first, second = by_role["changeling"]
    victim = by_role["pony"][0]
    researcher = by_role["researcher"][0]
    await chat(f"{first}> /abduct {victim}", f"{second}> /abduct {victim}",
               f"{by_role['shield'][0]}> /shield {by_role['pony'][1]}")
    lines = [line.removeprefix(f"[to {researcher}] ")
             for line in await chat(f"{researcher}> /check {first}")
             if line.startswith(f"[to {researcher}]")]
    assert lines[0] in voiced("CHOICE_ACTION_ON", action="Check", name=first)
    assert not set(lines) & voiced("CHOICE_OPEN")
    assert "This choice is closed." not in lines


async def test_a_player_flees_after_confirming(db_url):
    """/flee asks first, privately; confirmed, the player leaves as a host's removal takes
    him out (no heartbreak, no reaction), the group is told, and the question turns into its
    answer. A second press, a press by someone else and /flee from the gone change nothing."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    asked = await chat("Cid: /flee")
    assert any(line.startswith("[to Cid] Do you really want to leave the game?")
               for line in asked), asked
    assert not any(line.startswith("[group]") for line in asked)
    assert "[Leave the game]" in " ".join(asked) and "[No, carry on]" in " ".join(asked)
    left = await chat("Cid> [Leave the game]")
    told = {f"[group] {text.format(name='Cid', role='the Researcher')}"
            for text in REMOVED[Cause.LEFT]}  # in whichever variant the game's bag drew
    assert told & set(left), left
    assert any("[to Cid]" in line and "You have left the game" in line for line in left)
    game = await chat.session.service.games.load(await the_game())
    cid = next(p for p in game.state.players.values() if p.name == "Cid")
    assert not cid.alive and cid.cause == "left"
    again = " ".join(await chat("Cid> [Leave the game]", "Cid> /flee"))
    assert "no longer in the game" in again or "no longer works" in again
    assert (await chat.session.service.games.load(await the_game())).state.removals == [
        (cid.pid, "left")]


async def test_a_player_may_think_again_before_fleeing(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Bob> /flee")
    kept = " ".join(await chat("Bob> [No, carry on]"))
    assert "nothing has changed" in kept
    game = await chat.session.service.games.load(await the_game())
    assert all(p.alive for p in game.state.players.values())


async def test_endgame_asks_the_host_first(db_url):
    """/endgame changes nothing until the host presses the button in his private chat; a
    player cannot press it for him."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    asked = await chat("Ann: /endgame")
    assert any(line.startswith("[to Ann] Do you really want to end the game now?")
               for line in asked), asked
    assert (await the_game()).status == "running"
    keyboards = chat.session.adapter.keyboards
    keyboards["Bob"] = keyboards["Ann"]  # Bob presses Ann's button (a forwarded token)
    assert "[notice to Bob] This button is not for you." in await chat("Bob> [End the game]")
    assert (await the_game()).status == "running"
    ended = await chat("Ann> [End the game]")
    assert any(line.startswith("[group] Ann ended the game.") for line in ended), ended
    assert (await the_game()).status == "cancelled"
    assert "no longer works" in " ".join(await chat("Ann> [End the game]"))


async def test_a_log_with_old_host_rows_still_replays_and_matches_its_snapshot(db_url):
    """A game stored before each host power had its own command: its `Host` rows replay to
    the same state, so the stored snapshot (of this build) is accepted."""
    chat = await open_chat(db_url)
    await started_changelings(chat)
    await chat("Zoe> hello", "Ann: /pause", "Ann: /resume", "Ann: /replace Gus Zoe",
               "Ann: /modkill Fay")
    rewritten = {"Pause": "pause", "Resume": "resume", "Replace": "replace", "Modkill": "modkill"}
    for entry in await LogEntry.all():
        command = entry.command
        if command["type"] in rewritten:
            entry.command = {"type": "Host", "command": rewritten[command["type"]],
                             "target": command.get("target", command.get("seat")),
                             "by": command.get("newcomer"), "minutes": 0, "text": None,
                             "at": command["at"], "extra": {}}
            await entry.save(update_fields=["command"])
    assert [e.command["type"] for e in await LogEntry.all()].count("Host") == 4
    row = await the_game()
    chat.session.service.games.forget(row.id)
    game = await chat.session.service.games.load(row)  # raises StateMismatch on a difference
    assert game.state.players["p7"].name == "Zoe"
    assert not game.state.players["p6"].alive

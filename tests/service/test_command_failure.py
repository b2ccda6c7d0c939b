"""A command whose handling raises (a bug, injected here) is rolled back whole, logged with its
update id, and answered with an apology in the person's language: never silence, never half a
change."""

from __future__ import annotations

from core.engine.game import Game

from .helpers import log_size, open_chat, started_changelings


async def test_a_failing_command_changes_nothing_and_is_answered_with_an_apology(
        db_url, monkeypatch, caplog):
    chat = await open_chat(db_url, locale="de")
    await started_changelings(chat)
    before = await log_size()

    def broken(self, command):  # failure injection: the engine raises mid-command
        raise RuntimeError("injected")

    monkeypatch.setattr(Game, "apply", broken)
    lines = await chat("Bob: /vote Cid")
    assert lines == ["[to Bob] Entschuldige, bei mir ist dabei etwas schiefgegangen: Es hat sich "
                     "nichts geändert. Versuch es bitte noch einmal; passiert es wieder, sag der "
                     "Spielleitung Bescheid."]
    assert await log_size() == before
    assert "could not be handled; nothing changed" in caplog.text
    assert "RuntimeError: injected" in caplog.text
    monkeypatch.undo()
    lines = await chat("Bob: /vote Cid")  # the game goes on as if it never happened
    assert not any("Entschuldige" in line for line in lines)
    assert await log_size() == before + 1


async def test_a_failing_button_press_gets_the_apology_as_its_notice(db_url, monkeypatch):
    chat = await open_chat(db_url, locale="ru")
    await started_changelings(chat)
    before = await log_size()
    monkeypatch.setattr(Game, "apply", lambda self, command: 1 / 0)
    lines = await chat("Bob: [Cid]")
    assert any("Прости, у меня что-то пошло не так" in line for line in lines), lines
    assert await log_size() == before

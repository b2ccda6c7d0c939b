"""The settings menu on Matrix against the real Synapse: `!config` sends the host the menu as
numbered options in his private room; he answers with numbers, and each change is the
lobby's command's. Nobody else may open it."""

from __future__ import annotations

from .harness import Table, choose_privately, open_table, options, private_prompt, sign_up


async def choose(table: Table, label: str) -> None:
    """The host answers the newest menu page with the number of the option `label`."""
    host = table.host
    page = private_prompt(host)
    assert page is not None
    number = next((n for n, shown in options(page) if shown == label), None)
    assert number is not None, (label, options(page))
    await choose_privately(host, page, number, label, "number")
    await table.settle()


async def test_the_numbered_menu_changes_settings_by_command(synapse, register, clients,
                                                             tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 3)
    try:
        await sign_up(table, "changelings", start=False)
        bob = table.players["Bob"]
        await bob.say(table.room, "!config")
        await table.settle()
        assert private_prompt(bob) is None or not any(
            label == "Options" for _, label in options(private_prompt(bob) or {}))
        await table.host.say(table.room, "!config")
        await table.settle()
        page = private_prompt(table.host)
        assert page is not None
        assert [label for _, label in options(page)] == [
            "✓ For this group from now on", "This game only", "Rule set", "Language", "Pace",
            "Time zone", "Timers", "Roles", "Options", "Close"]
        await choose(table, "Options")
        await choose(table, "random lovers: on")
        await choose(table, "off")
        row = await table.game_row()
        assert row is not None and row.settings["options"] == {"random_lovers": False}
        assert not row.settings.get("once")
        # this game only (issue 31): the change is made with --once, and the sign-up says so
        await choose(table, "« Back")
        await choose(table, "This game only")
        await choose(table, "Options")
        await choose(table, "early end of the night: on")
        await choose(table, "off")
        row = await table.game_row()
        assert row is not None and row.settings["once"] == ["early_close"]
        await choose(table, "« Back")
        await choose(table, "Roles")
        await choose(table, "+ Changeling")
        row = await table.game_row()
        assert row is not None and row.settings["roles"] == ["changeling"]
    finally:
        await table.stop()

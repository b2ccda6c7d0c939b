"""A dead player Telegram lets no bot restrict — a group admin (Bot API: "user is an
administrator of the chat"; the owner: "can't remove chat owner") — is not waited for as a
missing right: the host hears by name why he cannot be muted, in Telegram's words, and the
player is asked to keep silent; every other dead player is muted as ever."""

from __future__ import annotations

from .harness import open_table, sign_up


async def test_a_dead_admin_cannot_be_muted_and_the_host_hears_why(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 7)
    try:
        host, bob, cid = (table.users[n] for n in ("Ann", "Bob", "Cid"))
        table.group.make_admin(bob)
        await sign_up(table, "changelings", "/option random_lovers false")
        await host.send("/modkill Bob", chat=table.group)
        await host.send("/modkill Cid", chat=table.group)
        await table.settle()

        assert table.group.status(bob) == "administrator"
        assert table.group.status(cid) == "restricted"
        to_host = [m.text for m in api.sent_to(host)]
        assert ("Bob is out of the game in Ponyville Game Night, but I cannot mute him there. "
                "Telegram lets no bot restrict a group's owner or its admins. Please ask Bob "
                "to stay silent there until the game is over.") in to_host
        assert not any(t.startswith("I cannot mute the players") for t in to_host)
        assert not any("Cid is out of the game" in t for t in to_host)
        assert any(m.text.startswith("You are out of the game in Ponyville Game Night, but I "
                                     "cannot mute you there.") for m in api.sent_to(bob))
        assert api.unknown_methods == [] and api.internal_errors == []
    finally:
        await table.stop()

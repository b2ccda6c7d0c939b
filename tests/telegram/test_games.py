"""Whole games of both rule sets in one Telegram group with eight or more users and their
private chats: the real python-telegram-bot stack over HTTP against the fake Bot API."""

from __future__ import annotations

import pytest

from core.storage.models import Outbox
from tests.role_cards import is_role_card

from .harness import living, open_table, play_to_the_end, sign_up

GAMES = [
    ("changelings", 8, ("/option random_lovers false",)),
    ("changelings", 10, ()),
    ("alchemists", 9, ()),
    ("alchemists", 12, ()),
]


@pytest.mark.parametrize(("ruleset", "players", "settings"), GAMES,
                         ids=[f"{r}-{n}" for r, n, _ in GAMES])
async def test_a_whole_game_is_played_through_buttons_and_private_chats(api, tmp_path, ruleset,
                                                                       players, settings):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", players)
    try:
        await sign_up(table, ruleset, *settings)
        assert len(await living(table)) == players
        for name, user in table.users.items():  # every player got a role card in private
            assert any(is_role_card(m.text) for m in api.sent_to(user)), name
        row = await play_to_the_end(table, seed=players)
        assert row.status == "ended"
        assert api.unknown_methods == []
        assert api.internal_errors == []
        assert not await Outbox.filter(status__in=["pending", "sending", "failed",
                                                   "unknown"]).exists()
        game = await table.runtime.service.games.load(row)
        assert game.state.winners  # and the group was told who won, and everybody's role:
        final = " ".join(m.text for m in table.group_messages()).lower()
        assert " win" in final or " won" in final
        assert all(f"{p.name} was" in " ".join(m.text for m in table.group_messages())
                   for p in game.state.players.values())
        # the end: one summary, one picture (a photo with its file), no flood
        group_rows = await Outbox.filter(private=False).order_by("id")
        summary = next(o.id for o in group_rows if o.payload.get("seq") == row.version)
        ending = [o.payload["kind"] for o in group_rows if o.id >= summary
                  and o.payload["kind"] in ("post", "picture") and not o.payload.get("replace")]
        assert ending == ["post", "picture"]  # (and the link where a public URL is set)
        photos = [u for u in api.uploads if u.chat_id == table.group.id]
        assert len(photos) == 1 and photos[0].data.startswith(b"\x89PNG")
        assert photos[0].width >= 1080 and photos[0].width + photos[0].height <= 10_000
    finally:
        await table.stop()

"""A Telegram outage loses nothing: the real bot (python-telegram-bot over HTTP) plays a game
against the fake Bot API, which goes down just as the role cards are being sent and stays
down for thirteen minutes of the bot's clock — every call answered by a proxy's 502 page or a
dropped connection, the getUpdates poll included. The bot's clock is moved forward in steps
(so the outage does not take thirteen real minutes); the runtime's loop runs throughout, with
its deadlines and deliveries. When Telegram is back, everything arrives: every role card,
every announcement, once each, each chat's messages in the order they were written, and
nothing was given up."""

from __future__ import annotations

import asyncio
from collections import Counter

from adapters.telegram.adapter import TelegramAdapter
from core.service.messages.payloads import from_json
from core.storage.models import Outbox

from ..sent import plain_messages
from .harness import open_table, start_payload

OUTAGE = 13 * 60.0  # seconds of the bot's clock
STEP = 20.0  # the clock moves this far every real tenth of a second


async def test_a_long_outage_while_the_role_cards_go_out_loses_nothing(api, tmp_path):
    table = await open_table(api, f"sqlite://{tmp_path / 'tg.sqlite3'}", 8)
    try:
        host = table.host
        await host.send("/newgame changelings", chat=table.group)
        await table.settle()
        payload = start_payload(table.group_messages()[-1])
        for user in list(table.users.values())[1:]:
            await user.start(payload)
        await host.start()
        await host.send("/option random_lovers false", chat=table.group)
        await table.settle()
        chats = {str(table.group.id): table.group,
                 **{str(u.id): u for u in table.users.values()}}
        seen = {ref: len(api.history(chat)) for ref, chat in chats.items()}
        written = await Outbox.all().order_by("-id").first()
        down = api.outage(OUTAGE, clock=table.clock.now, starting_with="sendMessage")
        await host.send("/startgame", chat=table.group)
        passed = 0.0
        while passed < OUTAGE + 2 * STEP:  # the outage, and a little after it
            await asyncio.sleep(0.1)
            table.clock.advance(STEP)
            passed += STEP
        assert down.over and "getUpdates" in down.refused
        tries = Counter(down.refused)
        # one probe per rest, not a request per waiting message and round
        assert 10 < tries["sendMessage"] < OUTAGE / STEP, tries
        table.clock.advance(60)  # the longest back-off ends
        table.runtime.wake.set()
        await table.settle(timeout=60)

        rows = await Outbox.filter(id__gt=written.id if written else 0).order_by("id")
        assert rows and {r.status for r in rows} <= {"sent", "superseded"}, \
            Counter(r.status for r in rows)
        cards = {r.chat_ref for r in rows if r.private and getattr(
            from_json(r.payload), "seq", None) == 0}
        assert cards == {str(u.id) for u in table.users.values()}  # everybody's role card
        for ref, chat in chats.items():
            await _arrived_once_in_order(rows, ref, api.history(chat)[seen[ref]:])
    finally:
        await table.stop()


async def _arrived_once_in_order(rows: list[Outbox], ref: str, history) -> None:
    """The outbox's plain messages for one chat (not the versions of a message edited in
    place, a ballot's or a prompt's, which Telegram edits) were each posted exactly once, in
    the order they were written."""
    wanted = await plain_messages(rows, ref, TelegramAdapter.wording)
    posted = [m.text for m in history if m.get("event") == "sent" and m.text in wanted]
    assert posted == wanted, (ref, posted, wanted)

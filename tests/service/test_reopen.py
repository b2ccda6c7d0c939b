"""What waited for a player the bot could not write to (issue 30, problem 5): once he can be
read to again, it is sent, except the prompts and reminders of windows that have closed
meanwhile (their choice is over); the closing edit of a prompt he already has still goes, so
that its buttons do not stay pressable."""

from __future__ import annotations

from core.service.messages import outbox, texts
from core.service.messages.payloads import (
    KeyboardPayload,
    PostPayload,
    StoredButton,
    TextLabel,
    part,
    post,
    to_json,
)
from core.storage.models import Identity, Outbox

from .helpers import open_chat, started_changelings, the_game


async def test_what_waited_is_sent_without_the_closed_windows_prompts(db_url):
    chat = await open_chat(db_url)
    await started_changelings(chat)
    row = await the_game()
    bob = await Identity.get(name="Bob")
    now, before = row.window, row.window - 1

    async def waiting(payload: PostPayload | KeyboardPayload,
                      status: str = "unreachable") -> int:
        made = await Outbox.create(game=row, platform="console", chat_ref=bob.ref,
                                   private=True, identity=bob, status=status,
                                   payload=to_json(payload))
        return made.id

    def keyboard(key: str, window: int, closed: bool = False) -> KeyboardPayload:
        buttons = () if closed else (StoredButton(TextLabel(texts.PASS_BUTTON), key),)
        return KeyboardPayload((part(texts.CHOICES_CLOSED),), buttons, key, urgent=True,
                               window=window)

    reminder = PostPayload((part(texts.REMIND_VOTE, left="1 min"),), urgent=True,
                           asks=bob.id, window=before)
    stale_reminder = await waiting(reminder)
    stale_prompt = await waiting(keyboard(f"choices-{row.id}-{before}-0", before))
    stale_closing = await waiting(keyboard(f"choices-{row.id}-{before}-0", before, True))
    await waiting(keyboard(f"choices-{row.id}-{before}-1", before), status="sent")
    his_closing = await waiting(keyboard(f"choices-{row.id}-{before}-1", before, True))
    current = await waiting(keyboard(f"choices-{row.id}-{now}-0", now))
    current_reminder = await waiting(PostPayload(reminder.parts, urgent=True, asks=bob.id,
                                                 window=now))
    result = await waiting(post(texts.RECAP_NOTHING))

    assert await outbox.reopen(bob) == 4
    status = {r.id: r.status for r in await Outbox.filter(identity_id=bob.id)}
    assert [status[i] for i in (stale_reminder, stale_prompt, stale_closing)] == \
        ["superseded"] * 3
    assert [status[i] for i in (his_closing, current, current_reminder, result)] == \
        ["pending"] * 4

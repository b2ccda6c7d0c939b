"""A group ballot on Matrix: native polls, and one text message beside them.

The polls (polls.py: the unstable MSC3381 types the clients render, at most 20 answers each,
so a long ballot is several polls) are what Element, Element X and FluffyChat show. The text
message lists every option with its number and says how to vote by command: Cinny and Nheko
show no polls at all, and every client shows and notifies for `m.room.message`. It is also
where the live tally goes (edited in place), and the poll end's text is the result.

An ended poll is shown with the client's own count, of that poll's answers alone: a vote
typed as `!vote`, a vote moved to another poll of the same ballot, do not change it
(matrix-js-sdk's `Poll` takes each sender's latest answer before the end; Element Web's
MPollBody counts them). So the closing version is also a reply to the (first) poll naming
the game's count and saying which votes it took (the core's `HowTo.VOTE_COUNT`), and a
typed vote that counted is marked ✅ (receive.py).

Keycap reactions answer too: on a poll, the poll's own n-th answer; on the text message, its
n-th option (both are kept as keyboards, as the adapter keeps the private ones)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from core.service import Ballot, ButtonOut

from ..protocol import content, polls
from ..store import MatrixStore

# (room, event type, content, transaction id) → event id; raises what the adapter maps
SendEvent = Callable[[str, str, dict[str, Any], str | None], Awaitable[str]]
MAX_ANSWER_ID = 32  # longer button tokens get short poll answer ids, mapped back on answer


def pending(txn: str) -> str:
    """Where what an event will mean is kept before it is posted (under its transaction id):
    a kill between the post and keeping it under the event id would otherwise drop the
    reactions and answers given to the event before the bot is back (see receive.py)."""
    return f"txn-{txn}"


async def keep_keyboard(store: MatrixStore, event_id: str, room_id: str, private: bool,
                        buttons: Sequence[ButtonOut]) -> None:
    """Remember what each number of an event's options presses (for numbers, labels and
    keycap reactions)."""
    await store.save({"room": room_id, "private": private,
                      "tokens": [b.token for b in buttons],
                      "labels": [b.label for b in buttons],
                      "start": [b.start for b in buttons]}, "kb", event_id)


class Ballots:
    def __init__(self, send: SendEvent, store: MatrixStore) -> None:
        self.send = send
        self.store = store

    async def post(self, room_id: str, message: Ballot, txn: str,
                   loud: content.Loudness) -> dict[str, Any]:
        """A new ballot: the room's previous polls end (if their closing version never
        came), the new polls start, then the text message. Every event has a transaction id
        of its own, derived from the message's, so a retry after a partial send posts each
        once. Returns what later versions need (the "ref"). Posted again under the same
        transaction id (a kill came before its ref was kept), its own polls stay open: the
        homeserver answers with the same events."""
        await self.end_open(room_id, unless=txn)
        buttons = message.options
        parts = polls.split(len(buttons))
        ids = []
        for part, numbers in enumerate(parts):
            chunk = [buttons[n] for n in numbers]
            answers = {}
            shown = []
            for number, button in zip(numbers, chunk, strict=True):
                answer_id = button.token if len(button.token) <= MAX_ANSWER_ID \
                    else f"a{number + 1}"
                answers[answer_id] = button.token
                shown.append((answer_id, button.label))
            question = message.text if len(parts) == 1 \
                else f"{message.text} ({part + 1}/{len(parts)})"
            poll_txn = txn if part == 0 else f"{txn}-{part}"
            poll = {"room": room_id, "answers": answers, "ended": False}
            await self.store.save(poll, "poll", pending(poll_txn))
            await keep_keyboard(self.store, pending(poll_txn), room_id, False, chunk)
            poll_id = await self.send(room_id, polls.START, polls.start(question, shown),
                                      poll_txn)
            await self.store.save(poll, "poll", poll_id)
            await keep_keyboard(self.store, poll_id, room_id, False, chunk)
            ids.append(poll_id)
        msgtype, mentions = loud
        await keep_keyboard(self.store, pending(f"{txn}-text"), room_id, False, buttons)
        status = await self.send(room_id, "m.room.message", content.message(
            content.with_options(message.text, [b.label for b in buttons]), msgtype, mentions),
            f"{txn}-text")
        await keep_keyboard(self.store, status, room_id, False, buttons)
        await self.store.save({"polls": ids, "text": message.text, "txn": txn}, "openpoll", room_id)
        return {"kind": "poll", "event_id": ids[0], "polls": ids, "status": status,
                "msgtype": msgtype}

    async def update(self, room_id: str, ref: dict[str, Any], message: Ballot,
                     txn: str) -> dict[str, Any]:
        """A later version: the tally (the text message is edited, its options kept), or
        the closing one without buttons (the polls end with it as their result). Returns
        the ref, changed if a ballot of an older version got its text message only now."""
        labels = [b.label for b in message.options]
        text = content.with_options(message.text, labels)
        if message.options:
            await self.store.save({"polls": ref.get("polls") or [ref["event_id"]],
                              "text": message.text}, "openpoll", room_id)
        else:
            ids = ref.get("polls") or [ref["event_id"]]
            for poll_id in ids:
                await self.end(room_id, poll_id, message.text)
            # the clients show an ended poll with their own count of its answers (Element
            # Web's MPollEndBody and Element X's timeline show no text of the end): the
            # game's count comes as a reply to the poll, under it in the timeline
            await self.send(room_id, "m.room.message", content.reply(ids[0], message.text),
                            f"{txn}-result")
        msgtype = str(ref.get("msgtype", content.NOTICE))
        if ref.get("status"):
            await self.send(room_id, "m.room.message",
                            content.edit(ref["status"], text, msgtype), txn)
            return ref
        status = await self.send(room_id, "m.room.message", content.message(text), txn)
        return {**ref, "status": status}

    async def end_open(self, room_id: str, unless: str | None = None) -> None:
        """End the room's open polls, with the newest text they had (unless they are the
        ballot posted under the transaction id `unless`)."""
        open_polls = await self.store.load("openpoll", room_id)
        if isinstance(open_polls, str):  # as an older version stored it: one poll, no text
            open_polls = {"polls": [open_polls], "text": ""}
        if open_polls and unless is not None and open_polls.get("txn") == unless:
            return
        for poll_id in (open_polls or {}).get("polls", []):
            await self.end(room_id, str(poll_id), str(open_polls.get("text", "")))

    async def end(self, room_id: str, poll_id: str, result: str) -> None:
        """End a poll (a repeat is dropped by the homeserver's transaction id)."""
        poll = await self.store.load("poll", poll_id)
        if poll is not None and poll.get("ended"):
            return
        await self.send(room_id, polls.END, polls.end(poll_id, result),
                        f"nightfall-end-{poll_id}")
        if poll is not None:
            await self.store.save({**poll, "ended": True}, "poll", poll_id)
        open_polls = await self.store.load("openpoll", room_id)
        if open_polls == poll_id or (isinstance(open_polls, dict)
                                     and poll_id in open_polls.get("polls", [])):
            await self.store.drop("openpoll", room_id)

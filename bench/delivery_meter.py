"""What the delivery bench reads off the fake Bot API and the bot's database: each send
and edit Telegram accepted, each chat's newest keyboard (what a player looks at), each private
prompt, and the figures made of them (see bench/delivery.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from tests.telegram.fake_botapi import FakeBotAPI

SENDS = {"sendMessage", "sendPhoto", "editMessageText", "editMessageReplyMarkup",
         "editMessageCaption"}
TALLY = re.compile(r"(?:Votes so far|Final count): (.*)")
COUNT = re.compile(r"\((\d+)\)")


@dataclass
class Shown:
    """A message as the bot last left it: its text and its callback buttons."""

    text: str
    callbacks: list[tuple[str, str]]  # (label, callback_data)


class MeasuredBotAPI(FakeBotAPI):
    """The strict fake Bot API, also noting when each send or edit was accepted, and each
    chat's newest message with a keyboard (what a player would look at)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.accepted: list[float] = []
        self.keyboards: dict[int, tuple[int, Shown]] = {}  # chat -> (message id, message)
        self.arrivals: dict[tuple[int, int], float] = {}  # (chat, message) -> first send
        self.edits: dict[tuple[int, int], list[tuple[float, str]]] = {}
        self.listeners: dict[int, asyncio.Event] = {}
        self.prompts: list[tuple[float, int, str]] = []  # t, private chat, a button's token

    async def _answer(self, method: str, impl: Any, params: dict[str, Any]) -> Any:
        response = await super()._answer(method, impl, params)
        if method in SENDS and response.status == 200:
            now = time.monotonic()
            self.accepted.append(now)
            result = json.loads(response.body)["result"]
            if isinstance(result, dict):
                self._note(method, result, now)
        return response

    def _note(self, method: str, result: dict[str, Any], now: float) -> None:
        key = (result["chat"]["id"], result["message_id"])
        text = result.get("text") or result.get("caption") or ""
        if method.startswith("send"):
            self.arrivals[key] = now
        else:
            self.edits.setdefault(key, []).append((now, text))
        rows = (result.get("reply_markup") or {}).get("inline_keyboard", [])
        callbacks = [(b["text"], b["callback_data"]) for row in rows for b in row
                     if "callback_data" in b]
        if callbacks and key[0] > 0 and method.startswith("send"):
            self.prompts.append((now, key[0], callbacks[0][1]))
        if callbacks:
            self.keyboards[key[0]] = (key[1], Shown(text, callbacks))
            event = self.listeners.get(key[0])
            if event is not None:
                event.set()


@dataclass
class Figures:
    """What one run measured."""

    presses: list[tuple[float, int, int, int]] = field(default_factory=list)  # t, chat, msg, n
    windows: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, window) -> t
    lengths: dict[tuple[int, int], float] = field(default_factory=dict)
    backlog: list[tuple[float, int, float]] = field(default_factory=list)  # t, rows, oldest
    over_budget: list[bool] = field(default_factory=list)  # /healthz's word, once a second


def tally_count(text: str) -> int:
    found = TALLY.search(text)
    return sum(int(n) for n in COUNT.findall(found.group(1))) if found else -1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def prompt_delays(db: asyncpg.Connection, api: MeasuredBotAPI, figures: Figures
                        ) -> list[tuple[float, float]]:
    """Per window with private prompts: (the last prompt's delay, the window's length)."""
    tokens = {token for _, _, token in api.prompts}
    windows = {r["token"]: (r["game_id"], r["window"]) for r in await db.fetch(
        'SELECT token, game_id, "window" FROM button WHERE token = ANY($1::text[])',
        list(tokens))}
    last: dict[tuple[int, int], float] = {}
    for at, _, token in api.prompts:
        window = windows.get(token)
        if window in figures.windows:
            last[window] = max(last.get(window, 0.0), at - figures.windows[window])
    return [(delay, figures.lengths.get(window, float("nan")))
            for window, delay in last.items()]


def tally_delays(api: MeasuredBotAPI, figures: Figures) -> list[float]:
    delays = []
    for at, chat, message, count in figures.presses:
        shown = [t for t, text in api.edits.get((chat, message), [])
                 if t >= at and tally_count(text) >= count]
        if shown:
            delays.append(shown[0] - at)
    return delays


def delivery_rate(api: MeasuredBotAPI, figures: Figures, least: int) -> float:
    """Accepted sends and edits per second over the polls that saw at least `least` rows
    waiting (each counts until the next poll)."""
    accepted = sorted(api.accepted)
    span = sent = 0.0
    samples = figures.backlog
    for (start, rows, _), (end, _, _) in itertools.pairwise(samples):
        if rows >= least:
            span += end - start
            sent += _between(accepted, start, end)
    return sent / span if span else float("nan")


def _between(times: list[float], start: float, end: float) -> int:
    return bisect_left(times, end) - bisect_left(times, start)

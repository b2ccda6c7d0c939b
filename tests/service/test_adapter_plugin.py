"""An adapter from a package of its own: the core finds it through the `nightfall.adapters`
entry point alone (a throwaway package on `sys.path` with a dist-info that declares it),
builds it from the configuration, and a whole game is played through it."""

from __future__ import annotations

import importlib
import random
import sys
import textwrap
from pathlib import Path

import pytest

from core.config import Settings
from core.plugins import adapter_plugins, build_adapters
from core.service.commands.game_service import GameService
from core.service.delivery.deliverer import Deliverer
from core.service.ports.clock import ManualClock
from core.service.rows.adapter_tables import TableStore
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord

TINY = '''
"""A chat platform in memory: keyboards by chat, every text kept."""

from core.plugins import AdapterPlugin
from core.service import ChatRef, HowTo, Incoming, RateLimits, Reader, UserRef


class TinyAdapter:
    platform = "tiny"
    limits = RateLimits()
    howto = {topic: f"(how to {topic.value} on Tiny)" for topic in HowTo}

    def __init__(self):
        self.handle = None
        self.keyboards = {}
        self.texts = []
        self.updates = 0

    async def start(self, handle, store):
        self.handle = handle

    async def stop(self):
        self.handle = None

    async def send_post(self, post):
        self.texts.append((where(post.to), post.text))

    async def send_ballot(self, ballot):
        await self.send_post(ballot)
        if ballot.options and self.keyboards.get("group") != ballot.options:
            self.keyboards["group"] = ballot.options  # (a tally under it is no new one)

    async def send_keyboard(self, keyboard):
        await self.send_post(keyboard)
        chat = where(keyboard.to)
        if keyboard.buttons and (keyboard.replace is None
                                 or self.keyboards.get(chat) != keyboard.buttons):
            self.keyboards[chat] = keyboard.buttons  # (an edit showing the choice is no new one)

    async def team(self, order):
        pass

    async def silence(self, order):
        pass

    async def say(self, user, text="", button=None, private=False):
        self.updates += 1
        await self.handle(Incoming(platform="tiny", update_id=str(self.updates),
                                   user=UserRef(user), user_name=user, text=text, button=button,
                                   chat=None if private else ChatRef("group")))


def where(to):
    return to.user.id if isinstance(to, Reader) else "group"


PLUGIN = AdapterPlugin(platform="tiny", enabled=lambda settings: True,
                       build=lambda settings: TinyAdapter())
'''
NAMES = ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def tiny_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "tinychat").mkdir()
    (tmp_path / "tinychat" / "__init__.py").write_text(textwrap.dedent(TINY))
    info = tmp_path / "tinychat-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinychat\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[nightfall.adapters]\ntiny = tinychat:PLUGIN\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    adapter_plugins.cache_clear()
    yield
    adapter_plugins.cache_clear()
    sys.modules.pop("tinychat", None)


async def test_a_game_through_an_adapter_found_by_its_entry_point(tiny_package, tmp_path):
    assert "tiny" in adapter_plugins()
    (adapter,) = build_adapters(Settings())  # Telegram and Matrix are off by default
    assert type(adapter).__module__ == "tinychat"
    clock = ManualClock()
    await open_db(f"sqlite://{tmp_path / 'tiny.sqlite3'}")
    try:
        service = GameService(clock, seed=3)
        deliverer = Deliverer({"tiny": adapter}, clock)
        await adapter.start(service.handle, TableStore(adapter.platform))

        async def pump() -> None:
            while await service.fire_due_deadlines() or await deliverer.deliver_due():
                pass

        await adapter.say("Ann", "/newgame changelings")
        for name in NAMES[1:]:
            await adapter.say(name, "/join")
        await adapter.say("Ann", "/startgame")
        await pump()
        rng = random.Random(3)
        answered: dict[str, object] = {}
        for _ in range(400):
            row = await GameRecord.filter(status="running").first()
            if row is None:
                break
            game = await service.games.load(row)
            living = {p.name for p in game.state.players.values() if p.alive}
            for name in NAMES:
                board = adapter.keyboards.get(name)
                while board and answered.get(name) is not board:
                    answered[name] = board
                    await adapter.say(name, button=rng.choice(board).token, private=True)
                    await pump()
                    board = adapter.keyboards.get(name)
            group = adapter.keyboards.get("group")
            if group and answered.get("group") is not group:
                answered["group"] = group
                for name in NAMES:
                    if name in living:
                        await adapter.say(name, button=rng.choice(group[:-1] or group).token)
                await pump()
            if (await GameRecord.get(id=row.id)).window != row.window:
                continue
            pending = await Deadline.filter(game_id=row.id, state="pending") \
                .order_by("due_at").first()
            clock.advance(300 if pending is None else max(1.0, pending.due_at - clock.now() + 1))
            await pump()
        finished = await GameRecord.get(chat__platform="tiny")
        assert finished.status == "ended"
        assert {chat for chat, _ in adapter.texts} >= {"group", "Ann"}
        await adapter.stop()
    finally:
        await close_db()

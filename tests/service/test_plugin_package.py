"""A rule set and an adapter from a package of their own (tests/fixtures/moonlit): installed
as a distribution whose entry points are all the core learns of them, with the rule set's own
catalog, and a whole game played through them in German, whose rule-set texts come from that
catalog."""

from __future__ import annotations

import importlib
import random
import re
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from core.config import load_settings, settings_model
from core.engine.registry import available, load_ruleset
from core.i18n import translations
from core.plugins import adapter_plugins, build_adapters
from core.service import CatchUp
from core.service.commands.game_service import GameService
from core.service.delivery.deliverer import Deliverer
from core.service.ports.clock import ManualClock
from core.service.rows.adapter_tables import TableStore
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord

from ..conftest import ROOT

PACKAGE = ROOT / "tests" / "fixtures" / "moonlit"
NAMES = ("Ann", "Bob", "Cid", "Dot", "Eve")


def forget_what_is_installed() -> None:
    for found in (available, load_ruleset, adapter_plugins, settings_model, translations):
        found.cache_clear()


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The package as pip lays it out in a target directory: its module, and a dist-info
    with its metadata and the entry points its pyproject.toml declares."""
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]
    site = tmp_path / "site"
    shutil.copytree(PACKAGE / "moonlit", site / "moonlit")
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items())
        for group, points in project["entry-points"].items()))
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    forget_what_is_installed()
    yield site
    forget_what_is_installed()
    for module in [m for m in sys.modules if m == "moonlit" or m.startswith("moonlit.")]:
        del sys.modules[module]


async def test_a_game_in_german_through_a_rule_set_and_an_adapter_of_their_own(installed,
                                                                                tmp_path):
    assert "moonlit" in available() and "moonchat" in adapter_plugins()
    assert load_ruleset("moonlit").locales_dir == installed / "moonlit" / "locales"
    (adapter,) = build_adapters(load_settings(None))  # Telegram and Matrix are off by default
    clock = ManualClock()
    await open_db(f"sqlite://{tmp_path / 'moonlit.sqlite3'}")
    try:
        service = GameService(clock, seed=5)
        deliverer = Deliverer({"moonchat": adapter}, clock)
        await adapter.start(service.handle, TableStore(adapter.platform), CatchUp(clock))

        async def pump() -> None:
            while await service.fire_due_deadlines() or await deliverer.deliver_due():
                pass

        await adapter.say("Ann", "/language de")
        await adapter.say("Ann", "/newgame moonlit")
        for name in NAMES[1:]:
            await adapter.say(name, "/join")
        for name in NAMES:
            await adapter.say(name, "/language de", private=True)
        await adapter.say("Ann", "/startgame")
        await pump()
        rng = random.Random(5)
        answered: dict[str, object] = {}
        for _ in range(100):
            row = await GameRecord.filter(status="running").first()
            if row is None:
                break
            for name in NAMES:
                board = adapter.keyboards.get(name)
                if board and answered.get(name) is not board:
                    answered[name] = board
                    await adapter.say(name, button=rng.choice(board).token, private=True)
            group = adapter.keyboards.get("group")
            if group and answered.get("group") is not group:
                answered["group"] = group
                for name in NAMES:
                    await adapter.say(name, button=rng.choice(group).token)
            await pump()
            pending = await Deadline.filter(game_id=row.id, state="pending") \
                .order_by("due_at").first()
            clock.advance(300 if pending is None else max(1.0, pending.due_at - clock.now() + 1))
            await pump()
        assert (await GameRecord.get(chat__platform="moonchat")).status == "ended"
        await adapter.stop()
    finally:
        await close_db()

    said = "\n".join(text for _, text in adapter.texts)
    assert "Der Mond geht über dem Dorf auf." in said  # the package's catalog, nowhere else
    assert "Das Spiel ist aus:" in said
    assert "Deine Rolle: Wolf." in said and "Du bist ein Wolf." in said
    with (installed / "moonlit/locales/de/LC_MESSAGES/moonlit.po").open("rb") as fh:
        english = [m.id for m in read_po(fh) if m.id and m.string != m.id and " " in m.id]
    fragments = [max(re.split(r"\{\w+\}", text), key=len).strip() for text in english]
    assert not [fragment for fragment in fragments if fragment in said]  # nothing in English

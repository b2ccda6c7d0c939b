"""An adapter from a package of its own (tests/fixtures/lineside, a line-based chat like IRC):
installed by pip into a folder of its own, found by its entry point alone, configured by its
own `[lineside]` section (which it validates), its how-to texts from its own catalog, and a
whole game played through it by a script of lines, in German."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest

from core.config import load_settings, settings_model
from core.i18n import own_catalog
from core.plugins import adapter_plugins, build_adapters
from core.sections import ConfigError
from core.service import CatchUp
from core.service.commands.game_service import GameService
from core.service.delivery.deliverer import Deliverer
from core.service.ports.clock import ManualClock
from core.service.rows.adapter_tables import TableStore
from core.storage.db import close_db, open_db
from core.storage.models import Deadline, GameRecord

from ..conftest import ROOT
from ..packages import pip_installed

PACKAGE = ROOT / "tests" / "fixtures" / "lineside"
NICKS = ("ann", "bob", "cid", "dot", "eve", "fay", "gus", "hal")


def forget_what_is_installed() -> None:
    for found in (adapter_plugins, settings_model, own_catalog):
        found.cache_clear()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package as pip installs it, into a folder of its own."""
    return pip_installed(PACKAGE, tmp_path_factory)


@pytest.fixture
def installed(site: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    forget_what_is_installed()
    yield site
    forget_what_is_installed()
    for module in [m for m in sys.modules if m == "lineside" or m.startswith("lineside.")]:
        del sys.modules[module]


def config(tmp_path: Path, section: str) -> Path:
    path = tmp_path / "nightfall.toml"
    path.write_text(f"[lineside]\n{section}\n", encoding="utf-8")
    return path


def test_the_package_checks_its_own_section(installed, tmp_path):
    with pytest.raises(ConfigError) as err:
        load_settings(config(tmp_path, 'enabled = true\nchannel = "village"\nprefix = "ab"'))
    assert str(err.value).splitlines() == [
        "lineside.channel: must look like #village",
        "lineside.prefix: must be one character that is no letter, digit or space"]


async def test_a_game_in_german_through_an_adapter_of_its_own(installed, tmp_path, monkeypatch):
    monkeypatch.setenv("NIGHTFALL_LINESIDE__CHANNEL", "#dorf")  # the environment overrides
    (adapter,) = build_adapters(load_settings(config(tmp_path, "enabled = true")))
    assert type(adapter).__module__ == "lineside.adapter"
    assert Path(sys.modules["lineside"].__file__).is_relative_to(installed)
    clock = ManualClock()
    await open_db(f"sqlite://{tmp_path / 'lineside.sqlite3'}")
    try:
        service = GameService(clock, seed=3, wordings={"lineside": adapter.wording})
        deliverer = Deliverer({"lineside": adapter}, clock)
        await adapter.start(service.handle, TableStore(adapter.platform), CatchUp(clock))

        async def say(nick: str, text: str, private: bool = False) -> None:
            await adapter.line(nick, text, private)
            while await service.fire_due_deadlines() or await deliverer.deliver_due():
                pass

        await say("ann", "!language de")
        await say("ann", "!newgame changelings")
        for nick in NICKS[1:]:
            await say(nick, "!join")
        for nick in NICKS:
            await say(nick, "!language de", private=True)
        await say("ann", "!startgame")
        await say("bob", "!help", private=True)
        rng = random.Random(3)

        def offered(where: str) -> tuple[str, ...]:
            """The newest choices there, by their buttons: a keyboard edited to say what was
            chosen keeps its buttons and is not a new question."""
            return tuple(button.token for button in adapter.choices.get(where, ()))

        answered: dict[str, tuple[str, ...]] = {"#dorf": offered("#dorf")}  # the sign-up
        for _ in range(400):
            row = await GameRecord.filter(status="running").first()
            if row is None:
                break
            game = await service.games.load(row)
            living = {p.name for p in game.state.players.values() if p.alive}
            for nick in NICKS:
                while (options := offered(nick)) and answered.get(nick) != options:
                    answered[nick] = options
                    await say(nick, str(rng.randint(1, len(options))), private=True)
            options = offered("#dorf")
            if options and answered.get("#dorf") != options:
                answered["#dorf"] = options
                for nick in sorted(living):
                    await say(nick, f"{rng.randint(1, max(1, len(options) - 1))}.")
            if (await GameRecord.get(id=row.id)).window != row.window:
                continue
            due = await Deadline.filter(game_id=row.id, kind="close", state="pending") \
                .order_by("due_at").first()
            clock.advance(300 if due is None else max(1.0, due.due_at - clock.now() + 1))
            await say("ann", "# the clock moved on")
        assert (await GameRecord.get(chat__platform="lineside")).status == "ended"
        await adapter.stop()
    finally:
        await close_db()

    channel = [line for where, line in adapter.lines if where == "#dorf"]
    private = [line for where, line in adapter.lines if where == "bob"]
    # its how-to texts come from its own catalog, in German, with its own command prefix
    assert any("Schreib !join in den Kanal; deine Rolle kommt in einer privaten Zeile." in line
               for line in channel)
    assert any("Antworte privat mit der Nummer deiner Wahl" in line for line in private)
    # the core's texts speak of its commands as it takes them ("!vote", never "/vote")
    said = "\n".join(line for _, line in adapter.lines)
    assert "!" in said and "/vote" not in said and "/join" not in said
    assert any(line.startswith("1. ") for line in channel)  # a numbered ballot

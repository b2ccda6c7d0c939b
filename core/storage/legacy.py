"""What migration 0006 needs to upgrade a database of the previous shape in place: a model
renamed without renaming its table, and the `key_value` rows moved to the tables that
replace them.

The old keys, by whoever wrote them: the service's `ballot-<game>-<window>`,
`keyboards-<game>-<window>`, `signup-<game>`, `teams-<game>`, `unreachable-<game>-<person>`,
`told-<situation>-<chat>-<game or 0>-<person>` and `outbox-lease`; Telegram's
`tg:<chat>:<message key>` (cut at 64 characters) and `tg-parts:<outbox id>`; Matrix's
`matrix:<kind>:<parts joined by ":">` (values wrapped as {"v": value}; a key over 64
characters was kept as `matrix:<kind>:#<hash>`, which adapters/matrix/store.py still finds);
the console's `console_clock` and `console_update`. A row of no known kind, or of a game
that is gone, is dropped: nothing reads it any more.
"""

from __future__ import annotations

import logging
from copy import deepcopy
from typing import Any

from tortoise.fields.relational import ForeignKeyFieldInstance
from tortoise.migrations import operations as ops
from tortoise.migrations.schema_generator.state import State

log = logging.getLogger(__name__)

LEASE = "outbox"  # DeliveryLease.name of the outbox's lease


class RenameModelKeepTable(ops.RenameModel):
    """Rename a model's class; its table keeps its name. (Tortoise's own `RenameModel`
    renames a table named after the model, and reloads too few models: those pointing at
    the renamed one keep a stale backward relation.)"""

    def __init__(self, old_name: str, new_name: str, table: str) -> None:
        super().__init__(old_name, new_name)
        self.table = table

    def state_forward(self, app_label: str, state: State) -> None:
        related = state._find_related_models(app_label, self.old_name)
        model_state = state.models.pop((app_label, self.old_name))
        state.apps.unregister_model(app_label, self.old_name)
        model_state.name = self.new_name
        model_state.table = self.table
        model_state.options["table"] = self.table
        state.models[(app_label, self.new_name)] = model_state
        old_ref, new_ref = f"{app_label}.{self.old_name}", f"{app_label}.{self.new_name}"
        for other in state.models.values():
            for name, field in list(other.fields.items()):
                if isinstance(field, ForeignKeyFieldInstance) and field.model_name == old_ref:
                    moved = deepcopy(field)
                    moved.model_name = new_ref
                    other.fields[name] = moved
        related.discard((app_label, self.old_name))
        related.add((app_label, self.new_name))
        state._reload(related)


def _ints(text: str, count: int) -> list[int] | None:
    parts = text.split("-")
    if len(parts) != count or not all(p.isdigit() for p in parts):
        return None
    return [int(p) for p in parts]


def _unwrapped(value: Any) -> Any:
    return value.get("v") if isinstance(value, dict) else None


class _Mover:
    """Turns each old row into its new one (see the module's docstring)."""

    def __init__(self, apps: Any) -> None:
        self.model = {name: apps.get_model(f"models.{name}") for name in (
            "KeyValue", "GameRecord", "Chat", "Identity", "Ballot", "Prompt", "SignupButtons",
            "KnownTeamRoom", "Told", "DeliveryLease", "AdapterState", "MessageRef")}
        self.games: set[int] = set()
        self.chats: set[int] = set()
        self.people: set[int] = set()

    async def run(self) -> None:
        m = self.model
        self.games = set(await m["GameRecord"].all().values_list("id", flat=True))
        self.chats = set(await m["Chat"].all().values_list("id", flat=True))
        self.people = set(await m["Identity"].all().values_list("id", flat=True))
        moved = dropped = 0
        for row in await m["KeyValue"].all().order_by("key"):
            if await self.move(str(row.key), row.value):
                moved += 1
            else:
                dropped += 1
        if moved or dropped:
            log.info("key_value: %d rows moved to their tables, %d dropped", moved, dropped)

    async def move(self, key: str, value: Any) -> bool:
        m = self.model
        kind, _, rest = key.partition("-")
        if key.startswith("tg:"):
            return await self._telegram_ref(key[3:], value)
        if key.startswith("tg-parts:"):
            parts = value if isinstance(value, list) else [value]
            return await self._state("telegram", "parts", key[len("tg-parts:"):], parts)
        if key.startswith("matrix:"):
            return await self._matrix(key[len("matrix:"):], value)
        if key == "console_clock":
            return await self._state("console", "clock", "manual", value)
        if key == "console_update":
            return await self._state("console", "update", "last", value)
        if key == "outbox-lease" and isinstance(value, dict):
            await m["DeliveryLease"].create(name=LEASE, worker=str(value.get("worker") or ""),
                                            until=float(value.get("until") or 0.0))
            return True
        if kind in ("ballot", "keyboards") and (ids := _ints(rest, 2)) and \
                ids[0] in self.games and isinstance(value, list):
            game, window = ids
            if kind == "ballot":
                await m["Ballot"].create(game_id=game, window=window, buttons=value)
                return True
            for entry in value:
                if entry.get("identity") in self.people:
                    await m["Prompt"].create(game_id=game, window=window,
                                             identity_id=entry["identity"],
                                             message_key=entry["replace"],
                                             payload=entry["payload"])
            return True
        if kind in ("signup", "teams") and (ids := _ints(rest, 1)) and ids[0] in self.games:
            if kind == "signup" and isinstance(value, list):
                await m["SignupButtons"].create(game_id=ids[0], buttons=value)
                return True
            if kind == "teams" and isinstance(value, dict):
                for team, title in value.items():
                    await m["KnownTeamRoom"].create(game_id=ids[0], key=team, title=title)
                return True
        if kind == "unreachable" and (ids := _ints(rest, 2)) and ids[0] in self.games \
                and ids[1] in self.people:
            await m["Told"].create(kind="unreachable", game_id=ids[0], identity_id=ids[1])
            return True
        if kind == "told":
            situation, _, numbers = rest.partition("-")
            ids = _ints(numbers, 3)
            if ids and ids[0] in self.chats and ids[2] in self.people and \
                    (ids[1] == 0 or ids[1] in self.games):
                await m["Told"].create(kind=situation, chat_id=ids[0],
                                       game_id=ids[1] or None, identity_id=ids[2])
                return True
        return False

    async def _state(self, platform: str, namespace: str, key: str, value: Any) -> bool:
        await self.model["AdapterState"].create(platform=platform, namespace=namespace,
                                                key=key, value={"v": value})
        return True

    async def _telegram_ref(self, rest: str, value: Any) -> bool:
        chat, _, replace = rest.partition(":")
        parts = value if isinstance(value, list) else [value]
        if not chat or not replace or not all(isinstance(p, int) for p in parts):
            return False
        await self.model["MessageRef"].create(platform="telegram", chat_ref=chat, key=replace,
                                              ids=parts, detail={})
        return True

    async def _matrix(self, rest: str, value: Any) -> bool:
        kind, _, parts = rest.partition(":")
        inner = _unwrapped(value)
        if kind == "ref" and not parts.startswith("#") and isinstance(inner, dict) \
                and ":" in parts and "event_id" in inner:
            room, _, replace = parts.rpartition(":")
            await self.model["MessageRef"].create(
                platform="matrix", chat_ref=room, key=replace, ids=[inner["event_id"]],
                detail={k: v for k, v in inner.items() if k != "event_id"})
            return True
        return await self._state("matrix", kind, parts, inner)


async def move_key_values(apps: Any, schema_editor: Any) -> None:
    await _Mover(apps).run()

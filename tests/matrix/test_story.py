"""The end of a whole game on Matrix: the summary, the picture and the link, no more. The
picture is a real `m.image`: the PNG uploaded to Synapse's media repository (downloadable
there, of a size a phone shows well), encrypted before the upload in an encrypted room,
where the event names the file's key instead of a plain URL."""

from __future__ import annotations

import random
import struct
import urllib.request
from typing import Any

from nio.crypto.attachments import decrypt_attachment

from core.storage.models import GameRecord, Outbox
from tests.play import play_until_over

from .harness import Table, open_table, play_round, sign_up
from .synapse import Synapse

PUBLIC_URL = "https://games.example.org"


def new_messages(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The room messages among the events: no edits (a tally's new version), no poll ends."""
    return [e for e in events if e["type"] == "m.room.message"
            and (e["content"].get("m.relates_to") or {}).get("rel_type") != "m.replace"]


def download(synapse: Synapse, mxc: str, token: str) -> bytes:
    """A file from the media repository, as an authenticated client fetches it."""
    server, media_id = mxc.removeprefix("mxc://").split("/", 1)
    request = urllib.request.Request(
        f"{synapse.url}/_matrix/client/v1/media/download/{server}/{media_id}")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return bytes(reply.read())


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def play_noting_the_end(table: Table, seed: int) -> tuple[GameRecord, list[dict[str, Any]]]:
    """Play the game to its end; the group's events from the round that ended it."""
    assert table.runtime.service is not None
    table.runtime.service.games.held.public_url = PUBLIC_URL
    seen = [0]

    async def note(row: GameRecord) -> None:
        if row.status == "running":
            seen[0] = len(table.group())

    async def play(table: Table, rng: random.Random) -> bool:
        return await play_round(table, rng)

    row = await play_until_over(table, play, random.Random(seed), after_round=note)
    return row, table.group()[seen[0]:]


async def check_the_end(table: Table, row: GameRecord, ending: list[dict[str, Any]]
                        ) -> tuple[dict[str, Any], dict[str, Any]]:
    """At most three group messages: the summary naming every player, one m.image, the
    link; and the outbox agrees. Returns the image event's content and its info."""
    assert row.status == "ended"
    bot = table.bot["user_id"]
    said = new_messages([e for e in ending if e.get("sender") == bot
                         # the last vote's official count, a reply to its poll, may land here
                         and "m.in_reply_to" not in e["content"].get("m.relates_to", {})])
    assert [e["content"]["msgtype"] for e in said][1:] == ["m.image", "m.notice"], said
    assert len(said) <= 3
    summary, image, link = said
    assert table.runtime.service is not None
    game = await table.runtime.service.games.load(row)
    for player in game.state.players.values():
        assert player.name in summary["content"]["body"], player.name
    assert f"{PUBLIC_URL}/games/" in link["content"]["body"]
    group_rows = await Outbox.filter(private=False).order_by("id")
    first = next(o.id for o in group_rows if o.payload.get("seq") == row.version)
    kinds = [o.payload["kind"] for o in group_rows if o.id >= first
             and o.payload["kind"] in ("post", "picture") and not o.payload.get("replace")]
    assert kinds == ["post", "picture", "post"]
    content = image["content"]
    info = content["info"]
    assert info["mimetype"] == "image/png" and content["filename"].endswith(".png")
    assert content["body"] and content["body"] != content["filename"]  # the caption
    return content, info


async def test_the_end_of_a_game_is_its_summary_an_uploaded_picture_and_the_link(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients,
                             f"sqlite://{tmp_path / 'mx.sqlite3'}", 8)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        row, ending = await play_noting_the_end(table, seed=8)
        content, info = await check_the_end(table, row, ending)
        assert "file" not in content and content["url"].startswith("mxc://")
        data = download(synapse, content["url"], table.host.client.access_token)
        width, height = png_size(data)
        assert (width, height) == (info["w"], info["h"]) and len(data) == info["size"]
        assert 600 <= width <= 3000 and len(data) < 2_000_000
    finally:
        await table.stop()


async def test_in_an_encrypted_room_the_picture_is_uploaded_encrypted(
        synapse, register, clients, tmp_path):
    table = await open_table(synapse, register, clients, f"sqlite://{tmp_path / 'mx.db'}", 6,
                             encrypted=True, seed=6)
    try:
        await sign_up(table, "changelings", "!option random_lovers false")
        row, ending = await play_noting_the_end(table, seed=6)
        content, info = await check_the_end(table, row, ending)  # as the players decrypt it
        assert "url" not in content
        sealed = content["file"]
        stored = download(synapse, sealed["url"], table.host.client.access_token)
        assert not stored.startswith(b"\x89PNG")  # the server holds ciphertext only
        data = decrypt_attachment(stored, sealed["key"]["k"], sealed["hashes"]["sha256"],
                                  sealed["iv"])
        width, height = png_size(data)
        assert (width, height) == (info["w"], info["h"]) and len(data) == info["size"]
        assert 600 <= width <= 3000 and len(data) < 2_000_000
    finally:
        await table.stop()

"""The fake Bot API takes photos as Telegram does: an uploaded file is recorded with its size,
and refused when Telegram would refuse it (no image, impossible dimensions)."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from telegram import InputFile
from telegram.error import BadRequest

from .test_fake_botapi import bot  # noqa: F401 - the fixture


def png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 40, 40)).save(buffer, "PNG")
    return buffer.getvalue()


async def test_an_uploaded_photo_is_recorded_and_a_bad_one_refused(api, bot) -> None:  # noqa: F811
    app, _ = bot
    alice = api.user("Alice")
    group = api.group("Village", members=[alice], supergroup=True)
    sent = await app.bot.send_photo(group.id, InputFile(png(1080, 1400), "story.png"),
                                    caption="The story")
    assert sent.photo and sent.caption == "The story"
    [upload] = api.uploads
    assert (upload.chat_id, upload.message_id) == (group.id, sent.message_id)
    assert (upload.width, upload.height) == (1080, 1400) and upload.data.startswith(b"\x89PNG")
    with pytest.raises(BadRequest, match=r"(?i)image_process_failed"):
        await app.bot.send_photo(group.id, InputFile(b"no image at all", "story.png"))
    with pytest.raises(BadRequest, match=r"(?i)photo_invalid_dimensions"):
        await app.bot.send_photo(group.id, InputFile(png(40, 900), "thin.png"))
    assert len(api.uploads) == 1

"""A picture (the story of a finished game) as Matrix shows one: the PNG uploaded to the
homeserver's media repository, then an `m.image` event that points at it. In an encrypted
room the file is encrypted before the upload (the server keeps ciphertext only) and the event
carries the key as `file` instead of `url`; nio encrypts the event itself as it does every
send there.

The caption goes where Matrix 1.10 puts an image's caption: `body`, with the file's own name
in `filename` (a client that knows no captions shows the body as the image's title).

An upload cannot be sent "once" as an event can (it has no transaction id), so its result is
kept under the outbox row's id until the event is out: a retry posts the same upload."""

from __future__ import annotations

import io
import struct
from typing import Any

from nio import AsyncClient, ErrorResponse, UploadResponse

from core.service import PermanentError, Picture, TransientError

from ..protocol.errors import Failed
from ..store import MatrixStore

PNG = "image/png"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
UPLOADED = "upload"  # the store's kind for an upload whose event is not out yet


def png_size(image: bytes) -> tuple[int, int]:
    """Width and height from the PNG's header (its IHDR chunk comes first)."""
    if image[:8] != PNG_SIGNATURE or image[12:16] != b"IHDR":
        raise PermanentError("matrix: the picture is no PNG")
    width, height = struct.unpack(">II", image[16:24])
    return int(width), int(height)


def image_content(picture: Picture, uploaded: dict[str, Any]) -> dict[str, Any]:
    """The `m.image` event's content for an upload (`uploaded`: its `url`, or its `file` in
    an encrypted room)."""
    width, height = png_size(picture.image)
    info = {"mimetype": PNG, "size": len(picture.image), "w": width, "h": height}
    body: dict[str, Any] = {"msgtype": "m.image", "body": picture.text or picture.name,
                            "filename": picture.name, "info": info, "m.mentions": {}}
    body.update(uploaded)
    return body


async def upload(client: AsyncClient, store: MatrixStore, picture: Picture,
                 encrypted: bool) -> dict[str, Any]:
    """The picture in the media repository: {"url": mxc} or, encrypted, {"file": {...}}; an
    upload made before (a retried send) is used again."""
    key = str(picture.outbox_id)
    kept = await store.load(UPLOADED, key)
    if isinstance(kept, dict) and ("file" in kept) == encrypted:
        return kept
    response, keys = await client.upload(io.BytesIO(picture.image), content_type=PNG,
                                         filename=picture.name, encrypt=encrypted,
                                         filesize=len(picture.image))
    if isinstance(response, ErrorResponse):
        raise Failed(response)
    if not isinstance(response, UploadResponse) or not str(response.content_uri).startswith("mxc://"):
        raise TransientError(f"matrix: the upload returned no mxc URL: {response}")
    uploaded: dict[str, Any]
    if encrypted:
        assert keys is not None
        uploaded = {"file": {**keys, "url": response.content_uri, "mimetype": PNG}}
    else:
        uploaded = {"url": response.content_uri}
    await store.save(uploaded, UPLOADED, key)
    return uploaded


async def sent(store: MatrixStore, picture: Picture) -> None:
    """The event is out: its upload need not be kept."""
    await store.drop(UPLOADED, str(picture.outbox_id))

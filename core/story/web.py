"""The archive pages on the bot's HTTP server (beside /healthz and /metrics): `/games/ID` is a
finished game's page in its chat's language (`?lang=de|ru|en` for another), `/games/ID.png`
its picture. Anything else, a running game included, answers the same bare 404."""

from __future__ import annotations

from aiohttp import web

from .archive import ARCHIVE_LOCALES, archived
from .page import archive_page
from .picture import png

NOT_FOUND = "not found\n"


def add_archive_routes(app: web.Application) -> None:
    app.router.add_get(r"/games/{game_id:\d+}", _page)
    app.router.add_get(r"/games/{game_id:\d+}.png", _picture)


def _locale(request: web.Request, default: str) -> str:
    asked = request.query.get("lang", "")
    return asked if asked in ARCHIVE_LOCALES else default


async def _page(request: web.Request) -> web.Response:
    found = await archived(int(request.match_info["game_id"]))
    if found is None:
        return web.Response(status=404, text=NOT_FOUND)
    html = archive_page(found.story, _locale(request, found.locale), found.team_chats)
    return web.Response(text=html, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache"})


async def _picture(request: web.Request) -> web.Response:
    found = await archived(int(request.match_info["game_id"]))
    if found is None:
        return web.Response(status=404, text=NOT_FOUND)
    return web.Response(body=png(found.story, _locale(request, found.locale)),
                        content_type="image/png", headers={"Cache-Control": "no-cache"})

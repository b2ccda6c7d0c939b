"""The archive pages on the bot's HTTP server (beside /healthz and /metrics): `/games/TOKEN` is
a finished game's page in its chat's language (`?lang=de|ru|en` for another), `/games/
TOKEN.png` its picture; the token is the game's random archive token (archive.py), never its
id. Anything else, a game id, a running game, answers the same bare 404."""

from __future__ import annotations

from aiohttp import web

from .archive import ARCHIVE_LOCALES, archived_by_token
from .page import archive_page
from .picture import png

NOT_FOUND = "not found\n"


def add_archive_routes(app: web.Application) -> None:
    app.router.add_get(r"/games/{token:[A-Za-z0-9_-]+}", _page)
    app.router.add_get(r"/games/{token:[A-Za-z0-9_-]+}.png", _picture)


def _locale(request: web.Request, default: str) -> str:
    asked = request.query.get("lang", "")
    return asked if asked in ARCHIVE_LOCALES else default


async def _page(request: web.Request) -> web.Response:
    found = await archived_by_token(request.match_info["token"])
    if found is None:
        return web.Response(status=404, text=NOT_FOUND)
    html = archive_page(found.story, _locale(request, found.locale), found.team_chats)
    return web.Response(text=html, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-cache"})


async def _picture(request: web.Request) -> web.Response:
    found = await archived_by_token(request.match_info["token"])
    if found is None:
        return web.Response(status=404, text=NOT_FOUND)
    return web.Response(body=png(found.story, _locale(request, found.locale)),
                        content_type="image/png", headers={"Cache-Control": "no-cache"})

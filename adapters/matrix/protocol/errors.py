"""nio's error responses and transport failures as the outbox understands them."""

from __future__ import annotations

import asyncio

from aiohttp import ClientError
from nio import ErrorResponse

from core.service import ChatLost, LostReason, PermanentError, TransientError, Unreachable

NETWORK_ERRORS = (ClientError, TimeoutError, asyncio.TimeoutError, ConnectionError)
TRANSIENT_STATUS = (408, 429)  # a request timeout, a rate limit: client errors that pass


def http_status(response: ErrorResponse) -> int | None:
    transport = getattr(response, "transport_response", None)
    status = getattr(transport, "status", None)
    return status if isinstance(status, int) else None


def is_rate_limited(response: ErrorResponse) -> bool:
    return response.status_code == "M_LIMIT_EXCEEDED" or http_status(response) == 429


def is_forbidden(response: ErrorResponse) -> bool:
    return response.status_code == "M_FORBIDDEN" or http_status(response) == 403


def translate(response: ErrorResponse, private: bool, lost: LostReason | None = None) -> Exception:
    """M_LIMIT_EXCEEDED waits `retry_after_ms`; a forbidden private room means the person
    cannot be reached, a forbidden game room (`lost` says why: "removed", "silenced") that
    the bot lost it, and its game pauses; other client errors never work, except a timeout
    (408) and a rate limit without M_LIMIT_EXCEEDED (429); server errors (a homeserver
    down behind its proxy: 502, 503, 504) work once it is back, however long that takes."""
    if is_rate_limited(response):
        retry = response.retry_after_ms
        return TransientError(str(response),
                              retry_after=retry / 1000 if retry else None)
    if is_forbidden(response):
        if private:
            return Unreachable(str(response))
        return ChatLost(str(response), lost) if lost else PermanentError(str(response))
    status = http_status(response)
    if status is not None and 400 <= status < 500 and status not in TRANSIENT_STATUS:
        return PermanentError(str(response))
    return TransientError(str(response))  # a server error, or no answer at all


class Failed(Exception):
    """A request answered with an error response (carried for `translate`)."""

    def __init__(self, response: ErrorResponse) -> None:
        super().__init__(str(response))
        self.response = response


def network(err: BaseException) -> TransientError:
    return TransientError(f"{type(err).__name__}: {err}")

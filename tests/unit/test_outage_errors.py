"""Which platform failures an outage is made of (retried until the platform answers) and
which never work (given up, the host told): the adapters' classification, and the
back-off's shape."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
import pytest
from nio import ErrorResponse
from telegram.error import BadRequest, Forbidden, NetworkError, TimedOut

from adapters.matrix.protocol.errors import translate
from adapters.telegram.errors import translate_error
from core.service import PermanentError, TransientError, UnknownOutcome, Unreachable
from core.service.delivery.outage import backoff


def answered(status: int, code: str = "M_UNKNOWN") -> ErrorResponse:
    response = ErrorResponse("failed", code)
    response.transport_response = SimpleNamespace(status=status)
    return response


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_matrix_timeouts_rate_limits_and_server_errors_pass(status):
    assert type(translate(answered(status), private=False)) is TransientError


@pytest.mark.parametrize("status", [400, 404, 413])
def test_matrix_client_errors_never_work(status):
    assert type(translate(answered(status), private=False)) is PermanentError


def timed_out(cause: Exception) -> TimedOut:
    try:
        raise TimedOut() from cause
    except TimedOut as err:
        return err


def test_telegram_a_timeout_before_the_request_left_is_retried_even_for_a_new_message():
    for cause in (httpx.ConnectTimeout("connect"), httpx.PoolTimeout("pool")):
        assert type(translate_error(timed_out(cause), False, posting=True)) is TransientError
    read = timed_out(httpx.ReadTimeout("read"))  # it may have arrived: never posted again
    assert type(translate_error(read, False, posting=True)) is UnknownOutcome
    assert type(translate_error(read, False, posting=False)) is TransientError  # an edit


def test_telegram_server_and_network_errors_pass_refusals_do_not():
    assert type(translate_error(NetworkError("Bad Gateway"), False)) is TransientError
    assert type(translate_error(NetworkError("httpx.ConnectError: refused"), True)) \
        is TransientError
    assert type(translate_error(Forbidden("bot was blocked by the user"), True)) is Unreachable
    assert type(translate_error(BadRequest("message is too long"), True)) is PermanentError


def test_the_back_off_doubles_from_two_seconds_to_a_minute():
    assert [backoff(n) for n in range(1, 9)] == [2, 4, 8, 16, 32, 60, 60, 60]
    assert backoff(10_000) == 60

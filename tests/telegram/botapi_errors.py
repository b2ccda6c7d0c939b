"""Bot API error replies, with the descriptions and `parameters` Telegram sends.

Why a module of its own: the fake raises these from many places (request validation, chat
checks, the methods), and tests inject them with `FakeBotAPI.fail_next(method, Errors.x())`.
The texts are the real server's (github.com/tdlib/telegram-bot-api, Client.cpp, and the
Telegram errors it passes through), because bots and PTB match on them: PTB maps 400 to
BadRequest, 403 to Forbidden, 409 to Conflict, 401/404 to InvalidToken, other codes to
NetworkError, and looks at `parameters` first: `migrate_to_chat_id` raises ChatMigrated,
`retry_after` raises RetryAfter, whatever the status (telegram/request/_baserequest.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class BotAPIError(Exception):
    """A Bot API error reply: HTTP status `error_code` and Telegram's error body
    {"ok": false, "error_code", "description", "parameters"?}.

    `violation` marks errors that only a malformed request gets (a missing or mistyped
    parameter, a broken limit): the fake records those in `FakeBotAPI.violations` as well."""

    def __init__(
        self,
        error_code: int,
        description: str,
        retry_after: int | None = None,
        parameters: dict[str, Any] | None = None,
        *,
        violation: bool = False,
    ) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters: dict[str, Any] = dict(parameters or {})
        if retry_after is not None:
            self.parameters["retry_after"] = retry_after
        self.violation = violation

    @property
    def retry_after(self) -> int | None:
        return self.parameters.get("retry_after")

    @property
    def migrate_to_chat_id(self) -> int | None:
        return self.parameters.get("migrate_to_chat_id")

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = dict(self.parameters)
        return body

    def copy(self) -> BotAPIError:
        return BotAPIError(
            self.error_code, self.description, parameters=self.parameters,
            violation=self.violation,
        )


def bad(description: str, *, violation: bool = False) -> BotAPIError:
    """400 "Bad Request: <description>"."""
    return BotAPIError(400, f"Bad Request: {description}", violation=violation)


def forbidden(description: str) -> BotAPIError:
    """403 "Forbidden: <description>"."""
    return BotAPIError(403, f"Forbidden: {description}")


@dataclass(frozen=True)
class ApiError:
    """One rejected call, kept so tests can assert what the bot ran into."""

    method: str
    params: dict[str, Any]
    error_code: int
    description: str
    retry_after: int | None = None
    parameters: dict[str, Any] = field(default_factory=dict)


NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


def _chat_kind(supergroup: bool | str) -> str:
    if isinstance(supergroup, str):
        return supergroup
    return "supergroup" if supergroup else "group"


class Errors:
    """Factories for the errors Telegram answers in the situations a bot must survive. Each
    call makes a fresh BotAPIError, for `FakeBotAPI.fail_next(method, Errors.x(...))`; the fake
    itself answers with the same texts when the situation really happens in its world."""

    @staticmethod
    def chat_migrated(new_chat_id: int) -> BotAPIError:
        """A basic group became a supergroup: PTB raises ChatMigrated(new_chat_id)."""
        return BotAPIError(
            400, "Bad Request: group chat was upgraded to a supergroup chat",
            parameters={"migrate_to_chat_id": new_chat_id},
        )

    @staticmethod
    def bot_kicked(supergroup: bool | str = True) -> BotAPIError:
        """The bot was banned from the group (kind: True/"supergroup", False/"group",
        "channel")."""
        return forbidden(f"bot was kicked from the {_chat_kind(supergroup)} chat")

    @staticmethod
    def not_a_member(supergroup: bool | str = True) -> BotAPIError:
        """The bot left or was removed (not banned)."""
        return forbidden(f"bot is not a member of the {_chat_kind(supergroup)} chat")

    @staticmethod
    def blocked_by_user() -> BotAPIError:
        return forbidden("bot was blocked by the user")

    @staticmethod
    def cant_initiate() -> BotAPIError:
        """A private chat the user never opened (never pressed Start)."""
        return forbidden("bot can't initiate conversation with a user")

    @staticmethod
    def user_deactivated() -> BotAPIError:
        return BotAPIError(403, "Forbidden: user is deactivated")

    @staticmethod
    def no_rights_to_send(what: str = "text messages") -> BotAPIError:
        """The bot is restricted (or the chat's default permissions forbid it)."""
        return bad(f"not enough rights to send {what} to the chat")

    @staticmethod
    def topic_closed() -> BotAPIError:
        return bad("TOPIC_CLOSED")

    @staticmethod
    def thread_not_found() -> BotAPIError:
        """The forum topic does not exist (or was deleted)."""
        return bad("message thread not found")

    @staticmethod
    def cant_be_edited() -> BotAPIError:
        return bad("message can't be edited")

    @staticmethod
    def not_modified() -> BotAPIError:
        return bad(NOT_MODIFIED)

    @staticmethod
    def edit_not_found() -> BotAPIError:
        return bad("message to edit not found")

    @staticmethod
    def delete_not_found() -> BotAPIError:
        return bad("message to delete not found")

    @staticmethod
    def reply_not_found() -> BotAPIError:
        return bad("message to be replied not found")

    @staticmethod
    def cant_be_deleted() -> BotAPIError:
        return bad("message can't be deleted")

    @staticmethod
    def chat_not_found() -> BotAPIError:
        return bad("chat not found")

    @staticmethod
    def query_too_old() -> BotAPIError:
        """answerCallbackQuery too late, twice, or for an unknown query id."""
        return bad(QUERY_TOO_OLD)

    @staticmethod
    def flood(retry_after: int = 5) -> BotAPIError:
        """429 flood control: PTB raises RetryAfter(retry_after)."""
        return BotAPIError(
            429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after
        )

    @staticmethod
    def conflict_polling() -> BotAPIError:
        return BotAPIError(
            409,
            "Conflict: terminated by other getUpdates request; "
            "make sure that only one bot instance is running",
        )

    @staticmethod
    def conflict_webhook() -> BotAPIError:
        return BotAPIError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first",
        )

    @staticmethod
    def server_error() -> BotAPIError:
        """500: PTB raises NetworkError."""
        return BotAPIError(500, "Internal Server Error")

    @staticmethod
    def bad_gateway() -> BotAPIError:
        """502, what Telegram's front answers during outages: PTB raises NetworkError."""
        return BotAPIError(502, "Bad Gateway")

    @staticmethod
    def unauthorized() -> BotAPIError:
        return BotAPIError(401, "Unauthorized")


__all__ = ["NOT_MODIFIED", "QUERY_TOO_OLD", "ApiError", "BotAPIError", "Errors", "bad",
           "forbidden"]

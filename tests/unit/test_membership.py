"""Each adapter's reading of people leaving a game's chat or coming back (pure): a Matrix
`m.room.member` event, a Telegram `chat_member` update or its service messages, as the
service's `MemberLeft` / `MemberBack`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from telegram import (
    Chat,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberUpdated,
    Message,
    User,
)

from adapters.matrix.protocol.members import membership_news
from adapters.telegram.incoming import left_or_back, member_news
from core.service import ChatRef, MemberBack, MemberLeft, UserRef

BOT, ANN, HOST = "@bot:hs", "@ann:hs", "@host:hs"
ROOM = "!game:hs"


def member(user: str, now: str, before: str | None, sender: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "m.room.member", "state_key": user, "event_id": "$e",
                             "sender": sender or user, "content": {"membership": now}}
    if before is not None:
        event["unsigned"] = {"prev_content": {"membership": before}}
    return event


def test_matrix_a_leave_a_kick_a_ban_and_a_return():
    left = MemberLeft("matrix", "$e", ChatRef(ROOM), UserRef(ANN))
    assert membership_news(ROOM, member(ANN, "leave", "join"), BOT) == left
    kicked = MemberLeft("matrix", "$e", ChatRef(ROOM), UserRef(ANN), kicked=True)
    assert membership_news(ROOM, member(ANN, "leave", "join", HOST), BOT) == kicked
    assert membership_news(ROOM, member(ANN, "ban", "join", HOST), BOT) == kicked
    assert membership_news(ROOM, member(ANN, "join", "leave"), BOT) == MemberBack(
        "matrix", "$e", ChatRef(ROOM), UserRef(ANN))


def test_matrix_what_is_no_departure():
    assert membership_news(ROOM, member(ANN, "leave", "invite"), BOT) is None  # rejected invite
    assert membership_news(ROOM, member(ANN, "ban", "leave", HOST), BOT) is None  # gone already
    assert membership_news(ROOM, member(ANN, "join", "join"), BOT) is None  # a new name
    assert membership_news(ROOM, member(BOT, "leave", "join", HOST), BOT) is None  # the bot's
    assert membership_news(ROOM, {"type": "m.room.message", "event_id": "$m"}, BOT) is None


GROUP = Chat(-100123, Chat.SUPERGROUP, title="Ponyville")
ANNA = User(11, "Ann", False)
ADMIN = User(12, "Host", False)
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def changed(old: Any, new: Any, by: User) -> ChatMemberUpdated:
    return ChatMemberUpdated(GROUP, by, WHEN, old, new)


def test_telegram_chat_member_updates():
    gone = changed(ChatMemberMember(ANNA), ChatMemberLeft(ANNA), ANNA)
    assert member_news(gone, 7) == MemberLeft("telegram", "7", ChatRef("-100123"),
                                              UserRef("11"))
    removed = changed(ChatMemberMember(ANNA), ChatMemberLeft(ANNA), ADMIN)
    banned = changed(ChatMemberMember(ANNA), ChatMemberBanned(ANNA, WHEN), ADMIN)
    assert member_news(removed, 8).kicked and member_news(banned, 9).kicked
    back = changed(ChatMemberLeft(ANNA), ChatMemberMember(ANNA), ANNA)
    assert member_news(back, 10) == MemberBack("telegram", "10", ChatRef("-100123"),
                                               UserRef("11"))
    unbanned = changed(ChatMemberBanned(ANNA, WHEN), ChatMemberLeft(ANNA), ADMIN)
    assert member_news(unbanned, 11) is None


def test_telegram_service_messages():
    left = Message(5, WHEN, GROUP, from_user=ANNA, left_chat_member=ANNA)
    assert left_or_back(left) == [MemberLeft("telegram", "m-100123:5", ChatRef("-100123"),
                                             UserRef("11"))]
    kicked = Message(6, WHEN, GROUP, from_user=ADMIN, left_chat_member=ANNA)
    assert [m.kicked for m in left_or_back(kicked)] == [True]
    bot = User(99, "Nightfall", True)
    joined = Message(7, WHEN, GROUP, from_user=ANNA, new_chat_members=(ANNA, bot))
    assert left_or_back(joined) == [MemberBack("telegram", "m-100123:7:11", ChatRef("-100123"),
                                               UserRef("11"))]

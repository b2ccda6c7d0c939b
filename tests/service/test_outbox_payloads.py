"""The outbox stores one typed payload per row and hands each kind to the adapter's own
method; rows written by the previous version (free dicts: `more`, `buttons`, `replace`,
`seq`, `silence`, `team`) still decode and are delivered as the kinds they were."""

from __future__ import annotations

from core.engine.log_codec import encode
from core.engine.messages import NOTED, Purpose, Ref
from core.service import (
    Ballot,
    ButtonOut,
    ChatRef,
    Keyboard,
    Post,
    RateLimits,
    Reader,
    Silence,
    TeamKey,
    TeamRoom,
    UserRef,
    Wording,
)
from core.service.delivery.deliverer import Deliverer
from core.service.messages import texts
from core.service.messages.payloads import (
    BallotPayload,
    KeyboardPayload,
    NameLabel,
    PostPayload,
    SilencePayload,
    StoredButton,
    TeamPayload,
    TextLabel,
    WordsLabel,
    from_json,
    label_from_json,
    label_to_json,
    part,
    to_json,
)
from core.service.ports.clock import ManualClock
from core.storage.db import open_db
from core.storage.models import Chat, Identity, Outbox


class Recorder:
    """A platform that keeps what each of its methods was handed."""

    platform = "test"
    limits = RateLimits()
    wording = Wording()

    def __init__(self) -> None:
        self.handed: list[object] = []

    async def send_post(self, post: Post) -> None:
        self.handed.append(post)

    async def send_ballot(self, ballot: Ballot) -> None:
        self.handed.append(ballot)

    async def send_keyboard(self, keyboard: Keyboard) -> None:
        self.handed.append(keyboard)

    async def silence(self, order: Silence) -> None:
        self.handed.append(order)

    async def team(self, order: TeamRoom) -> None:
        self.handed.append(order)


def test_every_kind_survives_the_codec():
    withdraw = StoredButton(TextLabel(texts.WITHDRAW_BUTTON), "t1")
    join = StoredButton(TextLabel(texts.JOIN_BUTTON), "t2", start=True)
    for payload in (
        PostPayload((part(texts.VOTE_CLOSED), part(texts.TALLY, tally="Ann (2)")),
                    replace="tally-1-3", urgent=True, seq=4, locale="de"),
        PostPayload((part(NOTED),), seq=5, purpose=Purpose.NOTED),
        PostPayload((part(texts.REMIND_VOTE, left="1 min"),), urgent=True, asks=3, window=4),
        KeyboardPayload((part(texts.CHOICES_CLOSED),), (withdraw,), "choices-1-4-0",
                        urgent=True, asks=3, window=4),
        BallotPayload((part(texts.VOTE_PROMPT),), (withdraw,), "ballot-1-3", urgent=True),
        BallotPayload((part(texts.VOTE_CLOSED),), (), "ballot-1-3"),
        KeyboardPayload((part(texts.SIGNUP_OPEN, host="Ann", ruleset="x"),), (join,),
                        "signup-1"),
        SilencePayload("u1", muted=True),
        TeamPayload("1/changelings", "Changelings", "Talk here.", ("u1", "u2"), closed=True),
    ):
        assert from_json(to_json(payload)) == payload


def test_each_kind_of_button_label_is_stored_as_labels_always_were():
    """A label is typed in memory; stored, it is the JSON it always was, and read back the
    same type."""
    action_on = TextLabel(texts.ACTION_ON, encode({"action": Ref("action", "check"),
                                                   "name": Ref("player", "p1")}))
    for label, stored in (
            (NameLabel(Ref("player", "p2")), {"$ref": ["player", "p2"]}),
            (TextLabel(texts.PASS_BUTTON), {"key": texts.PASS_BUTTON}),
            (action_on, {"key": texts.ACTION_ON, "params": {
                "action": {"$ref": ["action", "check"]}, "name": {"$ref": ["player", "p1"]}}}),
            (WordsLabel("Bob"), {"text": "Bob"})):
        assert label_to_json(label) == stored
        assert label_from_json(stored) == label


def test_only_a_message_told_for_more_than_its_words_stores_its_purpose():
    """A plain row is stored as rows always were; a "noted" one says so, for the recap."""
    plain = to_json(PostPayload((part(texts.VOTE_CLOSED),), seq=4))
    assert "purpose" not in plain
    assert from_json(plain) == PostPayload((part(texts.VOTE_CLOSED),), seq=4)
    assert to_json(PostPayload((part(NOTED),), seq=5, purpose=Purpose.NOTED))["purpose"] \
        == "noted"


LEGACY = [  # as the previous version stored them
    ("g", False, {"key": texts.VOTE_PROMPT, "plural": None, "count": None, "params": {},
                  "urgent": True, "replace": "ballot-1-3",
                  "buttons": [{"label": {"key": texts.WITHDRAW_BUTTON}, "token": "t1",
                               "start": False}]}),
    ("g", False, {"key": texts.VOTE_CLOSED, "plural": None, "count": None, "params": {},
                  "more": [{"key": texts.TALLY_FINAL, "plural": None, "count": None,
                            "params": {"tally": "Bob (3)"}}],
                  "replace": "ballot-1-2", "buttons": []}),
    ("u1", True, {"key": texts.CHOICES_CLOSED, "plural": None, "count": None, "params": {},
                  "replace": "choices-1-3-0", "urgent": True,
                  "buttons": [{"label": {"text": "Bob"}, "token": "t2", "start": False}]}),
    ("u1", True, {"key": texts.OPEN_PRIVATE_BUTTON, "plural": None, "count": None,
                  "params": {}, "seq": 0, "buttons": []}),
    ("g", False, {"silence": {"user": "u1", "muted": True}}),
    ("g", False, {"team": {"key": "1/team", "title": texts.VOTE_CLOSED, "about": "",
                           "members": ["u1"], "closed": False}}),
]


async def test_rows_stored_by_the_previous_version_are_still_delivered(db_url):
    await open_db(db_url)
    await Chat.create(platform="test", ref="g")
    ann = await Identity.create(platform="test", ref="u1", name="Ann")
    for chat_ref, private, payload in LEGACY:
        await Outbox.create(platform="test", chat_ref=chat_ref, private=private,
                            identity=ann if private or "silence" in payload else None,
                            payload=payload)
    adapter = Recorder()
    assert await Deliverer({"test": adapter}, ManualClock()).deliver_due() == len(LEGACY)
    group, reader = ChatRef("g"), Reader(UserRef("u1"), "Ann")
    ids = [row.id for row in await Outbox.all().order_by("id")]
    assert adapter.handed == [
        Ballot(ids[0], group, texts.VOTE_PROMPT, (ButtonOut(texts.WITHDRAW_BUTTON, "t1"),),
               "ballot-1-3", urgent=True),
        Ballot(ids[1], group, f"{texts.VOTE_CLOSED}\n\nFinal count: Bob (3).", (),
               "ballot-1-2"),
        Keyboard(ids[2], reader, texts.CHOICES_CLOSED, (ButtonOut("Bob", "t2"),),
                 "choices-1-3-0", urgent=True),
        Post(ids[3], reader, texts.OPEN_PRIVATE_BUTTON),
        Silence(ids[4], group, UserRef("u1"), muted=True),
        TeamRoom(ids[5], group, TeamKey(1, "team"), texts.VOTE_CLOSED, "", (UserRef("u1"),)),
    ]
    recap_source = from_json((await Outbox.get(id=ids[3])).payload)
    assert isinstance(recap_source, PostPayload) and recap_source.seq == 0  # a role card


def test_a_chat_ref_names_a_topic_and_reads_back_from_its_stored_text():
    topic = ChatRef("-100123", "7")
    assert str(topic) == "-100123#7" and ChatRef.parse(str(topic)) == topic
    assert topic.whole == ChatRef.parse("-100123") == ChatRef("-100123")
    assert str(ChatRef("!room:example.org")) == "!room:example.org"

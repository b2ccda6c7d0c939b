"""The outbox codec: every kind of parameter the engine and the service emit comes back from its
JSON form unchanged, whatever the parameter is called and whatever free text it holds."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from core.engine.log_codec import decode, encode, is_ref
from core.engine.messages import Ref, Tally, Text, WithRole, counted
from core.engine.phase import Phase

# what a placeholder may be called: any identifier, the tags' old bare words included
NAMES = st.one_of(st.sampled_from(["text", "ref", "list", "key", "count", "name"]),
                  st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True))
FREE_TEXT = st.one_of(st.sampled_from(["", "Dear", "Dear Cid, I know.", "x" * 4000]),
                      st.text(max_size=60))
REFS = st.builds(Ref, st.sampled_from(["player", "role", "side", "cause", "action", "status"]),
                 st.text(min_size=1, max_size=12))
PLAIN = st.one_of(FREE_TEXT, st.integers(-5, 10_000), st.none(), st.booleans(), REFS)
VALUES = st.recursive(
    PLAIN,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(tuple),
        st.builds(lambda key, params: Text(key, params), FREE_TEXT,
                  st.dictionaries(NAMES, inner, max_size=3)),
        st.builds(lambda n: counted(("{count} vote", "{count} votes"), n),
                  st.sampled_from([0, 1, 2, 5, 21]))),
    max_leaves=8)


@given(st.dictionaries(NAMES, VALUES, max_size=5))
def test_every_parameter_survives_the_round_trip(params):
    stored = json.loads(json.dumps(encode(params)))  # as the outbox row keeps it
    assert decode(stored) == params


def test_a_free_text_parameter_named_text_stays_a_free_text():
    # the host's /announce, the Mare Do Well's letter, an abduction's witness text
    for words in ("", "Ouch", "Hello", "я тут", "x" * 4000):
        assert decode(json.loads(json.dumps(encode({"text": words})))) == {"text": words}
    assert decode(encode({"ref": "Bob", "list": "a, b"})) == {"ref": "Bob", "list": "a, b"}


def test_a_nested_text_keeps_its_plural_and_count():
    phrase = counted(("{count} penalty vote", "{count} penalty votes"), 2)
    sentence = {"votes": phrase, "name": Ref("player", "p3"), "text": "abc"}
    assert decode(encode(sentence)) == sentence


def test_a_phase_in_the_event_log_is_its_name():
    """The event log keeps phases as the names hosts and tools read (`nightfall export`)."""
    assert encode({"phase": Phase.of("night", 2, "dusk")}) == {"phase": "night 2 dusk"}


def test_a_button_label_naming_a_player_is_told_from_a_label_in_words():
    assert is_ref(encode(Ref("player", "p1")))
    assert not is_ref({"key": "Join"})
    assert not is_ref({"text": "Ref"})


def test_values_an_earlier_version_stored_are_still_read():
    """Outbox rows and button labels written before the tags wait in a database that is
    upgraded; their bare-word forms are read by their exact shapes only."""
    assert decode({"ref": ["player", "p2"]}) == Ref("player", "p2")
    assert decode({"list": [{"ref": ["role", "shield"]}]}) == (Ref("role", "shield"),)
    old_text = {"text": ["{count} vote", "{count} votes", 2, {"count": 2}]}
    assert decode(old_text) == Text("{count} vote", {"count": 2}, "{count} votes", 2)
    assert decode({"text": "Dear"}) == {"text": "Dear"}


def test_a_tally_and_a_name_with_its_role_are_stored_as_lists_and_read_back_typed():
    """Their stored form is the list of two that rows have always held; read back, each is its
    own type again, so the renderer never looks at a list's shape."""
    ann, bob, herbalist = Ref("player", "p1"), Ref("player", "p2"), Ref("role", "herbalist")
    params = {"tally": (Tally(ann, 3), Tally(bob, 1)), "names": (ann, WithRole(bob, herbalist))}
    stored = json.loads(json.dumps(encode(params)))
    assert stored["tally"] == {"$list": [{"$list": [{"$ref": ["player", "p1"]}, 3]},
                                         {"$list": [{"$ref": ["player", "p2"]}, 1]}]}
    decoded = decode(stored)
    assert [type(entry) for entry in decoded["tally"]] == [Tally, Tally]
    assert [type(entry) for entry in decoded["names"]] == [Ref, WithRole]
    assert type(decode({"list": [{"ref": ["player", "p1"]}, 2]})) is Tally  # an older row
    assert type(decode(encode((ann, bob)))) is tuple  # two names are a list of two names

"""What the bot tells people to do on their platform, as topics the adapters word.

The service knows *that* a person must open the private chat, join, give the bot a right or
name a newcomer; only the adapter in use knows *how* on its platform (press a button and
then Start on Telegram; react with 1️⃣ and accept an invitation on Matrix; write `Ann> …` in
the console). So a service text names the topic as a reference, `howto(HowTo.…)`, in its own
placeholder, and each adapter gives one gettext message per topic (its `Wording.howto`, a
module of `N_` texts in its package, extracted into the `nightfall` domain, or into a domain
of its own for an adapter in a package of its own, see `core.engine.ruleset.Catalog`): whole
sentences, so a translator sees each platform's instruction in one piece. The reference is
rendered when the message is delivered, where the adapter is known (`rendering.render`,
`personal_text`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import NamedTuple

from core.engine.messages import Ref
from core.engine.ruleset import Catalog

KIND = "howto"  # the `Ref` kind of a how-to: its value is the topic


class HowTo(StrEnum):
    """A platform how-to, each rendered as one or more whole sentences."""

    #: the sign-up post: how to join (and where the role will come)
    JOIN = "join"
    #: the bot cannot write to a player privately: how he opens that chat
    OPEN_PRIVATE = "open_private"
    #: /help in private: how night actions are sent
    ACT_PRIVATELY = "act_privately"
    #: the host: what the bot needs to mute the dead (and to let them speak again)
    MUTE_RIGHTS = "mute_rights"
    #: the host and the player: why nobody can mute this player there, what the bot does
    MUTE_NEVER = "mute_never"
    #: the host: the bot was removed from the group, how to bring it back and go on
    READD = "readd"
    #: the host: the bot may no longer write in the group, how to give that back and go on
    SEND_RIGHTS = "send_rights"
    #: the closed vote: which votes its count took (a Matrix poll counts its own answers)
    VOTE_COUNT = "vote_count"
    #: the host's /replace named nobody the bot knows: how to name the newcomer
    NAME_NEWCOMER = "name_newcomer"
    #: a player left the game's group mid-game: how he comes back within the grace time
    REJOIN = "rejoin"
    #: the welcome of a private /start: how a host brings the bot into his group
    HOST_SETUP = "host_setup"
    #: the greeting in a new group: how the bot gets the right to delete its messages
    DELETE_RIGHTS = "delete_rights"
    #: the greeting in a new group: how the bot gets to read the group's talk
    READ_RIGHTS = "read_rights"


def howto(topic: HowTo) -> Ref:
    """The typed reference a service text carries for a topic (see the module's doc)."""
    return Ref(KIND, topic.value)


class Wording(NamedTuple):
    """How a platform's texts are written: its command prefix ("!" on Matrix, see
    `i18n.with_prefix`), its how-to texts (msgids by topic) and where they are translated
    (`catalog`; None: the core's `nightfall` domain). `by_link`: the bot may not write
    first to a person, who opens the private chat by a button's link (Telegram): the host is
    asked to open it when he opens a game, and the group's help offers its parts as such
    links."""

    prefix: str = "/"
    howto: Mapping[HowTo, str] = {}
    catalog: Catalog | None = None
    by_link: bool = False

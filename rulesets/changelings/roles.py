"""The pony game's roles as data: sides, actions, and the role cards players receive.

Action stages: `dusk` and `dawn` are the two night windows (rules §4), `election`, `vote` and
`reactions` the day windows. Dawn-step actions may already be sent at dusk (the source lets the
night's actions arrive from its start), except those that need what dusk reveals.
"""

from __future__ import annotations

from core.engine.messages import N_
from core.engine.ruleset import ActionSpec, RoleSpec

PONIES, CHANGELINGS, LOVERS = "ponies", "changelings", "lovers"
SIDES = (PONIES, CHANGELINGS, LOVERS)

CAUSES = ("abducted", "banished", "pranked", "chased", "fanatic", "heartbreak", "fled", "modkill",
          "left")  # left: the player's own /flee, treated as the host's removal [decision]
# Removals by a game effect break the partner's heart (CH-LOVE); a host removal does not.
HEARTBREAKING = frozenset({"abducted", "banished", "pranked", "chased", "fanatic", "fled"})

NIGHT = frozenset({"dusk", "dawn"})
DUSK = frozenset({"dusk"})
DAWN = frozenset({"dawn"})
ANY_DAY = frozenset({"vote", "reactions"})
ALWAYS = frozenset({"election", "vote", "reactions", "dusk", "dawn"})

CHECK = ActionSpec("check", DUSK, self_ok=False)
SHIELD = ActionSpec("shield", DUSK)
ABDUCT = ActionSpec("abduct", DUSK, harmful=True, slot="team", text_max=500)
EXCHANGE = ActionSpec("exchange", DUSK, harmful=True, slot="team")
LOVE = ActionSpec("love", NIGHT, targets=2)
PREVENT = ActionSpec("prevent", DAWN, targets=0, slot="pinkie")
PRANK = ActionSpec("prank", NIGHT, self_ok=False, harmful=True, slot="pinkie")
CHASE = ActionSpec("chase", frozenset({"dawn", "reactions"}), self_ok=False, harmful=True)
FANATIC = ActionSpec("fanatic", NIGHT, targets=0)
LETTER = ActionSpec("letter", NIGHT, harmful=True, text_max=500)
FAKE = ActionSpec("fake", DUSK, targets=0, takes_role=True)
TIEBREAK = ActionSpec("tiebreak", ANY_DAY, harmful=True)
SUCCESSOR = ActionSpec("successor", ALWAYS, self_ok=False)
PASS = ActionSpec("pass", ALWAYS, targets=0)

CHANGELING_ROLES = frozenset({"changeling", "queen", "liar"})

ROLES: dict[str, RoleSpec] = {
    spec.id: spec
    for spec in (
        RoleSpec("pony", PONIES, special=False),
        RoleSpec("researcher", PONIES, (CHECK,)),
        RoleSpec("shield", PONIES, (SHIELD,)),
        RoleSpec("love_poison", PONIES, (LOVE,)),
        RoleSpec("drama_queen", PONIES),
        RoleSpec("pinkie_sense", PONIES, (PREVENT, PRANK)),
        RoleSpec("stalker", PONIES),
        RoleSpec("fanatic", PONIES, (FANATIC,)),
        RoleSpec("derpy", PONIES),
        RoleSpec("mare_do_well", PONIES, (LETTER,)),
        RoleSpec("lucky", PONIES),
        RoleSpec("confused_changeling", PONIES),
        RoleSpec("changeling", CHANGELINGS, (ABDUCT, EXCHANGE), special=False),
        RoleSpec("queen", CHANGELINGS, (ABDUCT, EXCHANGE, CHECK)),
        RoleSpec("liar", CHANGELINGS, (ABDUCT, EXCHANGE, FAKE)),
    )
}

# Pony-side special roles the liar may pretend to be (CH-LIAR).
FAKEABLE = frozenset(r.id for r in ROLES.values() if r.side == PONIES and r.special)

ROLE_CARDS: dict[str, str] = {
    "pony": N_("You are a pony. You have no power at night; by day you vote to banish the "
               "changelings hiding among you."),
    "researcher": N_("You are the Researcher. Each night you check one other player and learn "
                     "their role."),
    "shield": N_("You are the Anti-Hate-Shield. Each night you protect one player (yourself "
                 "too) from abduction and exchange, but never the same player two nights in a "
                 "row."),
    "love_poison": N_("You are the Love Poison. In the first night you pick two players who "
                      "fall in love; if one of them leaves, the other follows of a broken "
                      "heart."),
    "drama_queen": N_("You are the Drama Queen. If you are abducted or banished, you pick a "
                      "player who runs away with you."),
    "pinkie_sense": N_("You have the Pinkie Sense. At dusk you sense who will be abducted. Once "
                       "per game you may prevent an abduction you foresaw, and once per game "
                       "you may prank a player out of the game."),
    "stalker": N_("You are the Stalker. You know who the confused changeling is."),
    "fanatic": N_("You are the Fanatic. Each night you may strike: a random other player leaves "
                  "the game."),
    "derpy": N_("You are Derpy. The first time you would be banished or abducted you get "
                "away, but you lose your voice."),
    "mare_do_well": N_("You are Mare Do Well. Each night you write an anonymous letter naming a "
                       "player, who then carries extra votes in the next day's vote."),
    "lucky": N_("You are Lucky. The first time you would be abducted, pranked, chased "
                "or struck by the fanatic, someone else suffers it instead."),
    "confused_changeling": N_("You are a pony. You have no power at night; by day you vote to "
                              "banish the changelings hiding among you."),
    "changeling": N_("You are a changeling. Each night the changelings agree on one pony to "
                     "abduct; once per game you may exchange a pony instead, making them one "
                     "of you."),
    "queen": N_("You are the Queen of the changelings. Besides abducting with your team, you "
                "check one player each night and learn their role."),
    "liar": N_("You are the Liar, a changeling. Once per game you may pick a pony role that the "
               "Researcher will see when checking you."),
}

ROLE_NAMES: dict[str, str] = {
    "pony": N_("Pony"),
    "researcher": N_("Researcher"),
    "shield": N_("Anti-Hate-Shield"),
    "love_poison": N_("Love Poison"),
    "drama_queen": N_("Drama Queen"),
    "pinkie_sense": N_("Pinkie Sense"),
    "stalker": N_("Stalker"),
    "fanatic": N_("Fanatic"),
    "derpy": N_("Derpy"),
    "mare_do_well": N_("Mare Do Well"),
    "lucky": N_("Lucky"),
    "confused_changeling": N_("Confused Changeling"),
    "changeling": N_("Changeling"),
    "queen": N_("Queen"),
    "liar": N_("Liar"),
}

SIDE_NAMES = {PONIES: N_("the ponies"), CHANGELINGS: N_("the changelings"),
              LOVERS: N_("the lovers")}

CAUSE_NAMES = {
    "abducted": N_("abducted"), "banished": N_("banished"), "pranked": N_("pranked"),
    "chased": N_("chased away"), "fanatic": N_("struck by the fanatic"),
    "heartbreak": N_("died of a broken heart"), "fled": N_("fled screaming"),
    "modkill": N_("removed by the host"), "left": N_("left the game"),
}

# Plain ponies get a kind for flavour only (rules §2).
KIND_NAMES = {"earth_pony": N_("earth pony"), "unicorn": N_("unicorn"), "pegasus": N_("pegasus")}

ACTION_NAMES = {
    "check": N_("Check"), "shield": N_("Shield"), "abduct": N_("Abduct"),
    "exchange": N_("Exchange"), "love": N_("Make fall in love"), "prevent": N_("Prevent"),
    "prank": N_("Prank"), "chase": N_("Chase"), "fanatic": N_("Strike"), "letter": N_("Letter"),
    "fake": N_("Fake a role"), "tiebreak": N_("Break the tie"), "successor": N_("Successor"),
    "pass": N_("Pass"),
}

# Deadlines per window (rules §3): seconds, or a clock time in the game's time zone, or
# (clock time, minimum seconds).
PACE = {
    "quick": {"election": 180, "vote": 240, "reactions": 45, "dusk": 90, "dawn": 60},
    "forum": {"election": "19:30", "vote": "19:30", "reactions": ("20:00", 600),
              "dusk": "22:30", "dawn": "08:00"},
}

RULES_SUMMARY = N_(
    "Changelings hide among the ponies of Ponyville. Day 1 elects a mayor; then each night "
    "the changelings abduct a pony (dusk) and the night roles act (dusk and dawn), and each "
    "day everypony votes to banish a suspect. The ponies win when no changeling is left; the "
    "changelings win when they are as many as the others. A mixed pair of lovers wins if "
    "they are the last two.")

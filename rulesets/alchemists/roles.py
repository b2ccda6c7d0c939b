"""The homunculus game's roles as data: sides, actions and role cards (rules §1, §5, §6)."""

from __future__ import annotations

from core.engine.messages import N_
from core.engine.ruleset import ActionSpec, RoleSpec

TOWN, HOMUNCULI, ISHVALAN, CRIMSON, GREED = "town", "homunculi", "ishvalan", "crimson", "greed"
SIDES = (TOWN, HOMUNCULI, ISHVALAN, CRIMSON, GREED)
# Sides that may receive the Stone when it appears or passes at random (AL-STONE).
STONE_SIDES = frozenset({TOWN, ISHVALAN, CRIMSON, GREED})
HOSTILE_HOMUNCULI = frozenset({"father", "lust", "envy", "pride"})
LONERS = frozenset({ISHVALAN, CRIMSON, GREED})

CAUSES = ("killed", "absorbed", "executed", "exploded", "taken", "backfire", "poisoned", "modkill",
          "left")

NIGHT = frozenset({""})  # the single night stage (phase "night N")
DAY = frozenset({"vote", "reactions"})
ANY = NIGHT | DAY

REQUEST = ActionSpec("request", NIGHT, harmful=True)
CHOOSE = ActionSpec("choose", NIGHT, slot="father")
FATHER_KILL = ActionSpec("kill", NIGHT, self_ok=False, harmful=True, slot="father")
KILL = ActionSpec("kill", NIGHT, self_ok=False, harmful=True)
BLOCK = ActionSpec("block", NIGHT, self_ok=False, harmful=True)
COPY = ActionSpec("copy", NIGHT, targets=2)
SEARCH = ActionSpec("search", NIGHT, self_ok=False, harmful=True)
TAKE = ActionSpec("take", ANY, self_ok=False, harmful=True)
CHECK = ActionSpec("check", NIGHT, self_ok=False)
LINK = ActionSpec("link", NIGHT, targets=2)
HEAL = ActionSpec("heal", NIGHT)
PASS = ActionSpec("pass", ANY, targets=0)


def _stone(action: str, targets: int = 1, self_ok: bool = True) -> ActionSpec:
    return ActionSpec(f"stone_{action}", NIGHT, targets=targets, self_ok=self_ok, slot="stone")


STONE_ACTIONS: dict[str, ActionSpec] = {
    spec.id: spec
    for spec in (
        _stone("check", self_ok=False), _stone("kill", self_ok=False), _stone("block"),
        _stone("heal"), _stone("link", 2), _stone("copy", 2), _stone("mirror"), _stone("dome"),
        _stone("vote_minus"), _stone("vote_plus"), _stone("dodge"), _stone("compare", 2),
        ActionSpec("stone_autopsy", NIGHT, slot="stone", removed_targets=True),
    )
}

ROLES: dict[str, RoleSpec] = {
    spec.id: spec
    for spec in (
        RoleSpec("father", HOMUNCULI, (CHOOSE, FATHER_KILL)),
        RoleSpec("lust", HOMUNCULI, (REQUEST, BLOCK)),
        RoleSpec("envy", HOMUNCULI, (REQUEST, COPY)),
        RoleSpec("pride", HOMUNCULI, (REQUEST, SEARCH)),
        RoleSpec("ishvalan", ISHVALAN, (KILL,)),
        RoleSpec("crimson", CRIMSON, (SEARCH,)),
        RoleSpec("greed", GREED, (SEARCH,)),
        RoleSpec("xing", TOWN, (CHECK,)),
        RoleSpec("bodyguard", TOWN),
        RoleSpec("linker", TOWN, (LINK,)),
        RoleSpec("crystal", TOWN, (HEAL,)),
        RoleSpec("alchemist", TOWN, special=False),
    )
}

REQUIRED = ("father", "ishvalan", "xing", "crystal")
OPTIONAL = ("envy", "lust", "pride", "greed", "crimson", "linker", "bodyguard")
CANONICAL = ("father", "lust", "envy", "pride", "ishvalan", "crimson", "greed", "xing",
             "bodyguard", "linker", "crystal", "alchemist", "alchemist", "alchemist",
             "alchemist")

ROLE_NAMES = {
    "father": N_("Father"), "lust": N_("Lust"), "envy": N_("Envy"), "pride": N_("Pride"),
    "ishvalan": N_("Ishvalan"), "crimson": N_("Crimson Alchemist"), "greed": N_("Greed"),
    "xing": N_("Xing Alchemist"), "bodyguard": N_("Xing Bodyguard"),
    "linker": N_("Life-Linking Alchemist"), "crystal": N_("Crystal Alchemist"),
    "alchemist": N_("State Alchemist"),
}

ROLE_CARDS = {
    "father": N_("You are Father. Each night the homunculi bring you their requests; choose "
                 "whose request is carried out, or name the victim yourself."),
    "lust": N_("You are Lust, a homunculus. Each night you may block one player's action. "
               "Send your kill requests to Father."),
    "envy": N_("You are Envy, a homunculus. Each night you may copy another player's ability "
               "and use it on a target of your choice. Send your kill requests to Father."),
    "pride": N_("You are Pride, a homunculus. Each night you search for the Crimson Alchemist; "
                "find him and you absorb him, and whoever you name will fall with you. You "
                "take Father's place if he dies."),
    "ishvalan": N_("You are the Ishvalan. You stand alone. Each night you kill one player."),
    "crimson": N_("You are the Crimson Alchemist. You stand alone. Each night you search for "
                  "the Ishvalan; find him and he dies. If the town executes you, you explode."),
    "greed": N_("You are Greed, a rebel homunculus. No night death touches you but Father's "
                "own hand. Each night you search for the Xing Alchemist to absorb him."),
    "xing": N_("You are the Xing Alchemist. Each night you check one player: homunculus, town "
               "or loner."),
    "bodyguard": N_("You are the Xing Bodyguard. If the Xing Alchemist falls, you take his "
                    "place."),
    "linker": N_("You are the Life-Linking Alchemist. Each night you link two players: the "
                 "next day they cannot vote against each other."),
    "crystal": N_("You are the Crystal Alchemist. Each night you heal one player, yourself "
                  "included, against the night's kills."),
    "alchemist": N_("You are a State Alchemist. You have no night action. Find the homunculi "
                    "and vote them out."),
}

SIDE_NAMES = {TOWN: N_("the State Alchemists"), HOMUNCULI: N_("the homunculi"),
              ISHVALAN: N_("the Ishvalan"), CRIMSON: N_("the Crimson Alchemist"),
              GREED: N_("Greed")}

CAUSE_NAMES = {
    "killed": N_("killed"), "absorbed": N_("killed"), "executed": N_("executed"),
    "exploded": N_("caught in the explosion"), "taken": N_("taken by Pride"),
    "backfire": N_("destroyed by the Stone"), "poisoned": N_("poisoned"),
    "modkill": N_("removed by the host"), "left": N_("left the game"),
}

CHECK_NAMES = {"homunculi": N_("a homunculus"), "town": N_("a State Alchemist"),
               "loner": N_("a loner"), "same": N_("on the same side"),
               "different": N_("on different sides")}

ACTION_NAMES = {
    "request": N_("Request a kill"), "choose": N_("Choose the executor"), "kill": N_("Kill"),
    "block": N_("Block"), "copy": N_("Copy"), "search": N_("Search"), "take": N_("Take"),
    "check": N_("Check"), "link": N_("Link"), "heal": N_("Heal"), "pass": N_("Pass"),
    "stone_check": N_("Stone: check"), "stone_kill": N_("Stone: kill"),
    "stone_block": N_("Stone: block"), "stone_heal": N_("Stone: heal"),
    "stone_link": N_("Stone: link"), "stone_copy": N_("Stone: copy"),
    "stone_mirror": N_("Stone: mirror"), "stone_dome": N_("Stone: dome"),
    "stone_vote_minus": N_("Stone: void a vote"), "stone_vote_plus": N_("Stone: double a vote"),
    "stone_dodge": N_("Stone: dodge"), "stone_compare": N_("Stone: compare"),
    "stone_autopsy": N_("Stone: autopsy"),
}

# Deadlines per window (rules §3): seconds or a clock time in the game's time zone.
PACE = {
    "quick": {"night": 90, "vote": 240, "reactions": 45},
    "forum": {"night": "10:00", "vote": "20:00", "reactions": 1800},
}

RULES_SUMMARY = N_(
    "Homunculi led by Father hunt the State Alchemists; the Ishvalan, the Crimson Alchemist "
    "and Greed play alone. Each night the roles act, each day everyone must vote and the one "
    "with most votes is executed. The Philosopher's Stone appears after the first deaths and "
    "grants one more power each night, at a price.")

"""Finding rule sets and the roles added to them: the `nightfall.rulesets` entry point group,
so a community can ship its own rule set as a separate package, and `nightfall.roles`, so it
can ship a role for an installed rule set (with the role's own catalog, see
`Ruleset.role_catalogs`)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from types import ModuleType

from .ruleset import Ruleset

RULESET_ENTRY_POINTS = "nightfall.rulesets"
ROLE_ENTRY_POINTS = "nightfall.roles"


@cache
def available() -> dict[str, str]:
    """Rule set id → entry point value."""
    return {ep.name: ep.value for ep in entry_points(group=RULESET_ENTRY_POINTS)}


@cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    for ep in entry_points(group=RULESET_ENTRY_POINTS):
        if ep.name == ruleset_id:
            ruleset = ep.load()
            if not isinstance(ruleset, Ruleset):
                raise TypeError(f"entry point {ep.value} is not a Ruleset")
            return ruleset
    raise KeyError(ruleset_id)


def extra_roles(ruleset_id: str) -> list[ModuleType]:
    """Import the role modules that packages of their own add to a rule set: the entry points
    of `nightfall.roles` named `<rule set id>.<role id>`, each a module that registers its role
    the way the rule set's own role modules do (the rule set's `roles/` package asks, after its
    own roles). In the order of their names, so the order does not depend on the installation."""
    found = sorted((ep for ep in entry_points(group=ROLE_ENTRY_POINTS)
                    if ep.name.partition(".")[0] == ruleset_id), key=lambda ep: ep.name)
    modules = [ep.load() for ep in found]
    for ep, module in zip(found, modules, strict=True):
        if not isinstance(module, ModuleType):
            raise TypeError(f"entry point {ep.value} is not a module")
    return modules

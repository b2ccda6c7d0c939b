"""The homunculus game's roles, one module each (rules §5). Importing a module registers its
role, its handlers at the night's steps and its hooks; the order below is the order of the
role list (and of everything that iterates it) and of the hooks that answer together, so it is
part of the rules and stays fixed. The roles that packages of their own add come after them
(`core.engine.registry.extra_roles`: entry points of `nightfall.roles` named
`alchemists.<role id>`). `_template.py` shows how to write a new role; modules whose names
start with `_` are helpers, not roles."""

from __future__ import annotations

from importlib import import_module

from core.engine.registry import extra_roles

from ..hooks import ROLES

# The role modules, in the rules' order (an import sorter must not reorder them, hence a list).
ORDER = ("father", "lust", "envy", "pride", "ishvalan", "crimson", "greed", "xing", "bodyguard",
         "linker", "crystal", "alchemist")
for _name in ORDER:
    import_module(f"{__name__}.{_name}")
extra_roles("alchemists")

# AL-SIZE, from the roles' own records
REQUIRED = tuple(r.id for r in ROLES.values() if r.setup == "required")
OPTIONAL = tuple(r.id for r in ROLES.values() if r.setup == "optional")
FILLER = next(r.id for r in ROLES.values() if r.setup == "filler")
CANONICAL = tuple(r.id for r in ROLES.values() for _ in range(r.canonical))
# optional roles dropped, in this order, from a default deal with more roles than players
LEAVE_OUT = tuple(r.id for r in sorted((r for r in ROLES.values() if r.left_out),
                                       key=lambda r: r.left_out))

ROLE_SPECS = {r.id: r.spec for r in ROLES.values()}
ROLE_NAMES: dict[str, str] = {r.id: r.name for r in ROLES.values()}
ROLE_CARDS: dict[str, str] = {r.id: r.card for r in ROLES.values()}
ROLE_ABOUT: dict[str, str] = {r.id: r.about for r in ROLES.values() if r.about}
ROLE_IN_TEXT: dict[str, str] = {r.id: r.role_was for r in ROLES.values() if r.role_was}
ROLE_CATALOGS = tuple(r.catalog for r in ROLES.values() if r.catalog is not None)

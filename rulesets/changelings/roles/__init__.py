"""The pony game's roles, one module each (rules §5). Importing this package registers them
(`hooks.define_role`) and attaches their handlers to the night's steps and the shared
mechanics.

The modules are imported in a fixed order: `ORDER` (the rules' listing; it is also the order
of `/roles` and of the roles named at the start), then any other role module of this package,
alphabetically — so a new role needs no line here —, then the roles that packages of their
own add (`core.engine.registry.extra_roles`: entry points of `nightfall.roles` named
`changelings.<role id>`). Modules whose names start with `_` are not roles (`_template.py`).
"""

from __future__ import annotations

import importlib
import pkgutil

from core.engine.registry import extra_roles

from ..hooks import ACTION_NAMES, CHANGELING_ROLES, ROLE_CARDS, ROLE_NAMES, ROLES

ORDER = ("pony", "researcher", "shield", "love_poison", "drama_queen", "pinkie_sense", "stalker",
         "fanatic", "derpy", "mare_do_well", "lucky", "confused_changeling", "changeling",
         "queen", "liar")
OTHERS = tuple(sorted(module.name for module in pkgutil.iter_modules(__path__)
                      if not module.name.startswith("_") and module.name not in ORDER))

for _name in ORDER + OTHERS:
    importlib.import_module(f"{__name__}.{_name}")
extra_roles("changelings")

__all__ = ["ACTION_NAMES", "CHANGELING_ROLES", "ORDER", "ROLES", "ROLE_CARDS", "ROLE_NAMES"]

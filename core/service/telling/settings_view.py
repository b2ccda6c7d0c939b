"""The host's settings made visible: every option with its value and what it does, the role
list as it stands, role names in any of the bot's languages, what differs from the defaults."""

from __future__ import annotations

from functools import cache
from typing import Any

from core.engine.forms import SideForm, side_form
from core.engine.ids import RoleId
from core.engine.messages import Ref, RefKind, Text
from core.engine.registry import load_ruleset
from core.engine.ruleset import Ruleset
from core.i18n import available_locales, translations
from core.spoken import SpokenKind
from core.storage.models import GameRecord

from ..messages import setting_texts as st
from ..messages import texts
from ..messages.payloads import Part, PostPayload, part
from ..ports.replies import Reply


def shown_value(value: Any) -> str:
    """An option's value as the host types it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value not in ("", None) else "—"


def setting(name: str, value: Any) -> Text:
    """An option and its value, named in the reader's words ("Zufällige Verliebte: aus"): a
    phrase of its own with the two as references, so the reader's language joins them."""
    return Text(st.SETTING, {"option": Ref(SpokenKind.OPTION_NAME, name),
                             "value": Ref(SpokenKind.OPTION_VALUE, shown_value(value))})


def current_options(row: GameRecord) -> dict[str, Any]:
    """The options the game will start with: the rule set's defaults, the pace's, the host's."""
    ruleset = load_ruleset(row.ruleset)
    settings = row.settings or {}
    return {**ruleset.default_options, **ruleset.pace_options.get(settings.get("pace") or "", {}),
            **settings.get("options", {})}


def options_overview(row: GameRecord) -> PostPayload:
    """`/option` alone: one line per option (name = value: what it does and may be)."""
    ruleset = load_ruleset(row.ruleset)
    lines = [part(texts.OPTION_LINE, name=name, title=Ref(SpokenKind.OPTION_NAME, name),
                  value=Ref(SpokenKind.OPTION_VALUE, shown_value(value)), about=Ref("option", name))
             for name, value in current_options(row).items() if name in ruleset.option_about]
    return PostPayload((part(texts.OPTIONS_HEAD, ruleset=Ref(RefKind.RULESET, ruleset.id)), *lines))


def changed_settings(row: GameRecord, default_pace: str) -> tuple[Text, ...]:
    """The options and pace the host changed from the defaults, for the lobby's /status
    (empty for none)."""
    ruleset = load_ruleset(row.ruleset)
    settings = row.settings or {}
    changed: list[Text] = [setting(name, value)
                          for name, value in settings.get("options", {}).items()
                          if ruleset.default_options.get(name) != value]
    if settings.get("pace") not in (None, default_pace):
        changed.insert(0, setting("pace", settings["pace"]))
    return tuple(changed)  # the host's role list is shown by itself (`ROLES_CURRENT`)


def _folded(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@cache
def _role_words(ruleset_id: str) -> dict[str, RoleId]:
    """Every way of writing a role of a rule set: its id and its name in each language."""
    ruleset = load_ruleset(ruleset_id)
    names = ruleset.vocabulary.get("role", {})
    words: dict[str, RoleId] = {}
    for role_id in ruleset.roles:
        words[_folded(role_id)] = role_id
        msgid = names.get(role_id)
        if msgid:
            for locale in available_locales():
                words.setdefault(_folded(translations(locale, ruleset_id).gettext(msgid)),
                                 role_id)
    return words


def role_id_named(ruleset: Ruleset, text: str) -> RoleId:
    """The role a host means: its id ("drama_queen") or its name in any language ("Отец",
    "Drama Queen", "Königin der Dramen")."""
    found = _role_words(ruleset.id).get(_folded(text))
    if found is None:
        raise Reply(*st.UNKNOWN_ROLE, count=len(ruleset.roles), name=text.strip(),
                    roles=tuple(Ref(RefKind.ROLE, r) for r in ruleset.roles))
    return found


def role_line(ruleset: Ruleset, role_id: RoleId) -> Part:
    """One role explained to the group: its name, its side, what it does, in the third
    person (the rule set's `about`) where the rule set has it, else its card."""
    kind = "about" if role_id in ruleset.vocabulary.get("about", {}) else "card"
    return part(texts.ROLE_LINE, role=Ref(RefKind.ROLE, role_id),
                side=side_form(ruleset.roles[role_id].side, SideForm.LABEL),
                card=Ref(kind, role_id))

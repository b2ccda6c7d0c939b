"""Finding the player a human means by a name: exact, then unique prefix, case-insensitive."""

from __future__ import annotations

from collections.abc import Mapping

from . import texts
from .replies import Reply


class NameProblem(Reply):
    """No player or several players match; carries the reply to send."""


def resolve(name: str, players: Mapping[str, str]) -> str:
    """The pid of the player called `name` among `players` (pid → display name)."""
    wanted = name.strip().lstrip("@").casefold()
    if not wanted:
        raise NameProblem(texts.NAME_NEEDED)
    exact = [pid for pid, shown in players.items() if shown.casefold() == wanted]
    if len(exact) == 1:
        return exact[0]
    found = exact or [pid for pid, shown in players.items()
                      if shown.casefold().startswith(wanted)]
    if not found:
        raise NameProblem(texts.NOBODY_CALLED, name=name.strip())
    if len(found) > 1:
        raise NameProblem(texts.SEVERAL_CALLED, name=name.strip(),
                          names=", ".join(sorted(players[pid] for pid in found)))
    return found[0]


def split_names(words: list[str], players: Mapping[str, str], count: int) -> tuple[list[str], str]:
    """Take `count` player names from the front of `words` (names may have several words:
    the longest match wins); return their pids and the rest of the text."""
    pids: list[str] = []
    rest = list(words)
    for _ in range(count):
        for size in range(len(rest), 0, -1):
            try:
                pids.append(resolve(" ".join(rest[:size]), players))
            except NameProblem:
                if size == 1:
                    raise
                continue
            rest = rest[size:]
            break
        else:
            raise NameProblem(texts.NAME_NEEDED)
    return pids, " ".join(rest)

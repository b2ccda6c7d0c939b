"""Players' names as shown and as typed: two players who share a display name are told apart
(by their @username, else by a number), and a name a human types is matched exact first,
then ignoring case, then by @username, then as a unique prefix."""

from __future__ import annotations

from collections.abc import Mapping

from . import texts
from .replies import Reply

TRAILING = ",.;:!?"  # "/vote Dot," means Dot


class NameProblem(Reply):
    """No player or several players match; carries the reply to send."""


def shown_names(people: Mapping[str, tuple[str, str | None]]) -> dict[str, str]:
    """pid → the name shown on buttons and in texts, from pid → (display name, @username).

    A name nobody else has is shown as it is; players who share one are shown as
    "Ann (@ann_k)" where they have a username, else "Ann (2)" in seat order."""
    groups: dict[str, list[str]] = {}
    for pid, (name, _) in people.items():
        groups.setdefault(name.casefold(), []).append(pid)
    shown: dict[str, str] = {}
    for pids in groups.values():
        if len(pids) == 1:
            shown[pids[0]] = people[pids[0]][0]
            continue
        for number, pid in enumerate(sorted(pids, key=_seat_order), start=1):
            name, handle = people[pid]
            shown[pid] = f"{name} (@{handle})" if handle else f"{name} ({number})"
    return shown


def _seat_order(pid: str) -> tuple[int, str]:
    digits = pid.lstrip("p")
    return (int(digits), pid) if digits.isdigit() else (1 << 30, pid)


def resolve(name: str, players: Mapping[str, str],
            handles: Mapping[str, str | None] | None = None) -> str:
    """The pid of the player called `name` among `players` (pid → shown name); `handles`
    (pid → @username) lets "@ann_k" name a player."""
    typed = name.strip().rstrip(TRAILING).strip()
    if not typed:
        raise NameProblem(texts.NAME_NEEDED)
    exact = [pid for pid, shown in players.items() if shown == typed]
    if len(exact) == 1:
        return exact[0]
    wanted = typed.lstrip("@").casefold()
    if typed.startswith("@") and handles:
        by_handle = [pid for pid, handle in handles.items()
                     if handle and handle.casefold() == wanted]
        if len(by_handle) == 1:
            return by_handle[0]
    folded = [pid for pid, shown in players.items() if shown.casefold() == wanted]
    if len(folded) == 1:
        return folded[0]
    found = exact or folded or [pid for pid, shown in players.items()
                                if shown.casefold().startswith(wanted)]
    if not found:
        raise NameProblem(texts.NOBODY_CALLED, name=typed)
    if len(found) > 1:
        raise NameProblem(texts.SEVERAL_CALLED, name=typed,
                          names=", ".join(sorted(players[pid] for pid in found)))
    return found[0]


def split_names(words: list[str], players: Mapping[str, str], count: int,
                handles: Mapping[str, str | None] | None = None) -> tuple[list[str], str]:
    """Take `count` player names from the front of `words` (names may have several words:
    the longest match wins); return their pids and the rest of the text."""
    pids: list[str] = []
    rest = list(words)
    for _ in range(count):
        for size in range(len(rest), 0, -1):
            try:
                pids.append(resolve(" ".join(rest[:size]), players, handles))
            except NameProblem:
                if size == 1:
                    raise
                continue
            rest = rest[size:]
            break
        else:
            raise NameProblem(texts.NAME_NEEDED)
    return pids, " ".join(rest)


class Roster:
    """The players of one game as people name them: shown names and @usernames."""

    def __init__(self, people: Mapping[str, tuple[str, str | None]]) -> None:
        self.shown = shown_names(people)
        self.handles = {pid: handle for pid, (_, handle) in people.items()}

    def resolve(self, name: str) -> str:
        return resolve(name, self.shown, self.handles)

    def split(self, words: list[str], count: int) -> tuple[list[str], str]:
        return split_names(words, self.shown, count, self.handles)

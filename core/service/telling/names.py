"""Players' names as shown and as typed: two players who share a display name are told apart
(by their @username, else by a number), and a name a human types is matched exact first,
then by @username, then ignoring case, then without punctuation and emoji, then as a unique
beginning. Words the platform marked as naming an account (a mention) name that account's
seat, whatever the words are."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

from core.engine.ids import PlayerId

from ..messages import texts
from ..ports.contract import Mention
from ..ports.replies import Reply

TRAILING = ",.;:!?"  # "/vote Dot," means Dot
# a seat's key: the engine's player id, or the plain string a rendering reads from its row
Pid = TypeVar("Pid", bound=str)


class NameProblem(Reply):
    """No player or several players match; carries the reply to send."""


def shown_names(people: Mapping[Pid, tuple[str, str | None]]) -> dict[Pid, str]:
    """pid → the name shown on buttons and in texts, from pid → (display name, @username).

    A name nobody else has (in any case, with any spaces around it) is shown as it is;
    players who share one are shown as "Ann (@ann_k)" where they have a username, else
    "Ann (2)" in seat order; no two players are ever shown alike."""
    def key(name: str) -> str:
        return name.strip().casefold()

    groups: dict[str, list[Pid]] = {}
    for pid, (name, _) in people.items():
        groups.setdefault(key(name), []).append(pid)
    shown = {pids[0]: people[pids[0]][0] for pids in groups.values() if len(pids) == 1}
    used = {key(name) for name in shown.values()}
    for pids in groups.values():
        if len(pids) == 1:
            continue
        number = 0
        for pid in sorted(pids, key=_seat_order):
            name, handle = people[pid]
            candidate = f"{name.strip()} (@{handle})" if handle else ""
            while not candidate or key(candidate) in used:
                number += 1
                candidate = f"{name.strip()} ({number})"
            used.add(key(candidate))
            shown[pid] = candidate
    return shown


def _seat_order(pid: str) -> tuple[int, str]:
    digits = pid.lstrip("p")
    return (int(digits), pid) if digits.isdigit() else (1 << 30, pid)


def bare(name: str) -> str:
    """A name without case, punctuation, symbols and emoji ("🦄Twilight!" → "twilight"), as a
    player types it without the decorations. Letters that only look alike stay apart."""
    kept = []
    for char in unicodedata.normalize("NFKC", name):
        category = unicodedata.category(char)
        # emoji (with their joiners and variation selectors) and punctuation go; invisible
        # characters elsewhere stay, so that "Gus\ufeff" is no way of writing "Gus"
        if category[0] in "PS" or char == "\u200d" or "\ufe00" <= char <= "\ufe0f":
            kept.append(" ")
        else:
            kept.append(char)
    return " ".join("".join(kept).casefold().split())


def resolve(name: str, players: Mapping[Pid, str],
            handles: Mapping[Pid, str | None] | None = None,
            raw: Mapping[Pid, str] | None = None) -> Pid:
    """The pid of the player called `name` among `players` (pid → shown name); `handles`
    (pid → @username) lets "@ann_k" name a player, `raw` (pid → display name) lets "bob"
    name the player called bob although he is shown as "bob (2)" beside a Bob.

    The closest match wins: the name exactly as shown or as he calls himself, then the
    @username, then the name in any case, then without punctuation and emoji, then a unique
    beginning. Only several players matching at the closest level are asked back, with the
    candidates."""
    typed = name.strip()
    if not typed.rstrip(TRAILING).strip():
        raise NameProblem(texts.NAME_NEEDED)
    wanted = typed.lstrip("@").casefold()
    plain = bare(typed)
    names = [(pid, shown.strip()) for pid, shown in players.items()]
    names += [(pid, own.strip()) for pid, own in (raw or {}).items()]

    def level(matches: Callable[[str], bool]) -> list[Pid]:
        return sorted({pid for pid, shown in names if matches(shown)})

    def levels() -> Iterator[list[Pid]]:
        """Closest first, each asked only if the closer ones found nobody (the exact name,
        the usual case, costs one comparison per player)."""
        yield level(lambda shown: shown == typed)
        yield sorted(pid for pid, handle in (handles or {}).items()
                     if typed.startswith("@") and handle and handle.casefold() == wanted)
        yield level(lambda shown: shown.casefold() == wanted)
        yield level(lambda shown: bool(plain) and bare(shown) == plain)
        yield level(lambda shown: shown.casefold().startswith(wanted))
        yield level(lambda shown: bool(plain) and bare(shown).startswith(plain))

    for found in levels():
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise NameProblem(texts.SEVERAL_CALLED, name=typed,
                              names=tuple(sorted(players[pid] for pid in found)))
    raise NameProblem(texts.NOBODY_CALLED, name=typed.rstrip(TRAILING))


def split_names(words: list[str], players: Mapping[Pid, str], count: int,
                handles: Mapping[Pid, str | None] | None = None,
                raw: Mapping[Pid, str] | None = None) -> tuple[list[Pid], str]:
    """Take `count` player names from the front of `words` (names may have several words:
    the longest match wins); return their pids and the rest of the text."""
    pids: list[Pid] = []
    rest = list(words)
    for _ in range(count):
        for size in range(len(rest), 0, -1):
            try:
                pids.append(resolve(" ".join(rest[:size]), players, handles, raw))
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
    """The players of one game as people name them: shown names and @usernames, and the
    words of a message that mention a player's account (`accounts`: pid → the platform's
    ref of the seat's account)."""

    def __init__(self, people: Mapping[PlayerId, tuple[str, str | None]],
                 accounts: Mapping[PlayerId, str] | None = None,
                 mentioned: Sequence[Mention] = ()) -> None:
        self.shown = shown_names(people)
        self.handles = {pid: handle for pid, (_, handle) in people.items()}
        self.raw = {pid: name for pid, (name, _) in people.items()}
        self.mentions = self._mentioned_seats(accounts or {}, mentioned)

    def _mentioned_seats(self, accounts: Mapping[PlayerId, str], mentioned: Sequence[Mention]
                         ) -> dict[tuple[str, ...], PlayerId | None]:
        """The words of each mention → the seat it names; None for an account that does not
        play here (its name must not be read as a player's who shares it). An @username of
        nobody seated is left to the reading of the words."""
        seats: dict[tuple[str, ...], PlayerId | None] = {}
        for mention in mentioned:
            words = tuple(mention.span.split()) if mention.span else ()
            if not words:
                continue
            if mention.user is not None:
                seats[words] = next((pid for pid, ref in accounts.items()
                                     if ref == mention.user.id), None)
                continue
            wanted = (mention.handle or "").casefold()
            pid = next((pid for pid, handle in self.handles.items()
                        if wanted and (handle or "").casefold() == wanted), None)
            if pid is not None:
                seats[words] = pid
        return seats

    def _mentioned_at(self, words: Sequence[str]) -> tuple[PlayerId, int] | None:
        """(the seat, how many words) of a mention that `words` begin with, the longest."""
        for key in sorted(self.mentions, key=len, reverse=True):
            front = list(words[:len(key)])
            if front:
                front[-1] = front[-1].rstrip(TRAILING) or front[-1]
            if tuple(front) == key:
                pid = self.mentions[key]
                if pid is None:
                    raise NameProblem(texts.NOBODY_CALLED, name=" ".join(key))
                return pid, len(key)
        return None

    def resolve(self, name: str) -> PlayerId:
        words = name.split()
        found = self._mentioned_at(words)
        if found is not None and found[1] == len(words):
            return found[0]
        return resolve(name, self.shown, self.handles, self.raw)

    def split(self, words: list[str], count: int) -> tuple[list[PlayerId], str]:
        """`count` players from the front of `words` (see `split_names`); a mention there
        names its seat."""
        pids: list[PlayerId] = []
        rest = list(words)
        for _ in range(count):
            found = self._mentioned_at(rest)
            if found is None:
                one, text = split_names(rest, self.shown, 1, self.handles, self.raw)
                pids += one
                rest = text.split()
            else:
                pids.append(found[0])
                rest = rest[found[1]:]
        return pids, " ".join(rest)

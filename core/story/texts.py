"""The story's words in the reader's language: the texts of the summary, the picture and the
archive page, and the rule set's names for roles, sides, causes, actions and its votes' titles
(through the same `Renderer` the chat messages use, so a catalog change reaches all of them)."""

from __future__ import annotations

from core.engine.forms import SideForm, side_form
from core.engine.messages import N_, Param, Ref, RefKind, n_
from core.engine.phase import PhaseKind
from core.engine.registry import load_ruleset
from core.engine.story import Heading
from core.i18n import Renderer

from .model import Fate, Story, VoteRound, When

DAY = N_("Day {number}")
NIGHT = N_("Night {number}")
TITLE = N_("{ruleset}: the story of the game")
WINNERS = n_("The winner: {sides}.", "The winners: {sides}.")
DRAW = N_("Nobody won.")
SURVIVED = N_("survived")
FATE = N_("{cause} ({when})")
VOTES_OF_DAY = N_("Votes of {when}")  # a vote's title, unless the rule set names its stage's
NO_VOTES = N_("Nobody voted.")
BANISHED = n_("Out by the vote: {names}.", "Out by the vote, {count} of them: {names}.")
NOBODY_OUT = N_("Nobody left by the vote.")
NIGHT_ACTIONS = N_("What happened at night")
NO_ACTIONS = N_("Nobody acted.")
ACTION_LINE = N_("{actor} ({role}): {action} {targets}")
LEFT_THEN = n_("Left the game: {names}.", "{count} left the game: {names}.")
TEAM_CHAT = N_("Team chat")
PLAYERS = N_("Players")
TIMELINE = N_("Who left when")
ARCHIVE_LINK = N_("The whole story, day by day: {link}")
WON = N_("won")
# the headings a rule set may say in its own words (`Ruleset.story_headings`)
HEADINGS: dict[Heading, str | tuple[str, str]] = {
    Heading.OUT_BY_VOTE: BANISHED, Heading.NOBODY_OUT: NOBODY_OUT, Heading.NO_VOTES: NO_VOTES,
    Heading.TEAM_CHAT: TEAM_CHAT}


class Words:
    """Renders one story's words for one locale."""

    def __init__(self, story: Story, locale: str) -> None:
        self.story = story
        self.locale = locale
        names = {p.pid: p.name for p in story.players}
        self.ruleset = load_ruleset(story.ruleset)
        self.renderer = Renderer(locale, self.ruleset.vocabulary,
                                 lambda pid: names.get(pid, pid), ruleset=story.ruleset)

    def text(self, key: str, **params: Param) -> str:
        return self.renderer.text(key, params)

    def text_n(self, texts: tuple[str, str], count: int, **params: Param) -> str:
        """A text with a list, agreeing with its length (`n_`'s pair; {count} is set)."""
        return self.renderer.render_parts(*texts, count, {**params, "count": count})

    def told(self, key: str | tuple[str, str], count: int, **params: Param) -> str:
        """A rule set's msgid for its extras: a pair agrees with `count`, a single one not."""
        if isinstance(key, tuple):
            return self.text_n(key, count, **params)
        return self.text(key, **params)

    def heading(self, which: Heading, count: int = 0, **params: Param) -> str:
        """One of the story's headings, in the rule set's words where it has its own."""
        return self.told(self.ruleset.story_headings.get(which, HEADINGS[which]), count, **params)

    def voted_out(self, vote: VoteRound) -> str:
        """Who left by a vote ("Out by the vote: Ann."), or that nobody did; nothing for a vote
        that removes nobody by its nature (one the rule set titles itself: an election)."""
        if vote.removed:
            return self.heading(Heading.OUT_BY_VOTE, len(vote.removed),
                                names=self.names(vote.removed))
        if vote.when.stage in self.ruleset.vocabulary.get("vote_title", {}):
            return ""
        return self.heading(Heading.NOBODY_OUT)

    def word(self, kind: str, value: str) -> str:
        return self.renderer.word(Ref(kind, value))

    def name(self, pid: str) -> str:
        return self.renderer.word(Ref(RefKind.PLAYER, pid))

    def names(self, pids: list[str] | tuple[str, ...]) -> str:
        return self.renderer.listed([self.name(pid) for pid in pids])

    def title(self) -> str:
        return self.text(TITLE, ruleset=Ref(RefKind.RULESET, self.story.ruleset))

    def when(self, when: When) -> str:
        return self.text(DAY if when.kind == PhaseKind.DAY else NIGHT, number=when.number)

    def short_when(self, when: When) -> str:
        """A column heading of the timeline: the first letter of "Day"/"Night" and the number."""
        return self.when(When(when.kind, 0)).rstrip("0 ")[:1] + str(when.number)

    def vote_title(self, vote: VoteRound) -> str:
        """"Votes of Day 2", or the rule set's own title for a vote in its stage (its
        vocabulary's `vote_title`: an election is not a day's vote)."""
        key = self.ruleset.vocabulary.get("vote_title", {}).get(vote.when.stage, VOTES_OF_DAY)
        return self.text(key, when=self.when(vote.when))

    def fate(self, fate: Fate | None) -> str:
        if fate is None:
            return self.text(SURVIVED)
        return self.text(FATE, cause=self.word("cause", fate.cause), when=self.when(fate.when))

    def winners(self) -> str:
        if not self.story.winners:
            return self.text(DRAW)
        return self.text_n(WINNERS, len(self.story.winners),
                           sides=tuple(side_form(s, SideForm.THE) for s in self.story.winners))

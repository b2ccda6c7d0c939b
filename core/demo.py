"""A self-playing game, narrated: what `make demo` shows before any platform is set up."""

from __future__ import annotations

from collections.abc import Iterator

from core.engine.messages import Message
from core.engine.ruleset import Ruleset
from core.i18n import Renderer
from core.simulate import play_random_game


def narrate(ruleset: Ruleset, players: int, locale: str, seed: int) -> Iterator[str]:
    """Yield the group chat of one random game, with each player's private messages indented."""
    game = play_random_game(ruleset, players, seed)
    renderer = Renderer(locale, ruleset.vocabulary, game.name)
    yield f"# {ruleset.id}, {players} players, seed {seed}"
    outcomes = [game.opening, *(outcome for _, outcome in game.log)]
    for outcome in outcomes:
        for message in outcome.messages:
            yield _line(renderer, game.name, message)


def _line(renderer: Renderer, name: object, message: Message) -> str:
    text = renderer.render(message)
    audience = message.audience
    if audience.kind == "group":
        return text
    if audience.kind == "player":
        return f"    [to {name(audience.ref)}] {text}"  # type: ignore[operator]
    return f"    [{audience}] {text}"

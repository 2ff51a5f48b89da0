"""What the ladder plays and what it measured: :class:`LadderConfig` (sizes, seed, strategies,
the OpenSpiel options), :class:`LadderData` (the tables as plain rows, saved as JSON), the
game's default field and search strategy, and where its document lives in this checkout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tajsim.engine.spec import GameSpec
from tajsim.games.registry import DEFAULT_GAME, get_game

REPO = Path(__file__).resolve().parents[3]


def fast_strategies(spec: GameSpec) -> tuple[str, ...]:
    """The game's strategies without a search (the ladder's default field)."""
    return tuple(s.name for s in spec.strategies.all() if "search" not in s.tags)


def default_search(spec: GameSpec) -> str:
    """The game's first search strategy ("" if it has none)."""
    found = spec.strategies.with_tag("search")
    return found[0].name if found else ""


def ladder_document(spec: GameSpec) -> Path:
    """Where the game's ladder is written (in this checkout): ``docs/strategies.md`` for Taj
    Mahal, ``docs/games/<game>/strategies.md`` otherwise."""
    relative = spec.notes.ladder_document or f"docs/games/{spec.name}/strategies.md"
    return REPO / relative


def extra_columns(spec: GameSpec) -> tuple[str, ...]:
    """Result fields the game's ladder shows beside the score parts."""
    return spec.notes.ladder_columns


@dataclass
class LadderConfig:
    """What the ladder plays; ``quick()`` is a tiny version for tests."""

    strategies: tuple[str, ...] = ()
    search: str = ""
    game: str = DEFAULT_GAME
    # None (the default) becomes the game's default table size in __post_init__
    n_players: int = None  # type: ignore[assignment]
    edition: int = 0
    seed: int = 2024
    random_games: int = 4000
    field_games: int = 8000
    h2h_games: int = 4000
    search_field_games: int = 200
    search_h2h_games: int = 400
    python_games: int = 200
    openspiel: tuple[str, ...] = ()
    openspiel_games: int = 40
    # None (the default) becomes the game's smallest table in __post_init__
    openspiel_players: int = None  # type: ignore[assignment]
    openspiel_iterations: int = 20
    threads: int = 1
    search_threads: int = 2
    command: str = "tajsim ladder"

    def __post_init__(self) -> None:
        # The table sizes left out are the game's (its spec's), never this module's.
        spec = get_game(self.game)
        self.n_players = spec.players_or_default(self.n_players, self.edition)
        if self.openspiel_players is None:
            self.openspiel_players = spec.player_range(self.edition)[0]

    def openspiel_table_games(self) -> int:
        """Games each OpenSpiel table plays: ``openspiel_games`` in whole seat rotations of the
        alternating seats (a multiple of ``2 * openspiel_players``, at least one rotation;
        ``matches._openspiel_match``), which ``tajsim ladder`` says when it differs."""
        rotation = 2 * self.openspiel_players
        return max(rotation, self.openspiel_games - self.openspiel_games % rotation)

    @classmethod
    def quick(cls, **kw) -> LadderConfig:
        base: dict[str, Any] = dict(random_games=16, field_games=16, h2h_games=16,
                                    search_field_games=4, search_h2h_games=4, python_games=2)
        base.update(kw)
        return cls(**base)


@dataclass
class LadderData:
    config: dict
    machine: dict
    vs_random: list[dict] = field(default_factory=list)
    vs_field: list[dict] = field(default_factory=list)
    head_to_head: list[dict] = field(default_factory=list)
    search: dict = field(default_factory=dict)
    python: dict = field(default_factory=dict)
    openspiel: list[dict] = field(default_factory=list)
    seconds: float = 0.0

"""Bots that play by choosing among the legal actions, and game statistics.

A bot sees exactly what the screen sees: the legal choices of the moment.

>>> game = play({"ruleset": "tozsde", "players": ["A", "B", "C", "D"]}, random.Random(1))
>>> game.state.finished
True
"""

from __future__ import annotations

import math
import random
import statistics
from bisect import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, TypeVar

from companion.actions import Action
from companion.game import Game

T = TypeVar("T")


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action, weighted by the ruleset's bot hints."""
    chance = game.rules.random_setup_action(game.state, rng)
    if chance is not None:
        return chance
    choices = game.legal_actions()
    weights = [game.rules.bot_weights(game.state, c) for c in choices]
    return weighted_choice(rng, choices, weights).sample(rng)


def weighted_choice(rng: random.Random, population: Sequence[T], weights: Sequence[float]) -> T:
    """The element ``rng.choices(population, weights)[0]`` picks, from the same one ``rng.random()`` draw.

    The draw falls in the running sums of the weights as in :meth:`random.Random.choices`,
    so a seed gives the bots the same games as that call (the fixture generators use it);
    what is left out is its generality (``k`` results, ready-made sums), a tenth of a bot
    game. ``tests/test_bots.py`` checks that the two agree.
    """
    sums = list(accumulate(weights))
    total = sums[-1] + 0.0
    if not 0.0 < total < math.inf:
        raise ValueError(f"the weights must add up to a positive finite number, not {total}")
    return population[bisect(sums, rng.random() * total, 0, len(sums) - 1)]


def play(setup: dict[str, Any], rng: random.Random, max_actions: int = 200_000) -> Game:
    """Play one game to its end with bots in every seat; return the game (its actions are ``game.actions``)."""
    game = Game(setup)
    for _ in range(max_actions):
        if game.state.finished:
            break
        # The action is sampled from the legal list just listed, so checking it
        # again would only list the same choices twice.
        game.apply_trusted(choose(game, rng))
    return game


@dataclass
class Statistics:
    games: int = 0
    lengths: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    winners: Counter[str] = field(default_factory=Counter)
    end_reasons: Counter[str] = field(default_factory=Counter)
    unfinished: int = 0

    def add(self, game: Game) -> None:
        self.games += 1
        self.lengths.append(len(game.actions))
        self.rounds.append(game.state.round)
        if not game.state.finished:
            self.unfinished += 1
            return
        self.end_reasons[game.state.end_reason or "?"] += 1
        ranking = game.state.ranking or [[]]
        for seat in ranking[0]:
            self.winners[f"seat {seat + 1}"] += 1

    def report(self) -> str:
        lines = [f"games: {self.games}" + (f" ({self.unfinished} unfinished)" if self.unfinished else "")]
        if self.lengths:
            q = statistics.quantiles(self.lengths, n=10) if len(self.lengths) > 1 else [self.lengths[0]] * 9
            lines.append(
                f"actions per game: mean {statistics.mean(self.lengths):.0f}, median {statistics.median(self.lengths):.0f}, "
                f"p10 {q[0]:.0f}, p90 {q[-1]:.0f}, min {min(self.lengths)}, max {max(self.lengths)}"
            )
            lines.append(f"rounds per game: mean {statistics.mean(self.rounds):.1f}, max {max(self.rounds)}")
        lines.append("winners: " + ", ".join(f"{k} {v}" for k, v in sorted(self.winners.items())))
        lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(self.end_reasons.items())))
        return "\n".join(lines)


def simulate(ruleset: str, players: int, games: int, seed: int, options: dict[str, Any] | None = None) -> Statistics:
    """Play ``games`` bot games; the seed makes the run repeatable."""
    stats = Statistics()
    rng = random.Random(seed)
    names = [f"Bot {i + 1}" for i in range(players)]
    for _ in range(games):
        stats.add(play({"ruleset": ruleset, "players": names, "options": options or {}}, rng))
    return stats

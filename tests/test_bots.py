"""The bots' weighted pick draws exactly as ``random.Random.choices`` (the fixture generators use that)."""

from __future__ import annotations

import random

import pytest

from companion.bots import weighted_choice

WEIGHTS = [0.0, 0.001, 0.1, 0.3, 0.4, 0.6, 1.0, 12.0, 20.0]


@pytest.mark.parametrize("seed", range(40))
def test_weighted_choice_is_random_choices(seed):
    maker = random.Random(seed)
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(200):
        weights = [maker.choice(WEIGHTS) for _ in range(maker.randint(1, 14))]
        if sum(weights) == 0:
            weights[-1] = 1.0
        population = list(range(len(weights)))
        assert weighted_choice(ours, population, weights) == theirs.choices(population, weights)[0]
    assert ours.random() == theirs.random()  # the same draws were used up


@pytest.mark.parametrize("weights", [[0.0], [0.0, 0.0], [1.0, float("inf")], [float("nan")]])
def test_weighted_choice_refuses_what_random_choices_refuses(weights):
    population = list(range(len(weights)))
    with pytest.raises(ValueError):
        random.Random(1).choices(population, weights)
    with pytest.raises(ValueError):
        weighted_choice(random.Random(1), population, weights)

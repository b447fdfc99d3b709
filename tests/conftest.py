"""For every test: a subscriber of a table that fails is logged and the game goes on
(``Table._tell``), so a test fails on such a fault unless it is marked ``faults_expected``."""

from __future__ import annotations

import logging
from typing import Iterator

import pytest

import companion.ruleset

companion.ruleset.CHECK_CACHES = True  # every choice a ruleset reuses is made again and compared


class _Faults(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_hidden_subscriber_fault(request: pytest.FixtureRequest) -> Iterator[None]:
    logger = logging.getLogger("companion.table")
    faults = _Faults()
    logger.addHandler(faults)
    try:
        yield
    finally:
        logger.removeHandler(faults)
    if faults.records and request.node.get_closest_marker("faults_expected") is None:
        first = faults.records[0]
        pytest.fail(f"a subscriber of a table failed: {first.getMessage()}: {first.exc_info and first.exc_info[1]!r}")

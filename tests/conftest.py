"""Shared test set-up: the repository root on the import path, so ``tests.thirdgame`` imports."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if "coin" in os.environ.get("DEV_RULESETS", ""):
    from companion import registry
    from tests.thirdgame.rules import Rules

    registry.register("coin", Rules)

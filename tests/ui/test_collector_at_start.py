"""The app's start: Python's garbage collector is off from Kivy's configuration (before Kivy and the app are
imported) until its first frame is drawn, then on again, with the objects of the start frozen out of its
passes (ui.launch.configure, ui.app started)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ui.conftest import SIZE

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, json, sys
from pathlib import Path
from ui import launch
launch.configure({size!r})
configured = gc.isenabled()
from ui.app import CompanionApp
from tests.ui.conftest import frames

app = CompanionApp(Path(sys.argv[1]) / "games.db", settings_path=Path(sys.argv[1]) / "settings.json")
app._run_prepare()  # build and on_start: the first frame not drawn yet
before = gc.isenabled()
frames(3)
print(json.dumps({{"configured": configured, "before": before, "after": gc.isenabled(), "frozen": gc.get_freeze_count()}}))
app.stop()
"""


def test_the_collector_is_off_until_the_first_frame_then_on_with_the_start_frozen(display: str,
                                                                                     tmp_path: Path) -> None:
    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(size=SIZE), str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["configured"] is False and seen["before"] is False and seen["after"] is True
    assert seen["frozen"] > 10_000  # Kivy's, the app's and the screen's objects

"""The app in its own process, for the tests that kill it: taps a script, reports, then waits to be killed.

    python -m tests.ui.driver DB SETTINGS REPORT [STEP …]

A step is ``tap:<tap_id>`` or ``screen:<name>``. After the steps the report
(JSON: game, length, screen) is written to REPORT, and the app keeps running
until it is killed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> None:
    db, settings, report, *steps = argv
    os.environ.setdefault("KIVY_HOME", str(Path(report).parent / "kivy"))
    from ui import launch

    launch.configure((800, 480))
    from ui.app import CompanionApp

    app = CompanionApp(Path(db), settings_path=Path(settings))
    app._run_prepare()
    from tests.ui.conftest import frames
    from tests.ui.support import tap

    frames()
    for step in steps:
        kind, _, what = step.partition(":")
        if kind == "tap":
            tap(what)
        else:
            app.manager.current = what
            frames()
    table = app.session.table
    state = {"game": table.game_id if table else None, "length": table.length if table else None,
             "screen": app.manager.current}
    Path(report).write_text(json.dumps(state))
    while True:
        frames(1)
        time.sleep(0.05)


if __name__ == "__main__":
    main(sys.argv[1:])

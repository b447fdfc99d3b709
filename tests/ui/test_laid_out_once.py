"""A screen shown wraps and measures each of its texts once, at the label's own width and font size
(ui.widgets.lay_out, BigButton's font): not first at Kivy's default width of 100 px or its default
font size, then again at the label's own (half the text measuring of the resumed game's first frame)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from tests.ui.conftest import frames
from ui import demo


@pytest.mark.parametrize("screen", ["history", "start"])
def test_a_screen_shown_lays_out_each_text_at_one_width_and_size(app: Any, monkeypatch: pytest.MonkeyPatch,
                                                                  screen: str) -> None:
    from kivy.core.text import LabelBase

    game_id = demo.played_game(app.session.db, "tozsde", seed=3, players=4, stop_at=30)
    assert app.session.resume(game_id) is None
    app.manager.current = "rules"  # another screen first (drawn to its end): the one shown next is entered anew
    frames(10)
    laid_out: dict[int, set[tuple[str, Any, Any]]] = defaultdict(set)
    render = LabelBase.render

    def recorded(label: Any, real: bool = False) -> Any:
        laid_out[id(label)].add((label.text, label.text_size[0], label.options["font_size"]))
        return render(label, real)

    monkeypatch.setattr(LabelBase, "render", recorded)
    app.manager.current = screen
    frames()
    assert laid_out
    twice = {min(texts)[0]: sorted(texts, key=str) for texts in laid_out.values() if len(texts) > 1}
    assert not twice, twice
    if screen == "history":
        assert len([texts for texts in laid_out.values() if len(min(texts)[0]) > 30]) >= 10  # the log's sentences


RESUMED = """
import json, sys
from collections import Counter
from pathlib import Path
from ui import launch
launch.configure({size!r})
from kivy.uix.label import Label
from ui import demo
from ui.app import CompanionApp
from ui.screens import table
from tests.ui.conftest import frames

work = Path(sys.argv[1])
demo.played_game(work / "games.db", "tozsde", seed=2, players=4, stop_at=200)
(work / "settings.json").write_text(json.dumps({{"screen": sys.argv[2]}}))
drawn: Counter[int] = Counter()
update = Label.texture_update

def texture_update(label, *args):
    drawn[id(label)] += 1
    return update(label, *args)

texture_update.__name__ = "texture_update"  # Kivy's trigger calls the method by its name
Label.texture_update = texture_update
rows: list[str] = []
shortened = table.shortened

def counted(shares, *args):
    rows.append(str(sorted(shares.items())))
    return shortened(shares, *args)

table.shortened = counted
app = CompanionApp(work / "games.db", settings_path=work / "settings.json")
app._run_prepare()  # the build and the start, the game resumed on its screen: its first frame not drawn yet
frames(1)
print(json.dumps({{"screen": app.manager.current, "labels": len(drawn), "twice": sum(n > 1 for n in drawn.values()),
                  "rows": len(rows), "players": len(set(rows))}}))
app.stop()
"""


@pytest.mark.parametrize("screen", ["table", "history"])
def test_a_game_resumed_on_its_screen_draws_each_text_and_player_once_in_its_first_frame(
        display: str, tmp_path: Any, screen: str) -> None:
    """A fresh process, as the app starts: the screen is laid out before its first frame, so each label's
    texture is made once in that frame (not first at a default width or size), and on the table screen each
    player's row is made once, for the room it has (not also for the sizes of the frame's layout passes)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    from tests.ui.conftest import SIZE

    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1",
           "COMPANION_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", RESUMED.format(size=SIZE), str(tmp_path), screen],
                          cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["screen"] == screen
    assert seen["labels"] > 15 and seen["twice"] == 0, seen
    if screen == "table":
        assert seen["players"] == 4 and seen["rows"] == 4, seen

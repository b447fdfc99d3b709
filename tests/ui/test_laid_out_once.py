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

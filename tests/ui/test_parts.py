"""The app's parts that need no display: their examples (doctests) run here."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["ui.settings", "ui.session", "ui.texts", "ui.theme", "ui.launch", "ui.board",
                                  "ui.measure", "ui.screens.table", "ui.screens.action_plan", "ui.kvcache"])
def test_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_kept_widths_are_the_widths_the_text_provider_measures(app: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app measures each text once per font (ui/measure.py): a kept width is the provider's own,
    for every font a label draws with, and a wrapped label lays out exactly as when measured afresh."""
    from kivy.core.text import Label as Provider
    from kivy.uix.label import Label

    cache = Provider._extents_cache
    texts = ["Rubin", "Aktien von Firma 12 verkaufen", "Részvény eladása: 3. cég", "1 200 · 15 400", " "]
    for options in ({}, {"bold": True}, {"font_size": 31}, {"italic": True, "font_size": 9}):
        label = Provider(text="x", **options)
        label.resolve_font_name()
        kept = label.get_cached_extents()
        for text in texts:
            assert kept(text) == label.get_extents(text) == cache._measure(label, text), (options, text)

    sentence = "Dénes zahlt Béla 1.500 Rubin Miete für 5 Aktien von Firma 6. " * 3

    def laid_out() -> tuple[list[int], int]:
        label = Label(text=sentence, text_size=(300, None), font_size=17, markup=True)
        label.texture_update()
        return list(label.texture_size), len(label._label._cached_lines)

    before = cache.measured
    kept_layout = laid_out()
    assert cache.measured > before  # new words measured once
    before = cache.measured
    assert laid_out() == kept_layout and cache.measured == before  # then kept
    monkeypatch.setattr(Provider, "get_cached_extents", lambda label: lambda text: cache._measure(label, text))
    monkeypatch.setattr(Provider, "get_extents", lambda label, text: cache._measure(label, text))
    assert laid_out() == kept_layout  # measured afresh: the same lines


@pytest.mark.parametrize("change", ["version", "extra option", "missing option"])
def test_the_width_cache_is_installed_only_on_the_kivy_it_was_written_for(
        app: object, change: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """ui.measure.install() keeps widths only on Kivy 2.3 whose labels carry exactly the options it copies;
    on another Kivy (a faked version, a faked new or gone option) Kivy's own measuring stays, with one warning."""
    import kivy
    from kivy.core.text import Label as Provider

    from ui import measure

    installed = Provider._extents_cache
    assert installed is not None and measure.install() is installed  # the current Kivy: installed
    assert measure.mismatch(kivy.__version__, set(Provider().options)) is None
    assert measure.FONT_OPTIONS and set(measure.FONT_OPTIONS) <= measure.KIVY_OPTIONS

    kivys_own = installed._measure
    monkeypatch.delattr(Provider, "_extents_cache")
    monkeypatch.setattr(Provider, "get_extents", kivys_own)
    monkeypatch.setattr(Provider, "get_cached_extents", lambda label: label.get_extents)
    if change == "version":
        monkeypatch.setattr(kivy, "__version__", "2.4.0")
    elif change == "extra option":  # the installed Kivy has an option the copy lacks
        monkeypatch.setattr(measure, "KIVY_OPTIONS", measure.KIVY_OPTIONS - {"font_kerning"})
    else:  # the copy names an option the installed Kivy lacks
        monkeypatch.setattr(measure, "KIVY_OPTIONS", measure.KIVY_OPTIONS | {"font_weight"})
    with caplog.at_level("WARNING", logger="ui.measure"):
        assert measure.install() is None
    assert Provider.get_extents is kivys_own and not hasattr(Provider, "_extents_cache")
    warnings = [r for r in caplog.records if r.name == "ui.measure"]
    assert len(warnings) == 1 and {"version": "2.4.0", "extra option": "new font_kerning",
                                   "missing option": "gone font_weight"}[change] in warnings[0].getMessage()


def test_rows_lay_children_left_to_right_from_the_top(app: object) -> None:
    """ui.widgets.Rows (the table's action buttons): in the order added, wrapped at the width, the rows
    from the top; as high as the rows, or its least height."""
    from kivy.uix.widget import Widget

    from tests.ui.conftest import frames
    from ui.widgets import Rows

    rows = Rows(size_hint=(None, None), width=300, spacing=10, padding=5, pos=(0, 0))
    children = [Widget(size_hint=(0.4, None), height=40) for _ in range(4)]
    children.append(Widget(size_hint=(None, None), size=(200, 30)))  # a fixed width: a row of its own here
    for child in children:
        rows.add_widget(child)
    frames()
    assert [c.width for c in children] == [116, 116, 116, 116, 200]  # 0.4 of the 290 inside the padding
    assert rows.height == rows.rows_height == 5 + 40 + 10 + 40 + 10 + 30 + 5
    top = rows.top - 5
    assert [(c.x, c.top) for c in children] == [(5, top), (131, top), (5, top - 50), (131, top - 50), (5, top - 100)]
    rows.least_height = 400
    frames()
    assert rows.height == 400 and children[0].top == 395  # taller than its rows: they stay at the top

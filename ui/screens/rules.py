"""The rules: each field kind, rule and house option of a ruleset, citing its § or ruling.

The entries come from the ruleset's own index (:mod:`companion.rulebook`);
house defaults are marked, and an option shows the value a new game starts
with (set another one on the new game screen).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion import registry
from companion.rulebook import EntryKind, fields_heading, rulebook
from ui import theme
from ui.screens.newgame import rulesets
from ui.screens.start import ruleset_title, shown_value
from ui.widgets import BigButton, Caption, LiveScreen, app


class RuleRow(BoxLayout):
    title = StringProperty("")
    cite = StringProperty("")
    text = StringProperty("")
    house = BooleanProperty(False)


class RulesScreen(LiveScreen):
    ruleset = StringProperty("")
    """The ruleset shown: the open game's, else the one last chosen, else the first the new game screen offers."""
    back_to = StringProperty("start")

    def on_pre_enter(self, *_: Any) -> None:
        a = app()
        table = a.session.table
        if table is not None:
            self.ruleset = table.game.rules.name
        super().on_pre_enter()

    def show(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.refresh()

    def refresh(self) -> None:
        a = app()
        if self.ruleset not in registry.available():
            self.ruleset = rulesets()[0]
        tabs = self.ids.tabs
        tabs.clear_widgets()
        for name in sorted(registry.available()):
            button = BigButton(text=ruleset_title(name, a.lang), tap_id=f"rules:{name}",
                               colour=list(theme.PRIMARY if name == self.ruleset else theme.BUTTON))
            button.bind(on_release=lambda _b, n=name: self.show(n))
            tabs.add_widget(button)
        rows = self.ids.rows
        rows.clear_widgets()
        options = registry.ruleset_class(self.ruleset).read_json("ruleset.json").get("options", {})
        kind = None
        entries = rulebook(self.ruleset)
        if not entries:
            rows.add_widget(Caption(text=a.t(a.lang, "ui.rules.none"), font_size=a.unit))
        for entry in entries:
            if entry.kind != kind:
                kind = entry.kind
                heading = fields_heading(self.ruleset) if kind == EntryKind.FIELD else f"ui.rules.{kind}"
                rows.add_widget(Caption(text=a.t(a.lang, heading), bold=True, font_size=a.unit * 1.2,
                                        color=theme.SELECTED))
            text = entry.text_in(a.lang)
            if entry.kind == EntryKind.OPTION and entry.key in options:
                text += "  " + a.t(a.lang, "ui.rules.default", value=shown_value(options[entry.key], a.lang))
            rows.add_widget(RuleRow(title=entry.title_in(a.lang), cite=entry.cite, text=text,
                                    house=entry.house_default))
        self.ids.scroll.scroll_y = 1

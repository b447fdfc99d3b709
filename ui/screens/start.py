"""The start screen: resume the last game with one tap, start a new one, saved games, rules, settings."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from kivy.core.window import Window
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from ui import display
from ui.app import load_kv
from ui.banker import new_pin, with_pin
from ui.screens.hardware import HardwareSettings, buttons_summary, die_summary
from ui.settings import Display
from ui.widgets import Caption, ListView, RowButton, app


def ruleset_title(name: str, language: str) -> str:
    """A ruleset's title in ``language`` from its ``ruleset.json``; a built-in ruleset's file is read
    from its folder without importing its rules (the start screen shows it before the engine is loaded)."""
    try:
        raw = json.loads(resources.files(f"companion.rulesets.{name}").joinpath("ruleset.json").read_text("utf-8"))
    except (ModuleNotFoundError, OSError, ValueError):
        from companion import registry

        raw = registry.ruleset_class(name).read_json("ruleset.json")
    title = raw.get("title", name)
    return str(title.get(language) or title.get("en") or name) if isinstance(title, dict) else str(title)


class StartScreen(Screen):
    resume_text = StringProperty("")
    resume_detail = StringProperty("")
    resumable = BooleanProperty(False)
    again = BooleanProperty(False)
    """Whether a last game's players may start a new game at one tap (:meth:`same_players`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app().bind(view=lambda *_: self.refresh())

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        a = app()
        if self.manager is not None and self.manager.current != self.name:
            return  # drawn again when it is shown (on_pre_enter): no journal reads behind every action
        games = a.session.games()
        last = a.session.last_game()
        info = next((g for g in games if g.id == last), None)
        self.resumable = info is not None
        self.again = a.session.table is not None
        if info is None:
            self.resume_text = a.t(a.lang, "ui.start.no_game")
            self.resume_detail = ""
            return
        table = a.session.table
        over = bool(a.session.finished([info.id]))  # its result to see again, not a game to resume
        self.resume_text = a.t(a.lang, "ui.start.result" if over else "ui.start.resume")
        names = ", ".join(table.setup["players"]) if table is not None and table.game_id == info.id else ""
        self.resume_detail = a.t(
            a.lang, "ui.start.resume_game", game=info.id, ruleset=ruleset_title(info.ruleset, a.lang),
            players=names, count=info.length,
        ) + (f" · {a.t(a.lang, 'ui.saved.finished')}" if over else "")

    def same_players(self) -> None:
        """A new game set up as the last one: its game, players, colours, setup choices and options."""
        table = app().session.table
        if table is not None:
            new = app().manager.get_screen("new")
            new.prefill(table.setup)
            app().manager.current = "new"

    def resume(self, game_id: int | None = None) -> None:
        a = app()
        table = a.session.table
        if table is not None and (game_id is None or game_id == table.game_id):
            a.manager.current = "end" if table.state.finished else "table"
            return
        problem = a.session.resume(game_id)
        if problem is None:
            a.manager.current = "end" if a.session.table is not None and a.session.table.state.finished else "table"
        else:
            a.session.last = problem
            a._game_changed()

    # -- the dialogs ------------------------------------------------------------
    def show_saved(self) -> None:
        a = app()
        view = ListView(title=a.t(a.lang, "ui.start.saved"))
        games = a.session.games()
        over = a.session.finished([info.id for info in games])
        for info in games:
            text = a.t(a.lang, "ui.saved.game", game=info.id, ruleset=ruleset_title(info.ruleset, a.lang),
                       players=", ".join(info.players), count=info.length, updated=info.updated[:16].replace("T", " "))
            if info.id in over:
                text += f" · {a.t(a.lang, 'ui.saved.finished')}"
            button = RowButton(text=text, tap_id=f"saved:{info.id}")
            button.bind(on_release=lambda _b, gid=info.id: self._open_saved(view, gid))
            view.add_row(button)
        if not view.ids.rows.children:
            view.add_row(Caption(text=a.t(a.lang, "ui.no_saved_game")))
        view.open()

    def _open_saved(self, view: ListView, game_id: int) -> None:
        view.dismiss()
        self.resume(game_id)

    def show_rules(self) -> None:
        a = app()
        a.manager.get_screen("rules").back_to = "start"
        a.manager.current = "rules"

    def show_settings(self) -> None:
        SettingsView().open()


def shown_value(value: Any, language: str) -> str:
    """An option's value for people: yes/no, none, a word of the catalogue, or the number."""
    a = app()
    if value is None or isinstance(value, bool):
        return str(a.t(language, f"ui.value.{str(value).lower() if value is not None else 'none'}"))
    if isinstance(value, str):
        return str(a.t(language, f"ui.value.{value}"))
    if isinstance(value, list):
        return " · ".join("/".join(map(str, row)) if isinstance(row, list) else str(row) for row in value)
    return str(value)


class SettingsView(ModalView):
    """Language, PIN, display, sound, the die and the buttons; in kiosk mode the way out (after the PIN)."""

    pin_state = StringProperty("")
    display_state = StringProperty("")
    sound_state = StringProperty("")
    die_state = StringProperty("")
    buttons_state = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        load_kv("dialogs.kv")  # its rules before the first one is made
        super().__init__(**kwargs)

    def on_open(self) -> None:
        self.update()

    def update(self) -> None:
        a = app()
        self.pin_state = a.t(a.lang, "ui.settings.pin_set" if a.settings.has_pin else "ui.settings.no_pin")
        fullscreen = a.kiosk or a.settings.display == Display.FULLSCREEN  # the kiosk takes the screen whatever the file says
        self.display_state = a.t(a.lang, "ui.settings.fullscreen" if fullscreen else "ui.settings.window")
        self.sound_state = a.t(a.lang, "ui.on" if a.settings.sound else "ui.off")
        hardware = a.settings.hardware_config()
        self.die_state = die_summary(hardware, a.lang)
        self.buttons_state = buttons_summary(hardware, a.lang)

    def choose_die(self) -> None:
        HardwareSettings(self.update).choose_die()

    def edit_buttons(self) -> None:
        HardwareSettings(self.update).edit_buttons()

    def set_pin(self) -> None:
        """A new banker PIN; the old one first: nobody at the table changes it behind the banker's back."""
        with_pin("ui.pin.enter", lambda: new_pin("ui.pin.new", self.update))

    def toggle_display(self) -> None:
        a = app()
        a.settings.display = Display.WINDOW if a.settings.display == Display.FULLSCREEN else Display.FULLSCREEN
        a.save_settings()
        if not a.kiosk:
            display.fit(Window, full=a.settings.display == Display.FULLSCREEN)
        self.update()
        a.redraw()

    def toggle_sound(self) -> None:
        a = app()
        a.settings.sound = not a.settings.sound
        a.save_settings()
        self.update()

    def leave(self) -> None:
        self.dismiss()
        app().ask_leave()

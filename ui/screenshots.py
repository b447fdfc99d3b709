"""Screenshots of every screen at the 7-inch display's 800×480 and at 1920×1080, in German and Hungarian.

Run under a display (a virtual one will do)::

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python -m ui.screenshots

The PNGs go to ``docs/screenshots/<screen>-<language>-<width>.png``. The
games shown are played by the engine's random bot from a fixed seed (the
bot makes the draws and shuffles too), so the pictures change only when
the screens do.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

SIZES = ((800, 480), (1920, 1080))
LANGUAGES = ("de", "hu")
OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def _play(app: Any, setup: dict[str, Any], actions: int, seed: int) -> None:
    """Start a game and let the bot play ``actions`` actions through the session (as taps would)."""
    play_until(app, setup, seed, lambda t: t.length >= actions or t.state.finished)


def play_until(app: Any, setup: dict[str, Any], seed: int, wanted: Callable[[Any], bool], most: int = 3000) -> None:
    """Start a game and let the bot play until ``wanted(table)`` holds (a dialog's moment). The bot
    also makes the draws and shuffles, from ``seed``: the same game, so the same picture, every run."""
    from companion import bots

    app.session.new_game(setup, deal=False)
    rng = random.Random(seed)
    table = app.session.table
    for _ in range(most):
        if wanted(table):
            return
        if table.state.finished:
            break
        app.session.act(bots.choose(table.game, rng))  # the draws and shuffles too: the same game every run
    raise RuntimeError(f"the bot's game from seed {seed} never came to the wanted moment")


def _played(app: Any, ruleset: str, **kwargs: Any) -> None:
    """A bot game with one banker's correction on the way (:mod:`ui.demo`), opened in the session."""
    from ui import demo

    app.session.resume(demo.played_game(app.session.db, ruleset, **kwargs))


def scenes() -> dict[str, Callable[[Any], None]]:
    """Each screen to show, by name: a function that brings the app there."""
    from ui.screens.start import SettingsView

    tozsde = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba", "Dóra"],
              "colours": ["red", "blue", "green", "yellow"], "order_by": "rolloff", "draw_by": "app"}
    six = {**tozsde, "players": ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"],
           "colours": ["red", "blue", "green", "yellow", "purple", "orange"]}
    boerse = {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"], "colours": ["red", "blue", "purple"],
              "first_player": 1}

    def start(app: Any) -> None:
        _play(app, tozsde, 40, 3)
        app.manager.current = "start"

    def settings(app: Any) -> None:
        start(app)
        SettingsView().open()

    def settings_die(app: Any) -> None:  # the die's port: the ports found, by-id links first, or typed
        from hardware.config import DieConfig, HardwareConfig
        from ui.screens.hardware import HardwareSettings

        settings(app)
        app.settings.set_hardware(HardwareConfig(die=DieConfig(port="/dev/ttyAMA0")))
        HardwareSettings(lambda: None).choose_die(ports=[  # a table's Pi with a USB die in
            "/dev/serial/by-id/usb-Raspberry_Pi_Pico_E6614C311B4A5C2B-if00", "/dev/ttyAMA0", "/dev/ttyS0"])

    def settings_die_path(app: Any) -> None:
        from ui.screens.hardware import HardwareSettings

        settings(app)
        HardwareSettings(lambda: None).type_die_port(None)
        from kivy.core.window import Window

        Window.children[0].typed = "socket://192.168.1.20:7000"

    def new_tozsde(app: Any) -> None:
        app.manager.current = "new"
        app.manager.get_screen("new").pick_ruleset("tozsde")

    def new_boerse(app: Any) -> None:
        app.manager.current = "new"
        app.manager.get_screen("new").pick_ruleset("boerse")

    def new_options(app: Any) -> None:
        new_boerse(app)
        app.manager.get_screen("new").ids.scroll.scroll_y = 0  # scrolled down to the house options

    def names(app: Any) -> None:
        new_tozsde(app)
        app.manager.get_screen("new").edit_name(1)

    def table_tozsde(app: Any) -> None:
        _play(app, tozsde, 60, 7)
        app.manager.current = "table"

    def table_tozsde_six(app: Any) -> None:  # the most players Tőzsde takes: their rows in two columns
        play_until(app, six, 3, lambda t: t.length >= 90 and t.actions(-1)[0]["type"] == "roll")
        app.manager.current = "table"

    def table_tozsde_order(app: Any) -> None:
        app.session.new_game({**tozsde, "order_by": "hand"})
        app.manager.current = "table"
        screen = app.manager.get_screen("table")
        screen.open_dialog(next(d for d in app.session.table.describe(app.lang) if d.choice.type == "set_order"))

    def table_tozsde_casino(app: Any) -> None:  # §7.3: the stake and the called numbers
        play_until(app, tozsde, 11, lambda t: any(c.type == "bet" for c in t.legal_actions()))
        app.manager.current = "table"
        screen = app.manager.get_screen("table")
        screen.open_dialog(next(d for d in app.session.table.describe(app.lang) if d.choice.type == "bet"))
        from kivy.core.window import Window

        Window.children[0].toggle(3)  # two numbers called: the dialog says what that pays
        Window.children[0].toggle(5)

    def table_tozsde_debt(app: Any) -> None:  # what is owed, and the ways to cover it
        play_until(app, tozsde, 13, lambda t: t.view().game.get("debt") is not None)
        app.manager.current = "table"

    def pin(app: Any) -> None:  # undo past the player's turn asks for the banker's PIN (C4)
        play_until(app, tozsde, 7, lambda t: t.length > 30 and app.session.undo_needs_pin())
        app.manager.current = "table"
        app.settings.set_pin("2468")
        app.manager.get_screen("table").undo()

    def table_boerse(app: Any) -> None:
        _play(app, boerse, 45, 5)
        app.manager.current = "table"

    def table_boerse_buttons(app: Any) -> None:
        """GPIO buttons on gpiozero's mock pins, "next" pressed once: the ring on the choice after the usual one."""
        from gpiozero.pins.mock import MockFactory

        from hardware.config import Binding, ButtonAction, ButtonsConfig, HardwareConfig

        play_until(app, boerse, 5, lambda t: t.length >= 45)
        app.manager.current = "table"
        app.pin_factory = MockFactory()
        pins = {5: ButtonAction.PREVIOUS, 6: ButtonAction.NEXT, 13: ButtonAction.CONFIRM}
        app.settings.set_hardware(HardwareConfig(buttons=ButtonsConfig({n: Binding(a) for n, a in pins.items()})))
        app.apply_hardware()
        pin = app.devices.panel.pin(6)
        pin.drive_low()
        time.sleep(0.05)  # longer than the buttons' debounce
        pin.drive_high()

    def board_tozsde(app: Any) -> None:
        table_tozsde(app)
        app.manager.get_screen("table").ids.panel.board_shown = True

    def board_boerse(app: Any) -> None:
        table_boerse(app)
        app.manager.get_screen("table").ids.panel.board_shown = True

    def history(app: Any) -> None:
        _played(app, "tozsde", seed=2, players=4, stop_at=60, correction_at=56)
        app.manager.current = "history"

    def correction(app: Any) -> None:
        from ui.correction import open_correction

        history(app)
        open_correction()

    def end_tozsde(app: Any) -> None:
        _played(app, "tozsde", seed=1, players=3, correction_at=25)
        app.manager.current = "end"
        app.manager.get_screen("end").show("fortunes")

    def end_boerse(app: Any) -> None:
        _played(app, "boerse", seed=3, players=4, correction_at=40)
        app.manager.current = "end"
        app.manager.get_screen("end").show("prices")

    def rules(ruleset: str) -> Callable[[Any], None]:
        def show(app: Any) -> None:
            app.manager.current = "rules"
            app.manager.get_screen("rules").show(ruleset)
        return show

    return {
        "start": start, "settings": settings, "settings-die": settings_die, "settings-die-path": settings_die_path,
        "new-tozsde": new_tozsde, "new-boerse": new_boerse,
        "new-boerse-options": new_options, "names": names,
        "table-tozsde": table_tozsde, "table-tozsde-six": table_tozsde_six, "table-tozsde-order": table_tozsde_order,
        "table-tozsde-casino": table_tozsde_casino, "table-tozsde-debt": table_tozsde_debt, "pin": pin,
        "table-boerse": table_boerse,
        "table-boerse-buttons": table_boerse_buttons,
        "board-tozsde": board_tozsde, "board-boerse": board_boerse,
        "history": history, "correction": correction, "end-tozsde": end_tozsde, "end-boerse": end_boerse,
        "rules-tozsde": rules("tozsde"), "rules-boerse": rules("boerse"),
    }


def stage(app: Any, bring: Callable[[Any], None], language: str, size: tuple[int, int], db: Path) -> None:
    """Bring ``app`` to a scene of :func:`scenes` from a fresh start: no dialog, no hardware, no PIN, a new
    journal ``db``, the start screen in ``language`` at ``size``; then the scene, its frames drawn."""
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from hardware.config import HardwareConfig
    from ui.session import Session

    for child in list(Window.children):
        if child is not app.root:
            child.dismiss(animation=False)
    app.devices.stop()  # no GPIO buttons unless the scene sets them up
    app.settings.set_hardware(HardwareConfig())
    app.session.close()
    app.session = Session(db)
    app.session.listen(app._game_changed)
    app.lang = language
    app.settings.pin_hash = None  # only the PIN scene sets one
    app.manager.current = "start"  # no screen of the scene before follows this one's game
    app.manager.get_screen("table").ids.panel.board_shown = False
    Window.size = size
    for _ in range(3):
        EventLoop.idle()
    bring(app)
    for _ in range(6):
        EventLoop.idle()


def main(argv: list[str] | None = None) -> int:
    wanted = set(argv if argv is not None else sys.argv[1:])
    from ui import launch

    launch.configure(SIZES[0])
    from kivy.core.window import Window

    from ui.app import CompanionApp

    work = Path(tempfile.mkdtemp(prefix="screens-"))
    app = CompanionApp(work / "games.db", settings_path=work / "settings.json")
    app._run_prepare()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, bring in scenes().items():
        if wanted and name not in wanted:
            continue
        for language in LANGUAGES:
            for width, height in SIZES:
                stage(app, bring, language, (width, height), work / f"{name}-{language}-{width}.db")
                shot = Window.screenshot(name=str(work / "shot.png"))
                target = OUT / f"{name}-{language}-{width}.png"
                os.replace(shot, target)
                print(target.relative_to(OUT.parents[1]))
    app.session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

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

from companion import showcase
from companion.showcase import Play, Played, Scene

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


GROUPS = ("start", "settings", "new", "names", "table", "board", "history", "end", "rules")
"""The order the scenes are taken in: by the app's screens, each game's in the order of the new-game screen."""


def _open(app: Any, game: Play | Played) -> None:
    """Bring about a scene's game: played by the bot now, or stored by :mod:`ui.demo` and opened."""
    from ui import demo

    if isinstance(game, Played):  # a bot game with one banker's correction on the way
        app.session.resume(demo.played_game(app.session.db, game.ruleset, **game.kwargs()))
    elif game.dealt:
        app.session.new_game(game.setup)
    elif game.until is not None:
        play_until(app, game.setup, game.seed, game.until)
    else:
        _play(app, game.setup, game.actions, game.seed)


def _press_next_button(app: Any) -> None:
    """GPIO buttons on gpiozero's mock pins, "next" pressed once."""
    from gpiozero.pins.mock import MockFactory

    from hardware.config import Binding, ButtonAction, ButtonsConfig, HardwareConfig

    app.pin_factory = MockFactory()
    pins = {5: ButtonAction.PREVIOUS, 6: ButtonAction.NEXT, 13: ButtonAction.CONFIRM}
    app.settings.set_hardware(HardwareConfig(buttons=ButtonsConfig({n: Binding(a) for n, a in pins.items()})))
    app.apply_hardware()
    pin = app.devices.panel.pin(6)
    pin.drive_low()
    time.sleep(0.05)  # longer than the buttons' debounce
    pin.drive_high()


def _pair_dice(app: Any) -> None:
    from hardware.config import DieConfig, HardwareConfig, PairedDie
    from hardware.smartdice import Colour, Found, Make, Rested
    from ui.screens.hardware import HardwareSettings

    app.settings.set_hardware(HardwareConfig(die=DieConfig(bluetooth=(
        PairedDie("F0:12:34:56:78:01", "pixels", "Pixel Ruby", "midnight_galaxy"),))))
    HardwareSettings(lambda: None).choose_bluetooth(found=[
        Found("F0:12:34:56:78:01", Make.PIXELS, "Pixel Ruby", Colour.MIDNIGHT_GALAXY, 84, Rested(4, True), -48),
        Found("E4:05:B0:94:0A:11", Make.GODICE, "GoDice_B0940_R_v04", Colour.RED, None, None, -61),
        Found("F0:12:34:56:78:02", Make.PIXELS, "Pixel Onyx", Colour.ONYX_BLACK, 12, None, -70)])


def _dice_on_the_table(app: Any) -> None:
    from hardware.config import DieConfig, HardwareConfig, PairedDie
    from hardware.emulated import EmulatedRadio, VirtualGoDice, VirtualPixels
    from hardware.smartdice import Colour

    pixels = VirtualPixels("F0:12:34:56:78:01", "Pixel Ruby", design=3)
    godice = VirtualGoDice("E4:05:B0:94:0A:11", "B0940", Colour.RED)
    radio = app.ble_transport = EmulatedRadio(pixels, godice)
    app.settings.set_hardware(HardwareConfig(die=DieConfig(retry_seconds=0.1, bluetooth=(
        PairedDie(pixels.address, "pixels", pixels.name, "midnight_galaxy"),
        PairedDie(godice.address, "godice", godice.name, "red")))))
    app.apply_hardware()
    dice = app.devices.bluetooth
    _until(lambda: dice.connected(pixels.address) and dice.connected(godice.address), "the dice connected")
    radio.run(godice.sleep)
    _until(lambda: not dice.connected(godice.address) and app.devices.bluetooth_status.lost != "",
           "the GoDice lost")


def step(app: Any, ruleset: str, word: str) -> None:
    """One of a scene's steps (companion/showcase.py), for a scene of ``ruleset``:

    ``screen:<name>`` shows that screen; ``new`` the new-game screen with the ruleset picked,
    ``options`` opens its house options, ``option:<key>`` taps that option's control (a table's editor),
    ``edit-name:<seat>`` edits a player's name; ``settings`` opens the
    settings, ``die-ports`` the die's ports found, ``die-path`` the die's port typed; ``board`` shows
    the board; ``dialog:choice:<type>`` or ``dialog:<dialog>`` opens the first such choice's dialog,
    ``toggle:<n>`` toggles ``n`` in it; ``pin:<pin>`` sets the banker's PIN and undoes; ``buttons``
    presses a GPIO button; ``correction`` opens a correction; ``end:<page>`` and ``rules`` show
    those screens' pages; ``take-back:<n>`` offers to take the game back to history entry ``n``,
    ``taken-back:<n>`` takes it back there; ``owners:<company>`` shows who holds a company,
    ``holdings:<seat>`` a player's shares (the taps on the market and on a player's row);
    ``act:<type>:<value>`` takes the first legal choice of that type with that value (as its button would).
    """
    from kivy.core.window import Window

    from ui import owners
    from ui.correction import open_correction
    from ui.screens.history import take_back
    from ui.screens.start import SettingsView

    word, _, arg = word.partition(":")
    if word == "screen":
        app.manager.current = arg
    elif word == "new":
        app.manager.current = "new"
        app.manager.get_screen("new").pick_ruleset(ruleset)
    elif word in ("options", "option"):  # the house options' view; an option's control tapped there
        _house_option(app, arg)
    elif word == "edit-name":
        app.manager.get_screen("new").edit_name(int(arg))
    elif word == "settings":
        SettingsView().open()
    elif word in ("die-ports", "die-path"):
        _die_port(app, word)
    elif word == "die-pair":  # Bluetooth dice in range, one of them paired
        _pair_dice(app)
    elif word == "die-line":  # a Pixels die and a GoDice paired on bumble's emulated radio, one asleep
        _dice_on_the_table(app)
    elif word == "board":
        app.manager.get_screen("table").ids.panel.board_shown = True
    elif word == "dialog":
        kind, _, name = arg.partition(":")
        dialogs = app.session.table.describe(app.lang)
        app.manager.get_screen("table").actions.open_dialog(
            next(d for d in dialogs if (d.choice.type == name if kind == "choice" else d.dialog == kind)))
    elif word == "toggle":
        Window.children[0].toggle(int(arg))
    elif word == "pin":  # undo past the player's turn asks for the banker's PIN (C4)
        app.settings.set_pin(arg)
        app.manager.get_screen("table").undo()
    elif word == "buttons":
        _press_next_button(app)
    elif word == "correction":
        open_correction()
    elif word == "take-back":
        app.manager.get_screen("history").offer_take_back(int(arg))
    elif word == "taken-back":  # with no PIN set, and the offer of one declined
        app.pin_declined = True
        take_back(int(arg))
    elif word == "owners":
        owners.show_company(arg)
    elif word == "holdings":
        owners.show_player(int(arg))
    elif word == "end":
        app.manager.get_screen("end").show(arg)
    elif word in ("phones", "phones-on", "phones-starting", "phones-failed"):
        _phones_on(app, word)
    elif word == "phones-ask":
        _phones_ask(app)
    elif word == "act":
        kind, _, value = arg.partition(":")
        chosen = next(d for d in app.session.table.describe(app.lang) if d.choice.type == kind)
        app.session.act(chosen.action(int(value) if value.isdigit() else value or None), "screen")
    elif word == "rules":
        app.manager.current = "rules"
        app.manager.get_screen("rules").show(ruleset)
    else:
        raise ValueError(f"no such step of a scene: {word!r}")


def _house_option(app: Any, key: str) -> None:
    """The new-game screen's house options opened (``key`` empty), or the control of option ``key`` in them tapped."""
    from kivy.core.window import Window

    if not key:
        app.manager.get_screen("new").open_options()
        return
    next(w for w in Window.children[0].walk() if getattr(w, "tap_id", "") == f"new:option:{key}").pick()


def _die_port(app: Any, word: str) -> None:
    """The die's port in the settings: ``die-ports`` the ports found, by-id links first; ``die-path`` typed."""
    from kivy.core.window import Window

    from hardware.config import DieConfig, HardwareConfig
    from ui.screens.hardware import HardwareSettings

    if word == "die-ports":  # a table's Pi with a USB die in
        app.settings.set_hardware(HardwareConfig(die=DieConfig(port="/dev/ttyAMA0")))
        HardwareSettings(lambda: None).choose_die(ports=[
            "/dev/serial/by-id/usb-Raspberry_Pi_Pico_E6614C311B4A5C2B-if00", "/dev/ttyAMA0", "/dev/ttyS0"])
    else:
        HardwareSettings(lambda: None).type_die_port(None)
        Window.children[0].typed = "socket://192.168.1.20:7000"


def _phones_on(app: Any, word: str) -> None:
    """The players' phones on: "phones-on" the QR code's corner; "phones": and their dialog; "phones-starting":
    the dialog while the web process has not said it listens (one that never does); "phones-failed": one
    that ends at once."""
    from ui.phones import FAILED, PhonesView

    app.phones.shown_as = ("192.168.1.20", "ScreenshotsShowThisSecretOnly000")
    app.phones.command = {"phones-starting": [sys.executable, "-c", "import time; time.sleep(600)"],
                          "phones-failed": [sys.executable, "-c", "raise SystemExit(1)"]}.get(word)
    app.settings.phones = True
    app.phones.apply()
    if word != "phones-on":
        PhonesView().open()
    wanted: dict[str, Callable[[], bool]] = {"phones-starting": lambda: True,
                                             "phones-failed": lambda: app.phones.state == FAILED}
    _until(wanted.get(word, lambda: app.phones.code() is not None), f"the phones' scene {word}")


def _phones_ask(app: Any) -> None:
    """Two phones ask to join, as the web process tells the app."""
    from companion.messages import Said
    from phones.bridge import News

    for seat in (0, 1):
        name = app.session.table.state.players[seat].name
        app.phones._heard(News(seat, Said("phones.asks", {"name": name, "code": ("482", "915")[seat]}), f"shown-{seat}"))


def _until(done: Callable[[], bool], what: str, most: float = 60.0) -> None:
    """Frames drawn until ``done()`` (the phones' web process up, its code made on a worker thread)."""
    from kivy.base import EventLoop

    deadline = time.monotonic() + most
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not ready within {most:.0f} s")
        EventLoop.idle()
        time.sleep(0.01)


def scenes() -> dict[str, Callable[[Any], None]]:
    """Each screen to show, by name: a function that brings the app there. The games' showcases
    (companion/showcase.py) give the scenes, the app's steps take it there."""
    from ui.screens.newgame import rulesets

    found = [(scene, ruleset) for ruleset in rulesets() for scene in showcase.scenes(ruleset)]
    found.sort(key=lambda pair: GROUPS.index(pair[0].group) if pair[0].group in GROUPS else len(GROUPS))

    def bring(scene: Scene, ruleset: str) -> Callable[[Any], None]:
        def show(app: Any) -> None:
            if scene.play is not None:
                _open(app, scene.play)
            for word in scene.steps:
                step(app, ruleset, word)
        return show

    return {scene.name: bring(scene, ruleset) for scene, ruleset in found}


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
    app.ble_transport = None  # nor Bluetooth dice
    app.phones.stop()  # no phones unless the scene turns them on
    app.phones.command = None
    app.settings.phones = app.settings.phone_trading = False
    app.settings.set_hardware(HardwareConfig())
    app.session.close()
    app.session = Session(db)
    app.session.listen(app._game_changed)
    app.lang = language
    app.settings.pin_hash = None  # only the PIN scene sets one
    app.pin_declined = False
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
    app.phones.stop()
    app.session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The settings of the die and the buttons, on the settings dialog: no system keyboard, a few taps.

The die: one tap on the port in a short list of the ports found (the
``/dev/serial/by-id`` links first, they survive replugging) or "none", or
any path or URL typed on the on-screen keys (:func:`ui.widgets.path_pad`).
The buttons: one stepper per action over the BCM pins no other button
uses. Both are written to the one settings store
(``Settings.hardware``) and the app builds its die and buttons again.
A hold action set in the file stays with its button.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from hardware.config import BCM_PINS, Binding, ButtonAction, HardwareConfig, PairedDie
from hardware.texts import say
from ui import theme
from ui.widgets import Caption, ListView, RowButton, Stepper, app, path_pad

BY_ID = Path("/dev/serial/by-id")


def detected_ports(by_id: Path = BY_ID) -> list[str]:
    """The serial ports of this machine: stable ``by-id`` links first, then devices no link points to."""
    links = sorted(str(p) for p in by_id.iterdir()) if by_id.is_dir() else []
    targets = {str(Path(link).resolve()) for link in links}
    try:
        from serial.tools import list_ports

        devices = sorted(p.device for p in list_ports.comports())
    except Exception:  # no pyserial or no /sys: the list has the links only
        devices = []
    return links + [d for d in devices if str(Path(d).resolve()) not in targets]


PATH_PRESETS = ("/dev/ttyUSB", "/dev/ttyACM", "/dev/rfcomm", "socket://")
"""The starts of a typed port: USB adapters, USB CDC dice, Bluetooth serial, TCP."""


def port_problem(path: str) -> str | None:
    """Why ``path`` cannot be the die's port (a catalogue key), or None: a path in /dev or a URL.

    >>> port_problem("/dev/rfcomm0"), port_problem("socket://192.168.1.20:7000")
    (None, None)
    >>> port_problem("ttyUSB0"), port_problem("/dev/")
    ('ui.settings.die_path_bad', 'ui.settings.die_path_bad')
    """
    scheme, sep, rest = path.partition("://")
    if sep and scheme.isalnum() and rest:
        return None
    if path.startswith("/") and not path.endswith("/") and "//" not in path:
        return None
    return "ui.settings.die_path_bad"


def die_summary(config: HardwareConfig, language: str) -> str:
    a = app()
    paired = [d.label for d in config.die.bluetooth]
    if config.die.port is not None:
        return " · ".join([config.die.port, *paired])
    if config.die.vid_pid is not None:
        return " · ".join([str(a.t(language, "ui.settings.die_usb", id=config.die.vid_pid)), *paired])
    return " · ".join(paired) or str(a.t(language, "ui.value.none_device"))


def die_row(die: Any, paired: bool, language: str) -> str:
    """A Bluetooth die in the pairing list: its name, make, colour, battery, and whether it is paired.

    ``die`` is a :class:`hardware.smartdice.Found` (in range) or a :class:`PairedDie` (paired, not in range).
    """
    make = "Pixels" if str(getattr(die, "make", "")) == "pixels" else "GoDice"
    colour = say(f"colour.{getattr(die.colour, 'value', die.colour)}").text(language)
    label = die.label if isinstance(die, PairedDie) else PairedDie(die.address, die.make.value, die.name).label
    parts = [label, make, colour]
    battery = None if isinstance(die, PairedDie) else die.battery
    if battery is not None:
        parts.append(f"{battery} %")
    if paired:
        parts.append(say("die.pair_paired").text(language))
    return " · ".join(parts)


def buttons_summary(config: HardwareConfig, language: str) -> str:
    pins = sorted(config.buttons.pins)
    if not pins:
        return str(app().t(language, "ui.settings.buttons_none"))
    return "GPIO " + " · ".join(str(p) for p in pins)


def pin_of(config: HardwareConfig, action: ButtonAction) -> int | None:
    """The pin whose press does ``action`` (the lowest, if several)."""
    return next((pin for pin, b in sorted(config.buttons.pins.items()) if b.press is action), None)


def with_pin(config: HardwareConfig, action: ButtonAction, pin: int | None) -> HardwareConfig:
    """``config`` with ``action`` on ``pin`` (None: no button for it); its hold action moves with it.

    >>> c = with_pin(HardwareConfig(), ButtonAction.UNDO, 27)
    >>> c = with_pin(c, ButtonAction.ROLL, 17)
    >>> sorted((p, b.press.value) for p, b in with_pin(c, ButtonAction.UNDO, 5).buttons.pins.items())
    [(5, 'undo'), (17, 'roll')]
    """
    pins = dict(config.buttons.pins)
    old = pin_of(config, action)
    binding = pins.pop(old) if old is not None else Binding(action)
    if pin is not None:
        pins[pin] = binding
    return replace(config, buttons=replace(config.buttons, pins=pins))


class HardwareSettings:
    """The two editors, opened from the settings dialog; ``changed()`` after each change was saved and applied."""

    def __init__(self, changed: Callable[[], None]) -> None:
        self.changed = changed

    def _save(self, config: HardwareConfig) -> None:
        a = app()
        a.settings.set_hardware(config)
        a.save_settings()
        a.apply_hardware()
        self.changed()

    # -- the die ---------------------------------------------------------------------
    def choose_die(self, ports: list[str] | None = None) -> None:
        """The list of the die's ports: ``ports``, by default those of this machine (:func:`detected_ports`)."""

        a = app()
        config = a.settings.hardware_config()
        view = ListView(title=a.t(a.lang, "ui.settings.die_title"))
        choices: list[str | None] = [None, *(detected_ports() if ports is None else ports)]
        if config.die.port is not None and config.die.port not in choices:
            choices.append(config.die.port)
        for port in choices:
            chosen = port == config.die.port and (port is not None or config.die.vid_pid is None)
            text = port if port is not None else a.t(a.lang, "ui.value.none_device")
            button = RowButton(text=text, tap_id=f"die:{port or 'none'}",
                               colour=list(theme.PRIMARY if chosen else theme.BUTTON))
            button.bind(on_release=lambda _b, p=port: self._pick_die(view, p))
            view.add_row(button)
            if port is None:  # the Bluetooth dice next: most tables have those rather than a serial one
                wireless = RowButton(text=say("die.pair_open").text(a.lang), tap_id="die:bluetooth",
                                     colour=list(theme.PRIMARY if config.die.bluetooth else theme.BUTTON))
                wireless.bind(on_release=lambda _b: (view.dismiss(), self.choose_bluetooth()))
                view.add_row(wireless)
        typed = RowButton(text=a.t(a.lang, "ui.settings.die_type"), tap_id="die:type", colour=list(theme.BUTTON))
        typed.bind(on_release=lambda _b: self.type_die_port(view))
        view.add_row(typed)
        view.open()

    # -- the Bluetooth dice ------------------------------------------------------------
    def choose_bluetooth(self, found: list[Any] | None = None) -> Any:
        """The Bluetooth dice in range by name and colour (and the paired ones out of range); a tap pairs
        one for the table, or unpairs a paired one. ``found``: these dice, no scan (screenshots, tests);
        by default the radio is scanned on a thread of its own and the list fills when it is done."""
        a = app()
        view = ListView(title=say("die.pair_title").text(a.lang))
        rows: list[Any] = []

        shown_now: list[Any] = []

        def fill(dice: list[Any], problem: str | None = None) -> None:
            shown_now[:] = dice
            for row in rows:
                view.ids.rows.remove_widget(row)
            rows.clear()
            config = a.settings.hardware_config()
            chosen = {d.address.upper() for d in config.die.bluetooth}
            shown = {d.address.upper() for d in dice}
            entries = [*dice, *(d for d in config.die.bluetooth if d.address.upper() not in shown)]
            if problem is not None:
                rows.append(Caption(text=say("die.pair_no_radio", {"problem": problem}).text(a.lang),
                                    color=theme.MUTED))
            elif not dice:  # a paired die that is linked does not advertise: the list still shows it, so "no other"
                none = "die.pair_none_other" if entries else "die.pair_none"
                rows.append(Caption(text=say(none).text(a.lang), color=theme.MUTED))
            for die in entries:
                on = die.address.upper() in chosen
                button = RowButton(text=die_row(die, on, a.lang), tap_id=f"die:ble:{die.address}",
                                   colour=list(theme.PRIMARY if on else theme.BUTTON))
                button.bind(on_release=lambda _b, d=die: tapped(d))
                rows.append(button)
            again = RowButton(text=say("die.pair_again").text(a.lang), tap_id="die:ble:again",
                              colour=list(theme.BUTTON))
            again.bind(on_release=lambda _b: scan())
            rows.append(again)
            for row in rows:
                view.add_row(row)

        def tapped(die: Any) -> None:
            self._toggle_paired(die)
            fill(shown_now)

        def scan() -> None:
            for row in rows:
                view.ids.rows.remove_widget(row)
            rows[:] = [Caption(text=say("die.pair_looking").text(a.lang), color=theme.MUTED)]
            view.add_row(rows[0])

            def work() -> None:
                from hardware.bluetooth import scan_dice

                try:
                    dice, problem = scan_dice(getattr(a, "ble_transport", None), 4.0), None
                except OSError as error:
                    dice, problem = [], str(error)
                Clock.schedule_once(lambda _dt: fill(dice, problem), 0)

            threading.Thread(target=work, name="bluetooth-scan", daemon=True).start()

        if found is None:
            scan()
        else:
            fill(found)
        view.open()
        return view

    def _toggle_paired(self, die: Any) -> None:
        """Pair ``die`` (a :class:`hardware.smartdice.Found`) for the table, or unpair it if it is paired."""
        from hardware.bluetooth import paired

        config = app().settings.hardware_config()
        kept = tuple(d for d in config.die.bluetooth if d.address.upper() != die.address.upper())
        if len(kept) == len(config.die.bluetooth):
            kept = (*kept, paired(die))
        self._save(replace(config, die=replace(config.die, bluetooth=kept)))

    def type_die_port(self, view: Any) -> None:
        """The port typed on the on-screen keys: a device path or a pyserial URL."""
        a = app()

        def done(path: str) -> str | None:
            problem = port_problem(path)
            if problem is None:
                self._pick_die(view, path)
            return problem

        path_pad(a.t(a.lang, "ui.settings.die_path_title"), a.settings.hardware_config().die.port or "/dev/",
                 PATH_PRESETS, done)

    def _pick_die(self, view: Any, port: str | None) -> None:
        view.dismiss()
        config = app().settings.hardware_config()
        self._save(replace(config, die=replace(config.die, port=port, vid_pid=None, serial_number=None)))

    # -- the buttons -------------------------------------------------------------------
    def edit_buttons(self) -> None:

        a = app()
        view = ListView(title=a.t(a.lang, "ui.settings.buttons_title"))
        draft = [a.settings.hardware_config()]
        view.add_row(Caption(text=a.t(a.lang, "ui.settings.buttons_hint"), color=theme.MUTED))
        rows: list[Any] = []

        def build() -> None:
            for row in rows:
                view.ids.rows.remove_widget(row)
            rows.clear()
            config = draft[0]
            for action in ButtonAction:
                mine = pin_of(config, action)
                taken = {p for p in config.buttons.pins if p != mine}
                values: list[int | None] = [None, *(p for p in BCM_PINS if p not in taken)]
                labels = [a.t(a.lang, "ui.value.none_device") if p is None else a.t(a.lang, "ui.settings.gpio_pin", pin=p)
                          for p in values]
                stepper = Stepper(tap_id=f"buttons:{action.value}", values=values, labels=labels)
                stepper.select(mine)
                stepper.on_pick = lambda pin, act=action: pick(act, pin)
                row = BoxLayout(size_hint_y=None, height=a.unit * theme.TARGET, spacing=a.unit * 0.3)
                label = Label(text=a.t(a.lang, f"ui.button.{action.value}"), font_size=a.unit, color=theme.TEXT,
                              size_hint_x=0.4, halign="left", valign="middle")
                label.bind(size=lambda w, s: setattr(w, "text_size", s))
                row.add_widget(label)
                row.add_widget(stepper)
                rows.append(row)
                view.add_row(row)

        def pick(action: ButtonAction, pin: int | None) -> None:
            draft[0] = with_pin(draft[0], action, pin)
            build()

        def closed(*_: Any) -> None:
            if draft[0] != a.settings.hardware_config():
                self._save(draft[0])

        build()
        view.bind(on_dismiss=closed)
        view.open()

"""A bare Kivy hello-world for the guest: the yardstick the kiosk's start is measured against there.

Copied into the guest by the system test and started by ``companion-hello.service``, a copy of
``companion.service`` with only its program changed (:func:`tests.system.kiosk_start.hello_unit`): the
same user, environment, Kivy config, devices and hardening, the same ``Type=notify``. Like the app it
says ``READY=1`` on the clock tick after its first frame is flipped onto the screen, so that
``systemctl start`` of either returns at the same point: the first frame shown.

Only the standard library and Kivy: a label, nothing of the project's.
"""

from __future__ import annotations

import os
import socket
from typing import Any


def ready() -> None:
    """``READY=1`` to systemd (the ``sd_notify`` datagram), as ``companion.notify.ready`` sends it."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect("\0" + address[1:] if address.startswith("@") else address)
        sock.sendall(b"READY=1")


def main() -> None:
    """The window with its label; READY=1 on the clock tick after the first frame's flip (Kivy is imported
    here, not when the test suite reads this module)."""
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.label import Label

    def flipped(*_: Any) -> None:
        Window.unbind(on_flip=flipped)
        Clock.schedule_once(lambda *_: ready(), 0)

    class Hello(App):  # type: ignore[misc]  # Kivy's classes are untyped
        def build(self) -> Any:
            Window.bind(on_flip=flipped)
            return Label(text="Hello", font_size="48sp")

    Hello().run()


if __name__ == "__main__":
    main()

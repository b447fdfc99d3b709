"""The touchscreen app (Kivy): shows the table's state and turns taps into the engine's legal actions.

It computes no rule: every number on screen comes from ``Table.view()`` and
every button from the engine's choices. Kivy is imported by :mod:`ui.app`
only, so the settings and the session logic load without a display.
"""

from __future__ import annotations

import os

# Kivy reads these when it is first imported: no argument parsing of our command
# line, no log file in the home folder, the console log only for warnings.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
# A clock whose frame sleep a "free" trigger cuts short: an input (a tap, the die's roll) is drawn at once,
# not after the rest of the frame; everything else keeps the 60 Hz rhythm.
os.environ.setdefault("KIVY_CLOCK", "free_all")
# SDL2's window only, as the kiosk's unit asks: where SDL2 cannot open one, Kivy would try its own X11 window
# next, which ends the whole process (exit status 102, "Couldn't connect to X server") on a display nobody
# serves, instead of the one sentence the app says (seen in a Debian 13 root, where SDL2 found no window of its own to fall back on).
os.environ.setdefault("KIVY_WINDOW", "sdl2")
# SDL must not turn SIGTERM and SIGINT into a window-close request (which the kiosk refuses): the app
# leaves on them itself (ui/signals.py).
os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"

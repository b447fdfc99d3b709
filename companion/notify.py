"""Tell systemd how the app is doing: ready, still alive, stopping (the ``sd_notify`` protocol).

A service of ``Type=notify`` gets the address of a datagram socket in
``$NOTIFY_SOCKET`` (a path, or ``@name`` in the abstract namespace) and sends
it newline-separated ``KEY=VALUE`` lines: ``READY=1`` once the first frame
is on the screen, ``WATCHDOG=1`` every quarter of ``$WATCHDOG_USEC`` (never
further apart than half of it, as systemd asks) while the UI thread's clock runs, ``STOPPING=1`` on the way out. Without
``$NOTIFY_SOCKET`` (a laptop, a test) every call does nothing and returns
False. The protocol is one ``sendto`` of stdlib's :mod:`socket`, so this
needs no library on the Pi (``systemd-python`` and ``cysystemd`` are built
against libsystemd; ``sdnotify`` has not been kept since 2017).

How the touchscreen app uses it (``systemd/companion.service`` has
``WatchdogSec=``)::

    watchdog = notify.Watchdog.from_environment()   # once, on the UI thread
    notify.ready()                                  # after the first frame was drawn
    watchdog.ping()                                 # on every clock tick: cheap, sends when due

>>> ready(environ={})
False
>>> Watchdog.from_environment({"WATCHDOG_USEC": "20000000"}).interval
5.0
>>> Watchdog.from_environment({}).ping()
False
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

__all__ = ["Watchdog", "notify_address", "ready", "send", "status", "stopping"]


def notify_address(environ: Mapping[str, str] | None = None) -> str | bytes | None:
    """The socket address in ``$NOTIFY_SOCKET``, ready for ``sendto``; None if there is none.

    A leading ``@`` names a socket in Linux's abstract namespace (a NUL byte).

    >>> notify_address({"NOTIFY_SOCKET": "/run/systemd/notify"})
    '/run/systemd/notify'
    >>> notify_address({"NOTIFY_SOCKET": "@companion/notify"})
    b'\\x00companion/notify'
    >>> notify_address({}) is None, notify_address({"NOTIFY_SOCKET": "vsock:2:999"}) is None
    (True, True)
    """
    value = (os.environ if environ is None else environ).get("NOTIFY_SOCKET", "")
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    if value:
        log.warning("NOTIFY_SOCKET=%r is not a socket path; systemd is not told how the app is", value)
    return None


def send(*fields: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``KEY=VALUE`` fields in one datagram; True if it was sent.

    A missing socket or a failed send is never an error for the app: the
    service manager may have gone, and the game goes on.
    """
    address = notify_address(environ)
    if address is None or not fields:
        return False
    message = "\n".join(fields).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message, address)
    except OSError as error:
        log.warning("could not notify systemd (%s): %s", ", ".join(fields), error)
        return False
    return True


def ready(status_text: str | None = None, *, environ: Mapping[str, str] | None = None) -> bool:
    """Say the service is up (``READY=1``): call it once the first frame has been drawn."""
    fields = ["READY=1"]
    if status_text:
        fields.append(f"STATUS={_one_line(status_text)}")
    return send(*fields, environ=environ)


def status(text: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """A one-line status, shown by ``systemctl status companion``."""
    return send(f"STATUS={_one_line(text)}", environ=environ)


def stopping(*, environ: Mapping[str, str] | None = None) -> bool:
    """Say the service is shutting down on purpose (``STOPPING=1``)."""
    return send("STOPPING=1", environ=environ)


def _one_line(text: str) -> str:
    return " ".join(text.split())


class Watchdog:
    """Pings systemd's watchdog (``WATCHDOG=1``) while the thread that calls :meth:`ping` is alive.

    Made from the environment systemd gives a unit with ``WatchdogSec=``:
    ``$WATCHDOG_USEC`` is the timeout and ``$WATCHDOG_PID``, when set, the
    process meant to ping (a child of the service does not). Call
    :meth:`ping` as often as you like from the UI thread's clock; it sends
    when a quarter of the timeout has passed since the last ping, so that a
    clock event late by up to another quarter still pings within half the
    timeout, as systemd asks. If the UI thread freezes, the pings stop and
    systemd restarts the service.

    >>> now = [100.0]
    >>> dog = Watchdog(timeout=4.0, clock=lambda: now[0], environ={})
    >>> dog.enabled, dog.interval, dog.due()
    (True, 1.0, True)
    >>> dog.mark(); dog.due()
    False
    >>> now[0] += 1.0; dog.due()
    True
    """

    def __init__(
        self,
        timeout: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.timeout = timeout if timeout is not None and timeout > 0 else None
        self._clock = clock
        self._environ = environ
        self._last: float | None = None

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> Watchdog:
        """The watchdog systemd set up for this process, or a disabled one.

        >>> Watchdog.from_environment({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).enabled
        False
        >>> Watchdog.from_environment({"WATCHDOG_USEC": "soon"}).enabled
        False
        """
        env = os.environ if environ is None else environ
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        timeout: float | None = None
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            timeout = int(usec) / 1_000_000
        return cls(timeout, clock=clock, environ=environ)

    @property
    def enabled(self) -> bool:
        return self.timeout is not None

    @property
    def interval(self) -> float | None:
        """Seconds between two pings: a quarter of the timeout; None when there is no watchdog."""
        return None if self.timeout is None else self.timeout / 4

    def due(self) -> bool:
        """Whether a ping should go now."""
        interval = self.interval
        if interval is None:
            return False
        return self._last is None or self._clock() - self._last >= interval

    def mark(self) -> None:
        """Note that a ping went now."""
        self._last = self._clock()

    def ping(self) -> bool:
        """Send ``WATCHDOG=1`` if it is due; True if it was sent."""
        if not self.due():
            return False
        sent = send("WATCHDOG=1", environ=self._environ)
        if sent:
            self.mark()
        return sent

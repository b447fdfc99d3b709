"""The web process: the phone page, its WebSocket, and the pipe to the app (``python -m phones.server``).

It reads :mod:`phones.wire` messages from the app on standard input, keeps a
:class:`~phones.replica.Replica` of the game in its :class:`~phones.hub.Hub`, pushes every step to
every joined phone in that phone's language, and writes what phones ask for to standard output. It
never touches the journal and is given neither its path nor the settings' (the bridge starts it
without them): what it needs comes over the pipe. It starts with less than its parent may have
(:func:`narrowed`): it writes no file, starts no process, opens a bounded number of files.

Its parts: :mod:`phones.door` (the web side and its limits), :mod:`phones.hub` (the game and the
phones), :mod:`phones.phone` (one connection), :mod:`phones.views` (the messages made once for all),
:mod:`phones.logs` (one line a record, never the secret).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import resource
import signal
import sys
from typing import Any

from phones import logs, strict
from phones.door import MOST_CONNECTIONS, serve
from phones.hub import Hub
from phones.wire import APP_ENVIRONMENT, line

log = logging.getLogger("phones.server")

FROM_APP = 64 * 1024 * 1024
"""The longest message the app sends (a whole game's line in its hello)."""


async def _pipe(hub: Hub) -> None:
    """Read the app's messages from standard input until it closes: all the lines waiting at once, their
    changes pushed together (a busy moment costs one view a phone, not one a change)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=FROM_APP, loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop), sys.stdin)
    waiting = bytearray()
    while True:
        chunk = await reader.read(FROM_APP)
        if not chunk:
            return
        waiting += chunk
        end = waiting.rfind(b"\n") + 1
        if not end:
            if len(waiting) > FROM_APP:
                log.error("a message from the app was too long")
                waiting.clear()
            continue
        lines, waiting[:end] = bytes(waiting[:end]).splitlines(), b""
        for text in lines:
            try:
                hub.take(strict.loads(text, limit=FROM_APP))
            except Exception as error:  # one bad message must not end the phones
                log.error("a message from the app was not understood: %s: %s", type(error).__name__, error)
        try:
            hub.flush()
        except Exception as error:
            log.error("the app's changes could not be pushed: %s: %s", type(error).__name__, error)
        await asyncio.sleep(0)  # let the phones' senders take what these messages gave them


def _out(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(line(message))
    sys.stdout.buffer.flush()


async def main_async(host: str, port: int) -> None:
    hub = Hub("", _out)
    try:
        runner, listening = await serve(hub, host, port)
    except OSError as error:  # the port is taken, the address is not this machine's
        _out({"t": "failed", "error": f"{host}:{port}: {error.strerror or error}"})
        raise SystemExit(2) from error
    _out({"t": "listening", "port": listening.sockets[0].getsockname()[1]})
    try:
        await _pipe(hub)
    finally:
        listening.close()
        await runner.cleanup()


LOWER_PRIORITY = 2
"""The web process's niceness: on a busy moment the table screen's process gets more of the processor
(a weight of 1024 against 655). Not more: at 10, on a processor shared with other work, the phones
fell seconds behind the table (docs/phones.md)."""


MOST_FILES = 2 * MOST_CONNECTIONS + 64
"""Open files: the connections, the pipes, the interpreter's own."""


def narrowed() -> None:
    """Start with less: a lower priority, none of the app's paths in the environment, no file grown
    (a write that would grow one fails), no core dump, a bounded number of open files; the hard limits
    are lowered too, so that nothing in the process can raise them again."""
    with contextlib.suppress(OSError):
        os.nice(LOWER_PRIORITY)
    for name in [name for name in os.environ if name.startswith(APP_ENVIRONMENT)]:  # should a parent pass them
        del os.environ[name]
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), it does not kill
    for limit, value in ((resource.RLIMIT_FSIZE, 0), (resource.RLIMIT_CORE, 0), (resource.RLIMIT_NOFILE, MOST_FILES)):
        with contextlib.suppress(OSError, ValueError):
            hard = resource.getrlimit(limit)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(limit, (value, value))  # the hard limit too: it cannot be raised again


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m phones.server", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args(argv)
    logs.configure()
    narrowed()
    asyncio.run(main_async(args.host, args.port))


if __name__ == "__main__":
    main()


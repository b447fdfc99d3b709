"""The web process's log: one line a record, never the game's secret.

The server's own complaints about a malformed request (a request line too long, a head that is
not HTTP) come with a traceback and the request's text, which may hold the link's secret: each
becomes one line naming the error, and every path under ``/g/`` loses what follows it.

>>> record = logging.LogRecord("aiohttp.server", logging.ERROR, "", 0, "Error handling request from %s",
...                            ("10.0.0.9",), (ValueError, ValueError("GET /g/S3cr3t/ws\\nHost: x"), None))
>>> OneLine().filter(record), record.getMessage(), record.exc_info
(True, 'Error handling request from 10.0.0.9: ValueError: GET /g/…/ws Host: x', None)
"""

from __future__ import annotations

import logging
import re

SECRET_PATH = re.compile(r"/g/[^\s/'\"\\]*")
"""A page's path: the secret (or a guess of it) follows ``/g/``."""

LONGEST = 300
"""The most characters a record keeps."""


def redacted(text: str) -> str:
    """``text`` on one line, without what follows ``/g/``, at most :data:`LONGEST` characters.

    >>> redacted("GET /g/abc123/phone.js HTTP/1.1\\r\\nHost")
    'GET /g/…/phone.js HTTP/1.1 Host'
    """
    one = " ".join(SECRET_PATH.sub("/g/…", text).split())
    return one if len(one) <= LONGEST else one[:LONGEST - 1] + "…"


class OneLine(logging.Filter):
    """Makes every record one line without the secret: an exception becomes its type and words."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text = f"{text}: {type(error).__name__}: {error}"
        record.msg, record.args = redacted(text), ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def configure(level: int = logging.WARNING) -> None:
    """The process's log on standard error, each record through :class:`OneLine`."""
    handler = logging.StreamHandler()
    handler.addFilter(OneLine())
    handler.setFormatter(logging.Formatter("phones: %(levelname)s %(message)s"))
    logging.basicConfig(level=level, handlers=[handler], force=True)

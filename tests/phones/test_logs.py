"""Issue 25: the web process's log never holds the game's secret, and a malformed request is one line.

Two hundred over-long request lines (each naming the secret) used to add a traceback each to the
system log, 139 kB, every one with the secret link in it."""

from __future__ import annotations

import asyncio
import io
import logging

from phones import logs
from tests.phones.support import Served


def test_malformed_requests_are_one_line_each_without_the_secret() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.OneLine())
    root = logging.getLogger()
    root.addHandler(handler)

    async def scenario() -> None:
        async with Served() as served:
            secret = served.hub.secret
            answers = []
            for n in range(200):
                reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
                target = f"/g/{secret}/" + "x" * 3000 if n % 2 else f"/g/{secret}/ws\x00\x01"
                writer.write(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                answers.append(await reader.read())  # until the server closes it
                writer.close()
            assert {answer[9:12] for answer in answers} == {b"400"}

    try:
        asyncio.run(scenario())
    finally:
        root.removeHandler(handler)
    written = stream.getvalue()
    lines = written.splitlines()
    assert 0 < len(lines) <= 200 and "Traceback" not in written
    assert all(len(line) <= logs.LONGEST for line in lines)
    assert "S3cr3t" not in written and "/g/…" in written
    assert len(written) < 200 * logs.LONGEST

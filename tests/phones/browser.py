"""A headless Chromium driven over the Chrome DevTools Protocol (aiohttp's WebSocket client), at a
phone's size: enough to open the phone page, tap, read what it shows and take screenshots.

Debian's ``chromium`` (``./run test`` installs it); :func:`chromium` says why when it cannot run.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

WIDTH, HEIGHT = 390, 844
"""The phone the page is sized for (CSS pixels)."""


def chromium() -> str | None:
    """The browser's path, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium with one page at :data:`WIDTH` × :data:`HEIGHT`."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}

    async def __aenter__(self) -> Browser:
        path = chromium()
        assert path is not None
        self.profile = tempfile.mkdtemp(prefix="phone-browser-")
        self.process = subprocess.Popen(
            [path, "--headless=new", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
             "--disable-dev-shm-usage", f"--lang={self.language}", f"--window-size={WIDTH},{HEIGHT}",
             *(["--no-sandbox"] if os.geteuid() == 0 else []), "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        url = await asyncio.wait_for(asyncio.to_thread(self._devtools_url), 60)
        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(url, max_msg_size=64 * 1024 * 1024)
        self.reader = asyncio.create_task(self._read())
        target = await self.call("Target.createTarget", url="about:blank")
        attached = await self.call("Target.attachToTarget", targetId=target["targetId"], flatten=True)
        self.page_session = attached["sessionId"]
        await self.page("Page.enable")
        await self.page("Runtime.enable")
        await self.page("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1, mobile=True)
        await self.page("Emulation.setUserAgentOverride", userAgent="Mozilla/5.0 (Linux; Android 14) Mobile",
                        acceptLanguage=self.language)
        return self

    def _devtools_url(self) -> str:
        assert self.process.stderr is not None
        for text in self.process.stderr:
            found = re.search(r"DevTools listening on (ws://\S+)", text)
            if found:
                return found.group(1)
        raise RuntimeError(f"chromium stopped ({self.process.wait()})")

    async def __aexit__(self, *exc: Any) -> None:
        self.reader.cancel()
        await self.session.close()
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def _read(self) -> None:
        async for message in self.ws:
            body = json.loads(message.data)
            future = self._waiting.pop(body.get("id", -1), None)
            if future is not None and not future.done():
                if "error" in body:
                    future.set_exception(RuntimeError(str(body["error"])))
                else:
                    future.set_result(body.get("result", {}))

    async def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self.ws.send_str(json.dumps(message))
        return await asyncio.wait_for(future, 30)

    async def page(self, method: str, **params: Any) -> dict[str, Any]:
        return await self.call(method, self.page_session, **params)

    async def open(self, url: str) -> None:
        await self.page("Page.navigate", url=url)

    async def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if it is a promise)."""
        result = await self.page("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(str(result["exceptionDetails"]))
        return result["result"].get("value")

    async def until(self, expression: str, timeout: float = 10.0) -> Any:
        """Wait until the expression is truthy; its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.js(expression)
            if value not in (None, False, 0, "", []):  # an element comes back as {}: found
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"never true: {expression}")
            await asyncio.sleep(0.05)

    async def screenshot(self, path: Path) -> None:
        shot = await self.page("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

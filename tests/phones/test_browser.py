"""Issue 16 in a real browser: Debian's Chromium, headless, at 390 × 844. A phone joins by the QR
code's link (the table allows it, as its screen's "Allow" does), watches a roll arrive, trades on
its turn and is refused out of turn."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
import segno

from phones import link
from tests.phones.browser import Browser, chromium
from tests.phones.support import Played, line_to_trade


def browser_or_skip() -> None:
    if chromium() is None:
        message = "chromium is not installed (Debian: apt-get install chromium; ./run test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_a_phone_joins_watches_a_roll_trades_and_is_refused_out_of_turn(tmp_path: Path) -> None:
    browser_or_skip()
    line = line_to_trade()
    *before, roll = line
    assert roll["type"] == "roll"
    seat = roll["player"]

    async def scenario() -> None:
        async with Played(tmp_path) as played, Browser("de") as phone:
            for action in before:
                assert played.table.submit(action).accepted
            url = played.bridge.link("127.0.0.1")
            assert link.matrix(url) == [[bool(m) for m in row] for row in segno.make_qr(url, error="m").matrix]
            await phone.open(url)
            names = await phone.until("[...document.querySelectorAll('#seat-list button')].map(b => b.textContent)")
            assert names[:3] == ["Anna", "Béla", "Csaba"]
            await phone.js(f"document.querySelector('#seat-list button[data-seat=\"{seat}\"]').click()")
            waiting = await phone.until("document.getElementById('status').className === 'wait' && "
                                        "document.getElementById('status').textContent")
            assert waiting.startswith(f"Als {['Anna', 'Béla', 'Csaba'][seat]} angefragt")
            assert await phone.js("document.getElementById('game').hidden") is True  # nothing before the table allows
            played.bridge.allow(await played.asked(seat))  # the table screen's "Allow"
            await phone.until("!document.getElementById('game').hidden")
            assert await phone.js("document.getElementById('l-cash').textContent") == "Bargeld"
            # the die rolls at the table: the phone shows it, and that it is now this player's turn
            assert played.table.submit({"type": "roll", "value": roll["value"]}, "die").accepted
            said = await phone.until("document.getElementById('said').textContent.includes('würfelt') && "
                                     "document.getElementById('said').textContent")
            assert f"würfelt {roll['value']}" in said
            await phone.until("document.getElementById('turn').classList.contains('mine')")
            # trade on its turn: the first sale offered, one share
            length = played.table.length
            await phone.until("document.querySelector('#choices button.act')")
            label = await phone.js("document.querySelector('#choices .choice .label').textContent")
            await phone.js("document.querySelector('#choices .choice button.act').click()")
            status = await phone.until("document.getElementById('status').className === 'good' && "
                                       "document.getElementById('status').textContent")
            assert status.startswith("Erledigt: ") and label in status
            assert played.table.length == length + 1
            assert played.table.history()[-1].source == f"phone-{seat}"
            # a tap that lands just after the turn passed at the table: refused in one sentence
            await phone.until("document.querySelector('#choices button.act')")
            await phone.js("window.stale = document.querySelector('#choices button.act')")
            end = next(c.base() for c in played.table.legal_actions() if c.type == "end_turn")
            assert played.table.submit(end, "screen").accepted
            await phone.until("!document.getElementById('turn').classList.contains('mine')")
            assert await phone.js("document.querySelectorAll('#choices button.act').length") == 0
            after = played.table.length
            await phone.js("window.stale.click()")
            refused = await phone.until("document.getElementById('status').className === 'bad' && "
                                        "document.getElementById('status').textContent")
            assert refused == "Sie sind nicht am Zug."
            assert played.table.length == after

    asyncio.run(scenario())


LONG = "Maximilianfriedrichwilhelmvonundzuhausen"  # forty letters, no space


def test_a_long_name_wraps_and_a_restart_of_the_web_process_keeps_the_seat(tmp_path: Path) -> None:
    """Issue 25 in the browser: a 40-letter name never makes the page wider than the phone; after a
    restart of the web process the page carries on in its seat without a new Allow (its step numbers
    start anew there)."""
    browser_or_skip()
    setup = {"ruleset": "tozsde", "players": [LONG, "Béla", "Csaba"]}

    async def scenario() -> None:
        async with Played(tmp_path, setup=setup) as played, Browser("en") as phone:
            await phone.open(played.bridge.link("127.0.0.1"))
            await phone.until("document.querySelectorAll('#seat-list button').length")
            width = "document.documentElement.scrollWidth"
            assert await phone.js(width) <= 390
            await phone.js("document.querySelector('#seat-list button[data-seat=\"0\"]').click()")
            played.bridge.allow(await played.asked(0))
            await phone.until("!document.getElementById('game').hidden")
            assert await phone.js(width) <= 390 and await phone.js("document.getElementById('me-name').textContent") == LONG
            assert played.table.submit({"type": "roll", "value": 3}, "die").accepted
            await phone.until("document.getElementById('said').textContent.includes('3')")
            # the web process dies; the bridge starts another; the page's seat is its own again
            played.bridge.listening.clear()
            os.kill(played.bridge.pid or 0, signal.SIGKILL)
            for _ in range(400):
                if played.bridge.listening.is_set():
                    break
                await asyncio.sleep(0.025)
            await phone.until("document.body.dataset.connected === 'yes'", timeout=15)
            assert played.table.submit({"type": "roll", "value": 5}, "die").accepted
            said = await phone.until("document.getElementById('said').textContent.includes('5') && "
                                     "document.getElementById('said').textContent", timeout=10)
            assert "5" in said and await phone.js("document.getElementById('game').hidden") is False
            assert not [n for n in played.news if n.said.key == "phones.asks"]  # no new Allow was asked for

    asyncio.run(scenario())

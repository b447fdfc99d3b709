"""Screenshots of the phone page (issue 16) in German and Hungarian, at 390 × 844, for the docs.

    .venv/bin/python -m tools.phone_screenshots docs/screenshots

A game of three is played by bots up to a turn with shares to sell; the page asks for that seat,
the table allows it, with trading from phones on, in a headless Chromium (tests/phones/browser.py).
Then a turn with the casino's wager open on the phone (German), and a game played to its end: the
ranking and the chart (Hungarian).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from companion.bots import play
from companion.describe import describe
from tests.phones.browser import Browser
from tests.phones.support import SETUP, Played, Served, line_to_trade, line_until


async def shoot(folder: Path) -> list[Path]:
    made = []
    *before, roll = line_to_trade()
    for language in ("de", "hu"):
        with tempfile.TemporaryDirectory() as work:
            async with Played(Path(work)) as played, Browser(language) as phone:
                for action in before:
                    assert played.table.submit(action).accepted
                await phone.open(played.bridge.link("127.0.0.1"))
                await phone.until("document.querySelector('#seat-list button')")
                if language == "hu":
                    await phone.screenshot(folder / "phone-seats-hu.png")
                    made.append(folder / "phone-seats-hu.png")
                await phone.js(f"document.querySelector('#seat-list button[data-seat=\"{roll['player']}\"]').click()")
                await played.allow(roll["player"])
                assert played.table.submit({"type": "roll", "value": roll["value"]}, "die").accepted
                await phone.until("document.querySelector('#choices button.act')")
                await asyncio.sleep(0.3)
                path = folder / f"phone-{language}.png"
                await phone.screenshot(path)
                made.append(path)
    line, at = line_until(SETUP, lambda g: any(d.choice.type == "bet" for d in describe(g, "en")))
    async with Served(line) as served, Browser("de") as phone:  # the casino's wager, its dialog on the phone
        seat = at.state.current
        await phone.open(served.base)
        await phone.until("document.querySelector('#seat-list button')")
        await phone.js(f"document.querySelector('#seat-list button[data-seat=\"{seat}\"]').click()")
        await phone.until("document.getElementById('status').className === 'wait'")
        await served.allow(seat)
        await phone.until("document.querySelector('#choices .choice[data-dialog=\"wager\"]')")
        await phone.js("document.querySelector('#choices .choice[data-dialog=\"wager\"] .options button.act').click()")
        await phone.js("document.querySelector('#choices .choice[data-dialog=\"wager\"]').scrollIntoView(); window.scrollBy(0, -70)")  # below the header
        await asyncio.sleep(0.3)
        await phone.screenshot(folder / "phone-wager-de.png")
        made.append(folder / "phone-wager-de.png")
    game = play(SETUP, random.Random(4))  # a game played to its end: the ranking and the chart
    async with Served(list(game.actions)) as served, Browser("hu") as phone:
        await phone.open(served.base)
        await phone.until("document.querySelector('#seat-list button')")
        await phone.js("document.querySelector('#seat-list button[data-seat=\"0\"]').click()")
        await phone.until("document.getElementById('status').className === 'wait'")
        await served.allow(0)
        await phone.until("!document.getElementById('end').hidden")
        await phone.js("document.getElementById('end').scrollIntoView()")
        await asyncio.sleep(0.3)
        await phone.screenshot(folder / "phone-end-hu.png")
        made.append(folder / "phone-end-hu.png")
    return made


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(shoot(folder)):
        print(path)


if __name__ == "__main__":
    main()

"""An evening played by taps on the real app: the start screen, the new game, then turn after turn by the
buttons the screen shows, with a look at History, one Undo, the players' holdings, the owners of a
company, the board, the rules and the settings, each moment's screenshot once.

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python -m tools.play_by_taps \\
        --game tozsde --players 4 --size 800x480 --lang hu --turns 25 --out /tmp/evening

Each action is picked as the engine's random bot would pick it (``companion.bots.choose``), then made
as a banker makes it: by finding the button on screen that stands for it (behind "More…" too, or in the
dialog it opens) and touching it through the window (``tests.ui.support.tap``). An action with no
button the screen shows, or a tap that does nothing, stops the evening with what the screen showed.
The screenshots go to ``--out`` as ``NN-<moment>.png``, one for each kind of moment.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAMES = {"tozsde": ["Anna", "Béla", "Csaba", "Dóra", "Endre", "Fruzsina"],
         "boerse": ["Anna", "Bernd", "Clara", "Dieter"]}


COUNT_STEPS = 30
"""Taps on the count picker's "+" at most for one trade (more than any count a ruleset offers)."""


class Stuck(RuntimeError):
    """The action wanted has no button on screen, or its tap did nothing."""


@dataclass
class Evening:
    """One evening at the table: the app, where its screenshots go, and what has been seen."""

    app: Any
    out: Path | None
    rng: random.Random
    shots: list[str] = field(default_factory=list)
    taps: int = 0
    noticed: list[str] = field(default_factory=list)
    """What went otherwise than a banker would expect, said as it was seen."""
    actions: int = 0

    # -- looking ---------------------------------------------------------------------
    def shot(self, moment: str, again: bool = False) -> None:
        """The window as a PNG named for ``moment``, once a moment unless ``again``."""
        from kivy.core.window import Window

        from tests.ui.conftest import frames

        if self.out is None or (moment in self.shots and not again):
            return
        frames(4)
        self.shots.append(moment)
        made = Window.screenshot(name=str(self.out / "shot.png"))
        os.replace(made, self.out / f"{len(self.shots):02d}-{moment}.png")

    def tap(self, tap_id: str) -> Any:
        from tests.ui.support import tap

        self.taps += 1
        return tap(tap_id)

    @property
    def table(self) -> Any:
        return self.app.session.table

    # -- the start -------------------------------------------------------------------
    def new_game(self, ruleset: str, players: int, roll_off: bool = True) -> None:
        """From the start screen: New game, the game, as many players as wanted (the default names), the
        order of play, Start."""
        from tests.ui.support import visible_ids

        self.shot("start")
        self.tap("start:new")
        self.tap(f"new:ruleset:{ruleset}")
        while sum(1 for i in visible_ids() if i.startswith("new:name:")) < players:
            self.tap("new:add")
        while sum(1 for i in visible_ids() if i.startswith("new:name:")) > players:
            self.tap(f"new:remove:{players}")
        if not roll_off and "new:order_by:hand" in visible_ids():
            self.tap("new:order_by:hand")
        self.shot("new-game")
        self.tap("new:start")
        if "new:confirm" in visible_ids():
            self.shot("new-game-confirm")
            self.tap("new:confirm")
        assert self.app.manager.current == "table", self.app.manager.current
        self.shot("table-first")

    # -- acting ----------------------------------------------------------------------
    def buttons(self) -> list[Any]:
        """The table screen's action buttons and a dialog's, the dialog on top first."""
        from tests.ui.support import widgets

        return [w for w in widgets() if getattr(w, "tap_id", "") and not getattr(w, "disabled", False)]

    def button_for(self, action: dict[str, Any]) -> Any | None:
        """The action button in view that makes ``action`` by one tap (its choice and value), or the one that
        opens its dialog; None where no button shows it."""
        for widget in self.buttons():
            stands = getattr(widget, "stands_for", None)
            if stands is None:
                continue
            choice, value = stands
            if not choice.admits(action):
                continue
            free = [name for name in choice.params if name in action]
            if value is None or (len(free) == 1 and action[free[0]] == value):
                return widget
        named = self.tap_names(action)  # a button of "More…" names its choice and value
        return next((w for w in self.buttons() if w.tap_id in named and getattr(w, "stands_for", None) is None), None)

    def tap_names(self, action: dict[str, Any]) -> set[str]:
        """The tap ids a button making ``action`` may have: ``act:<type>[:<fixed>][:<value>]``."""
        names = set()
        for choice in self.table.legal_actions():
            if choice.admits(action):
                base = ["act", choice.type, *(str(v) for v in choice.fixed.values())]
                names.add(":".join(base))
                names |= {":".join([*base, str(action[name])]) for name in choice.params if name in action}
        return names

    def act(self, action: dict[str, Any]) -> None:
        """Make ``action`` by taps: its button, else "More…" and its button there; a dialog filled in."""
        from tests.ui.support import visible_ids

        before = self.table.length
        button = self.button_for(action)
        if button is None and "count:plus" in visible_ids():
            button = self.count_to(action)
        if button is None and "act:more" in visible_ids():
            self.tap("act:more")
            self.shot("more")
            button = self.button_for(action)
        if button is None:
            raise Stuck(f"no button for {action}; the screen shows {visible_ids()}")
        self.tap(button.tap_id)
        if self.table.length == before:  # a dialog opened: filled in as the action says
            self.fill(action)
        if self.table.length == before:
            raise Stuck(f"the tap on {button.tap_id} did not make {action}; said: {self.said()}")
        self.actions += 1

    def count_to(self, action: dict[str, Any]) -> Any | None:
        """The count picker (−, the count, +) stepped from the first count until a trade button makes
        ``action``; None if no count it offers does."""
        from tests.ui.support import visible_ids

        self.tap("count:one")
        for _ in range(COUNT_STEPS):
            button = self.button_for(action)
            if button is not None or "count:plus" not in visible_ids():
                return button
            self.tap("count:plus")
        return self.button_for(action)

    def fill(self, action: dict[str, Any]) -> None:
        """The dialog on top filled in with ``action``'s values by taps, then OK."""
        from tests.ui.support import find, visible_ids

        ids = visible_ids()
        kind = action["type"]
        if "wager:amount" in ids:
            self.shot("wager")
            amount = find("wager:amount")
            stake = next(v for k, v in action.items() if isinstance(v, int) and v in amount.values and k != "player")
            while amount.value != stake:
                self.tap("wager:amount:plus" if amount.values.index(stake) > amount.index else "wager:amount:minus")
            for member in next(v for v in action.values() if isinstance(v, list)):
                self.tap(f"wager:call:{member}")
            self.shot("wager-filled")
        elif any(i.startswith("order:") for i in ids):
            self.shot("order")
            for seat in next(v for v in action.values() if isinstance(v, list)):
                self.tap(f"order:{seat}")
        elif any(i.startswith("dialog:") and i.endswith(":plus") for i in ids):
            self.shot(f"dialog-{kind}")
            for name, value in action.items():
                if f"dialog:{name}" in ids:
                    stepper = find(f"dialog:{name}")
                    while stepper.value != value:
                        self.tap(f"dialog:{name}:plus" if stepper.values.index(value) > stepper.index else f"dialog:{name}:minus")
        else:
            self.shot(f"confirm-{kind}")
        self.tap("dialog:ok")

    def said(self) -> str:
        return str(self.app.manager.get_screen("table").said_text)

    def step(self) -> None:
        """One action: the bot's pick made by taps; a roll now and then by the app's die."""
        from companion import bots
        from tests.ui.support import visible_ids

        legal = self.table.legal_actions()
        if not legal or all(c.type in self.table.chance_types for c in legal):
            self.wait_for_the_deal()
            return
        action = bots.choose(self.table.game, self.rng)
        if action["type"] == "roll" and "act:app_die" in visible_ids() and self.rng.random() < 0.2:
            before = self.table.length
            self.tap("act:app_die")
            if self.table.length == before:
                raise Stuck(f"the app's die did not roll; said: {self.said()}")
            self.actions += 1
            return
        self.act(action)

    def wait_for_the_deal(self) -> None:
        """Chance the screen deals by itself (the company draw, C2): frames until it has."""
        from tests.ui.conftest import frames

        before = self.table.length
        for _ in range(20):
            frames(1)
            if self.table.length != before:
                return
        raise Stuck(f"nothing dealt; the legal actions are {self.table.legal_actions()}")

    # -- looking around --------------------------------------------------------------
    def look_around(self) -> None:
        """History (and back) with a look at the banker's correction, one Undo and Redo, a player's holdings, a company's owners, the board tab,
        the menu's rules and settings, then back to the table."""
        from tests.ui.support import TABS, find, visible_ids

        self.tap("table:history")
        self.shot("history")
        self.tap("history:correct")  # the banker's correction: looked at, then cancelled
        if "pin:skip" in visible_ids():
            self.tap("pin:skip")
        self.shot("correction")
        self.tap("correct:cancel")
        self.tap("history:back")
        length = self.table.length
        self.tap("table:undo")
        if "pin:skip" in visible_ids():  # no banker's PIN set: it offers one first
            self.shot("undo-offers-pin")
            self.tap("pin:skip")
            self.shot("undo-without-pin")
        if self.table.length == length and "dialog:ok" in visible_ids():  # it asks what is taken back
            self.shot("undo-asks")
            self.tap("dialog:ok")
        if self.table.length == length:
            self.noticed.append(f"Undo at action {length} left the game at {length} actions: {self.said()}")
        self.shot("undone")
        if "table:redo" in visible_ids() and not find("table:redo").disabled:
            self.tap("table:redo")
            self.shot("redone")
        seat = self.table.view(with_legal=False).game["turn"]["player"]
        if f"player:{seat}" in visible_ids():
            self.tap(f"player:{seat}")
            self.shot("holdings")
            self.close_list()
        market = [i for i in visible_ids() if i.startswith("market:")]
        if market:
            self.tap(market[0])
            self.shot("owners")
            self.close_list()
        if "table:board" in visible_ids() and not self.app.manager.get_screen("table").ids.panel.both:
            from tests.ui.support import tap

            tap("table:board", at=TABS)
            self.shot("board")
            tap("table:board", at=TABS)
        self.tap("table:menu")
        self.shot("menu")
        self.tap("start:rules")
        self.shot("rules")
        for rules in [i for i in visible_ids() if i.startswith("rules:") and i != "rules:back"]:
            self.tap(rules)
            self.shot(f"rules-{rules.split(':')[1]}")
        self.tap("rules:back")
        self.tap("start:settings")
        self.shot("settings")
        self.tap("settings:close")
        self.tap("start:resume")
        assert self.app.manager.current == "table", self.app.manager.current

    def close_list(self) -> None:
        from tests.ui.support import visible_ids

        for close in ("list:close", "dialog:cancel"):
            if close in visible_ids():
                self.tap(close)
                return

    def play(self, turns: int, look_at: int = 2) -> None:
        """``turns`` turns (or to the game's end, ``turns`` 0), a look around in turn ``look_at``; a turn
        is counted each time another player's turn begins, from the first round on (the roll-off and the
        draw of round 0 are the evening's start)."""
        count, player, looked = 0, None, False
        while not self.table.state.finished:
            turn = self.table.view(with_legal=False).game["turn"]
            if turn["player"] != player and turn["round"]:
                count, player = count + 1, turn["player"]
            if turns and count > turns:
                break
            if not looked and count >= look_at:
                self.look_around()
                looked = True
            for kind in sorted({c.type for c in self.table.legal_actions()}):
                self.shot(f"can-{kind}")
            done = self.table.length
            self.step()
            for action in self.table.actions(done):
                self.shot(f"did-{action['type']}")
        self.shot("last")
        if self.table.state.finished:
            self.shot("end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(NAMES), default="tozsde")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--lang", default="hu")
    parser.add_argument("--turns", type=int, default=25, help="0: to the game's end")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("evening"))
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    work = Path(tempfile.mkdtemp(prefix="evening-"))
    os.environ.setdefault("KIVY_HOME", str(work / "kivy"))
    from ui import launch

    launch.configure((width, height))
    from kivy.core.window import Window

    from ui.app import CompanionApp
    from tests.ui.conftest import frames

    app = CompanionApp(work / "games.db", settings_path=work / "settings.json")
    app._run_prepare()
    Window.size = (width, height)
    app.lang = args.lang
    frames()
    args.out.mkdir(parents=True, exist_ok=True)
    evening = Evening(app, args.out, random.Random(args.seed))
    evening.new_game(args.game, args.players)
    evening.play(args.turns)
    for line in evening.noticed:
        print("noticed:", line)
    print(f"{evening.actions} actions by {evening.taps} taps, {len(evening.shots)} screenshots in {args.out}")
    app.session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

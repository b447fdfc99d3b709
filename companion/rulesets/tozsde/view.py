"""What ``companion state --json`` and the screen show of a Tőzsde game besides the core's view (docs/state.md)."""

from __future__ import annotations

from typing import Any

from companion.rulesets.tozsde.choices import Choices
from companion.state import State


class View(Choices):
    """The board with each field's neighbours, the roll-off, the draw, the casino bet, the buying limits."""

    def _neighbours(self, field: int) -> dict[str, int | None]:
        """The field one step away for each die number (None: off the board, the figure stays; T15)."""
        step = self.layout.step[field]
        return {die: step[int(die)] for die in self.board["directions"]}

    def public_view(self, state: State) -> dict[str, Any]:
        board = self.board
        view: dict[str, Any] = {
            "board": {
                "name": board.get("name"),
                "house_default": bool(board.get("house_default", False)),
                "note": board.get("note"),
                # Copies: the layout behind them is shared by every game on this board.
                "directions": {n: list(d) for n, d in board["directions"].items()},
                "fields": [{**f, "neighbours": self._neighbours(f["id"])} for f in board["fields"]],
            },
            "house_defaults": ["board"] if board.get("house_default") else [],
        }
        field = None
        position = None if state.current is None else state.players[state.current].position
        if position is not None:
            f = self.layout.fields[position]
            field = {"id": f["id"], "q": f["q"], "r": f["r"], "kind": f["kind"], "company": f.get("company")}
        view["field"] = field
        ro = state.data.get("rolloff", {})
        n = len(state.players)
        view["rolloff"] = {
            "order_by": self.setup.get("order_by", "rolloff"),  # the setup's way: a roll-off or by hand (§5)
            "by_hand": ro.get("by_hand", False),
            "rolling": list(ro.get("group", [])),
            "rolls": [{"seat": s, "value": v} for s, v in ro.get("rolls", [])],
            "places": {str(n - i): s for i, s in enumerate(ro.get("last", []))},
            "history": ro.get("history", []),
        }
        draw = state.data.get("draw")
        view["draw"] = None if draw is None else {
            "drawn": [{"seat": s, "company": c} for s, c in draw["drawn"]],
            "left": len(self.companies) - len(draw["drawn"]),
        }
        bet = state.turn.get("bet")
        view["casino"] = None if bet is None else {**bet, "numbers": list(bet["numbers"])}
        limits = self.buy_limits(state)
        view["buy_limits"] = None
        if limits:
            bought = state.turn["bought"]
            view["buy_limits"] = {"kind": state.turn["kind"], "bought": dict(bought), "left": limits}
            if state.turn["kind"] == "change":
                view["buy_limits"]["shares_left"] = self.change_limits["shares"] - sum(bought.values())
                view["buy_limits"]["companies_left"] = max(0, self.change_limits["companies"] - len(bought))
        return view

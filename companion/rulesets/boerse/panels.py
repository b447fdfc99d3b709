"""Die Börse's screen panels: pure data the app shows (ui/panels.py, ui/board.py).

>>> from types import SimpleNamespace
>>> market_cell(SimpleNamespace(money=lambda n: f"{n} DM"), {"id": "Bau", "price": 120, "exchange": 4}, {})
'[b]Bau[/b]  120 DM · 4×'
>>> grid_place(13, 8)
(5, 1)
>>> shown = SimpleNamespace(lang="en", t=lambda lang, key: key.rpartition(".")[2])
>>> spaces = [{"kind": "start"}, {"kind": "domain", "company": "Bau", "amount": -20}, {"kind": "fall", "amount": 30}]
>>> [(p.x, p.y, p.number, p.mark) for p in board(shown, {"track": {"spaces": spaces}}).places]
[(0, 0, '0', 'start'), (1, 0, '1', 'Bau\\n−20'), (2, 0, '2', '−30')]
"""

from __future__ import annotations

from typing import Any

from companion.board_model import Board, KeyEntry, Place, RGBA, Shown

SPACE_COLOURS: dict[str, RGBA] = {
    "start": (0.85, 0.85, 0.85, 1),
    "rise": (0.16, 0.50, 0.28, 1),
    "fall": (0.68, 0.18, 0.18, 1),
    "risk": (0.80, 0.62, 0.08, 1),
    "domain": (0.26, 0.29, 0.36, 1),
    "event": (0.12, 0.42, 0.75, 1),
    "refund": (0.45, 0.22, 0.62, 1),
}
"""The fill of a Die Börse space by kind (B16)."""

PER_VALUE = ("roll", "pick")
"""The die's faces, and each package to pick, on a button of its own."""

TRACK_COLUMNS = 10
"""Die Börse's track is drawn in rows of ten spaces, read like text (0–9, 10–19, …): four rows of wide
tiles, so a space's company and amount stand at the screen's least text size."""


def grid_place(index: int, columns: int) -> tuple[int, int]:
    """The column and row of the ``index``-th space in rows of ``columns``."""
    return index % columns, index // columns


def _mark(app: Any, space: dict[str, Any]) -> str:
    """What a space says: a domain's company and amount, a rise's or fall's amount, else its kind's word."""
    kind = space["kind"]
    amount = space.get("amount")
    signed = "" if not isinstance(amount, int) else (f"+{amount}" if amount >= 0 else f"−{-amount}")
    if kind == "domain":
        return f"{space.get('company', '')}\n{signed}"
    if kind in ("rise", "fall"):
        return signed if kind == "rise" else f"−{abs(amount or 0)}"
    return str(app.t(app.lang, f"boerse.board.mark.{kind}"))


KEY_MARKS = {"rise": "+", "fall": "−", "risk": "?", "event": "!", "refund": ""}
"""The key's entries (B16), each with the mark its spaces show: every kind of space but those that say
what they are (the start, and an investment domain's company and amount)."""


def key(app: Shown) -> tuple[KeyEntry, ...]:
    """What the track's colours and its "?" / "!" mean, in the screen's language.

    >>> from types import SimpleNamespace
    >>> [(k.mark, k.name) for k in key(SimpleNamespace(lang="en", t=lambda lang, key: key.rpartition(".")[2]))][2:4]
    [('?', 'risk'), ('!', 'event')]
    """
    return tuple(KeyEntry(str(app.t(app.lang, f"boerse.board.kind.{kind}")), SPACE_COLOURS[kind], mark)
                 for kind, mark in KEY_MARKS.items())


def board(app: Shown, view: dict[str, Any]) -> Board:
    """Die Börse's track (B16): every space in rows of ten with its number, its kind's colour, amount
    or company; the stones stand in a band along a space's bottom, under its text; its key under it."""
    places = tuple(Place(index, *grid_place(index, TRACK_COLUMNS), kind=space["kind"],
                         fill=SPACE_COLOURS.get(space["kind"], SPACE_COLOURS["domain"]), mark=_mark(app, space),
                         number=str(index))
                   for index, space in enumerate(view["track"]["spaces"]))
    return Board("tile", places, key(app), figure_drop=0.0, figure_size=0.48)


def market_cell(app: Shown, company: dict[str, Any], view: dict[str, Any]) -> str:
    """The company, its price and its shares at the exchange."""
    return f"[b]{company['id']}[/b]  {app.money(company['price'])} · {company['exchange']}×"


def market_note(app: Shown, view: dict[str, Any]) -> str:
    """The dividend paid now, the fiscus, and the rounds left where the deck counts them."""
    notes = [app.t(app.lang, "boerse.table.dividend", amount=app.money(view["dividend_now"])),
             app.t(app.lang, "boerse.table.fiscus", amount=app.money(view["fiscus"]))]
    rounds = view.get("deck", {}).get("rounds_left")
    if rounds is not None:
        notes.append(app.t(app.lang, "boerse.table.rounds_left", rounds=rounds))
    return " · ".join(notes)

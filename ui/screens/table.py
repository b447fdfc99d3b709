"""The table screen, on all evening: whose turn, the last roll, every player, the market, what just happened,
and the legal actions as large buttons with their amounts.

Every number comes from ``Table.view()`` and every button from the engine's
described choices (:func:`companion.describe.describe`); the screen prices
nothing itself. The action buttons are planned without widgets
(:mod:`ui.screens.action_plan`) and made Kivy buttons by :mod:`ui.screens.actions`.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion import text
from companion.describe import Described, Group
from companion.turns import TURN_LOOKBACK, turn_roll
from ui import board as _board  # noqa: F401  (registers MarketOrBoard for table.kv)
from ui import banker, measure, panels, theme
from ui.screens.actions import Actions
from ui.widgets import app, lay_out, settle

ROW_FONT = 0.85
"""The players' rows' text size in units, where it fits; never below :data:`ui.theme.LEAST`."""

ROW_LEFT, ROW_RIGHT = 0.55, 0.2
"""Room in a player's row left of its text (the figure's colour) and right of it, in units."""

MONEY_GAP = 0.4
"""The gap between the name and the numbers and between cash and fortune, in units."""

WHO_WIDTH = 6
"""The least width left for the name and the shares beside cash and fortune, in units."""


def columns_for(count: int) -> int:
    """The columns of ``count`` players' rows: one up to four players, two for five or six."""
    return 1 if count <= 4 else 2


def fit_players(count: int, height: float, width: float, unit: float, spacing: float,
                money_width: float = 8.0) -> tuple[int, float, float]:
    """The columns, the text size and the size of cash and fortune (px) for ``count`` players' rows in
    ``height`` × ``width`` px; ``money_width``: how wide the widest cash and fortune are together at 1 px.

    Up to four players stand in one column, a row each: the name over the shares at the left, cash and
    fortune beside them as a column of large numbers each; five or six stand in two columns, the name and
    the shares on one line over cash and fortune. The text is :data:`ROW_FONT` units where it fits, at
    least :data:`ui.theme.LEAST`; cash and fortune as large as the row's height and width let them be, up
    to :data:`ui.theme.MONEY` units (twice the least), less only where a long sentence below makes the
    rows give way:

    >>> [(c, round(f), round(m)) for c, f, m in (fit_players(n, 186, 429, 20, 3, 5.6) for n in (4, 6))]
    [(1, 17, 32), (2, 16, 32)]
    >>> [(c, round(f), round(m)) for c, f, m in (fit_players(n, 100, 429, 20, 3, 5.6) for n in (4, 6))]
    [(1, 9, 19), (2, 13, 13)]
    """
    least, largest = unit * theme.LEAST, unit * ROW_FONT
    columns = columns_for(count)
    rows = max((count + columns - 1) // columns, 1)
    row = (height - (rows - 1) * spacing) / rows
    inner = (width - (columns - 1) * spacing) / columns - unit * (ROW_LEFT + ROW_RIGHT + MONEY_GAP)
    fits = row / (2 * theme.LINE)  # two lines of text: the name and the shares, or a line and the numbers
    if columns == 1:  # the name over the shares, the numbers beside them at the row's height
        font = min(largest, fits) if fits >= least else fits  # less only where the rows give way
        across = (inner - unit * (WHO_WIDTH + MONEY_GAP)) / money_width
        money = min(unit * theme.MONEY, row / theme.LINE, across)
    else:  # a line of the name and the shares, the numbers under it
        font = min(least, fits)
        money = min(unit * theme.MONEY, row / theme.LINE - font, inner / money_width)
    return columns, font, max(money, font)


class MarketCell(ButtonBehavior, Label):
    """One company's line of the market panel, as the ruleset's panels say it (its look: ``table.kv``);
    a tap shows who holds the company (:func:`ui.owners.show_company`)."""

    company = StringProperty("")
    tap_id = StringProperty("")


class TableScreen(Screen):
    turn_text = StringProperty("")
    turn_colour = ListProperty(list(theme.BUTTON))
    roll_text = StringProperty("")
    market_note = StringProperty("")
    players_key = StringProperty("")
    """What the numbers in the players' rows are (cash · fortune · shares)."""
    player_columns = NumericProperty(1)
    said_text = StringProperty("")
    said_colour = ListProperty(list(theme.TEXT))
    said_font = NumericProperty(20)
    """What just happened is drawn this large (px): smaller for a long sentence (:meth:`show_said`)."""
    said_room = NumericProperty(100)
    """The room for what just happened (px): :data:`theme.SAID_ROOM` less the die's line while it shows, so the
    rows above (the board) and the actions below keep their place and size when a die connects or is lost."""
    can_redo = BooleanProperty(False)
    ring_out = NumericProperty(0)
    """Room round the action buttons for the ring's outer part (px; 0 while no ring may come)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        app().bind(view=lambda *_: self.refresh())
        self._dealing = False
        self._player_rows: list[PlayerRow] = []
        self._players_shown: tuple[dict[str, Any], list[str]] | None = None
        self._laid_out = False
        """Whether the screen was laid out at its size (its first :meth:`on_pre_enter`): the players' rows are
        drawn for the room they have then, not for a widget's default size on the way."""
        self._board_view: tuple[dict[str, Any], list[str]] | None = None
        self.ids.player_rows.bind(size=self._players_resized)  # a new height, or width (the columns changed)
        self.ids.said.bind(width=self._said_resized, texture_size=self._said_drawn)
        self.bind(said_room=self._said_room_changed)
        self._cells: list[MarketCell] = []
        self.actions = Actions(self)
        app().bind(selection=lambda *_: self.actions.show_selection())
        self.ids.panel.bind(board_shown=self._board_toggled, both=self._board_in_view)

    def on_pre_enter(self, *_: Any) -> None:
        self.ids.panel.board_shown = app().settings.board  # the market or the board, as it was left
        self.refresh()
        if not self._laid_out and self.manager is not None:
            # laid out before its first frame: each text wrapped and drawn once, at its width, and the
            # players' rows made once, for the room they have (not also at the sizes of the frame's passes)
            settle(self.manager)
            self._laid_out = True
            if self._players_shown is not None:
                self._draw_players(*self._players_shown)
                lay_out(self.ids.player_rows)

    def _board_toggled(self, panel: Any, shown: bool) -> None:
        """The market or the board was chosen: kept in the settings, so a restart shows it again.
        The board is drawn when it comes into view (a redraw leaves it while the market is shown)."""
        self._board_in_view(panel)
        a = app()
        if a.settings.board != shown:
            a.settings.board = shown
            a.save_settings()

    def _board_in_view(self, panel: Any, *_: Any) -> None:
        """Draw the board where it has come into view: its tab chosen, or a large display's room for both."""
        if (panel.board_shown or panel.both) and self._board_view is not None:
            panel.show(*self._board_view)

    # -- drawing -------------------------------------------------------------------
    def refresh(self) -> None:
        a = app()
        table = a.session.table
        if table is None:
            return
        shown = a.view  # the view every screen draws, unless it is not this table's now
        fresh = shown is not None and (shown.game_id, shown.length, shown.redo_depth) == (
            table.game_id, table.length, table.redo_depth)
        view = (shown if fresh else table.view(with_legal=False)).game
        setup = table.setup
        colours = setup.get("colours") or []
        lang = a.lang
        turn = view["turn"]
        seat = turn["player"]
        self.turn_colour = list(theme.figure(colours[seat] if seat is not None and seat < len(colours) else None))
        last = self._last_roll(table, seat)
        rolled = "" if last is None else a.t(lang, "ui.table.last_roll", value=last)
        if view["finished"]:
            ranking = view["ranking"] or []
            first = ranking[0] if ranking else []
            self.turn_text = " = ".join(view["players"][s]["name"] for s in first)
            # the winner's own colour (a tie: the colour of winning, no one's)
            alone = first[0] if len(first) == 1 and first[0] < len(colours) else None
            self.turn_colour = list(theme.GOOD if alone is None else theme.figure(colours[alone]))
            self.roll_text = a.t(lang, "ui.table.game_over")
        else:  # the name alone in the banner, large: the round and the roll beside it
            self.turn_text = turn["name"] or ""
            self.roll_text = "\n".join(filter(None, (a.t(lang, "ui.table.round", round=turn["round"]), rolled)))
        self.can_redo = table.redo_depth > 0
        self._draw_players(view, colours)
        self._draw_market(view)
        self._board_view = view, colours
        panel = self.ids.panel
        if panel.board_shown or panel.both:  # the board view (ui/board.py), drawn only while it is in view
            panel.show(view, colours)
        described = table.describe(a.lang) if table.writable else []
        self._draw_said(view, described)
        self.actions.draw(table, described)
        self._maybe_deal(table)

    def _last_roll(self, table: Any, player: int | None) -> int | None:
        """The die value ``player`` rolled in the turn under way, as the journal has it (rolls are
        actions like any other); None before their roll, so the next turn starts without the last one's."""
        try:
            recent = table.actions(-TURN_LOOKBACK)
        except Exception:  # a journal that cannot be read now: no roll shown, the table says why elsewhere
            return None
        return turn_roll(recent, player)

    def _draw_players(self, view: dict[str, Any], colours: list[str]) -> None:
        """One row a player, in order of play from the starting player (``view["order"]``): the name and the
        shares in the one share notation (:func:`companion.text.holdings`, as many as the row has room for;
        all of them in the player's list, :func:`ui.owners.show_player`), cash and fortune large."""
        a = app()
        lang = a.lang
        current = view["turn"]["player"]
        self._players_shown = view, colours
        currency = a.money(0).replace(a.number(0), "", 1).strip()
        fortune = a.t(lang, "ui.table.fortune") + (f" ({currency})" if currency else "")
        self.players_key = (f"{a.t(lang, 'ui.table.shares')} · {a.t(lang, 'ui.table.cash')} · "
                            f"[color={theme.hex_colour(theme.FORTUNE)}]{fortune}[/color]")
        grid = self.ids.player_rows
        by_seat = {p["seat"]: p for p in view["players"]}
        seats = [s for s in view.get("order") or [] if s in by_seat]
        players = [by_seat[s] for s in seats] + [p for p in view["players"] if p["seat"] not in seats]
        if not self._laid_out:  # their room not known yet: drawn once it is (on_pre_enter)
            self.player_columns = columns_for(len(players))
            return
        unit = a.unit
        plain = measure.extents_for(unit)
        cash_1 = max((plain(a.number(p["cash"]))[0] for p in players), default=unit) / unit
        fortune_1 = max((plain(a.number(p["fortune"]))[0] for p in players), default=unit) / unit
        columns, font, money = fit_players(len(players), grid.height, grid.width, unit, grid.spacing[1],
                                           cash_1 + fortune_1)
        self.player_columns = columns
        large = measure.extents_for(money)  # as drawn: a width scaled from another size may be a px short
        cash_width = max((large(a.number(p["cash"]))[0] for p in players), default=0) + 2
        fortune_width = max((large(a.number(p["fortune"]))[0] for p in players), default=0) + 2
        beside = columns == 1
        room = (grid.width - (columns - 1) * grid.spacing[0]) / columns - unit * (ROW_LEFT + ROW_RIGHT)
        if beside:
            room -= cash_width + fortune_width + 2 * unit * MONEY_GAP
        plain, bold = measure.extents_for(font), measure.extents_for(font, True)
        rows = reuse(grid, self._player_rows, len(players), PlayerRow)
        for row, p in zip(rows, players):
            colour = theme.figure(colours[p["seat"]] if p["seat"] < len(colours) else None)
            drawn = (p["name"], p["status"], p["credit"], tuple(p["shares"].items()), p["cash"], p["fortune"],
                     p["seat"], p["seat"] == current, tuple(colour), lang, room, font, money, beside,
                     cash_width, fortune_width)
            if drawn == row.drawn:
                continue  # nothing of this row changed: its texts are not made again
            row.drawn = drawn
            out = f" ({a.t(lang, 'ui.table.out')})" if p["status"] == "out" else ""
            # in words: "Kredit 500 DM · keine Aktien", not "Kredit 500 · —" (issue 24)
            credit = f"{a.t(lang, 'ui.table.credit')} {a.money(p['credit'])} · " if p["credit"] else ""
            name = f"[b]{p['name']}[/b]{out}"
            left = room - 2 if beside else room - bold(p["name"] + out + "  ")[0] - 2
            none = a.t(lang, "ui.table.no_shares")
            if beside:  # the name alone on its line, whether the player is out on the next
                second = f"{out.strip()} {credit}" if out else credit
                held = shortened(p["shares"], lang, left - plain(second)[0], plain, none)
                row.who = f"[b]{p['name']}[/b]\n{second if held else second.removesuffix(' · ')}{held}"
            else:
                held = shortened(p["shares"], lang, left - plain(credit)[0], plain, none)
                row.who = f"{name}  {credit if held else credit.removesuffix(' · ')}{held}"
            row.cash, row.fortune = a.number(p["cash"]), a.number(p["fortune"])
            row.font, row.money_font, row.beside = font, money, beside
            row.cash_width, row.fortune_width = cash_width, fortune_width
            row.colour = list(colour)
            row.current = p["seat"] == current
            row.tap_id, row.seat = f"player:{p['seat']}", p["seat"]

    def _players_resized(self, grid: Widget, size: Any) -> None:
        """The rows' room changed (the window, or a long sentence below): fit them again."""
        if self._players_shown is not None and self.manager is not None:
            self._draw_players(*self._players_shown)

    def _draw_market(self, view: dict[str, Any]) -> None:
        """The market panel as the ruleset's own panels draw it (ui/panels.py)."""
        a = app()
        shown = panels.of(view["ruleset"])
        cells = reuse(self.ids.market, self._cells, len(view["companies"]), MarketCell)
        for cell, company in zip(cells, view["companies"]):
            cell.text = shown.market_cell(a, company, view)
            cell.company, cell.tap_id = company["id"], f"market:{company['id']}"
        self.market_note = shown.market_note(a, view)

    def _draw_said(self, view: dict[str, Any], described: list[Described]) -> None:
        a = app()
        debt = view.get("debt")
        said = a.said
        if debt is not None:
            debtor = view["players"][debt["debtor"]]["name"]
            # how it can be covered, as the legal choices say: a game may have no credit
            can_borrow = any(d.group == Group.LOANS for d in described)
            key = "ui.table.owed" if can_borrow else "ui.table.owed_sell"
            owed = a.t(a.lang, key, player=debtor, amount=a.money(debt["total"]))
            said = f"{said}\n{owed}" if said else owed
            self.said_colour = list(theme.SELECTED)
        else:
            last = a.session.last
            refused = last is not None and getattr(last, "accepted", True) is False
            self.said_colour = list((1, 0.55, 0.55, 1) if refused else theme.TEXT)
        if not said:  # nothing said yet: what to do now, as the ruleset's panels say it (the roll-off's rule)
            said = panels.of(view["ruleset"]).hint(a, view)
        self.show_said(theme.printable(said))

    def show_said(self, text: str) -> None:
        """Show what just happened: drawn at the usual size first, and a size smaller each time it is
        drawn higher than its room (:meth:`_said_drawn`), so a long sentence leaves the rows above it
        where they were."""
        if text != self.said_text:
            self.said_font = app().unit * theme.SAID_SIZES[0]
            self.said_text = text

    def _said_drawn(self, label: Label, size: tuple[int, int]) -> None:
        unit = app().unit
        if size[1] > self.said_room - unit * theme.SAID_PAD:
            self.said_font = next((unit * scale for scale in theme.SAID_SIZES if unit * scale < self.said_font - 0.01),
                                  self.said_font)

    def _said_room_changed(self, *_: Any) -> None:
        """A die's line come or gone: the usual size again, then as it fits the new room."""
        self._said_resized()
        self._said_drawn(self.ids.said, self.ids.said.texture_size)

    def _said_resized(self, *_: Any) -> None:
        """A new width (the window, the language's panel): the usual size again, then as it fits."""
        self.said_font = app().unit * theme.SAID_SIZES[0]

    def _maybe_deal(self, table: Any) -> None:
        """The action of chance the game's panels let the screen make by itself (``screen_deals``),
        one at a time, each journaled."""
        if self._dealing or not panels.of(table.setup["ruleset"]).screen_deals(table.setup, table.state.phase):
            return
        self._dealing = True

        def deal(_dt: float) -> None:
            self._dealing = False
            app().session.deal()

        Clock.schedule_once(deal, 0)

    # -- taps ------------------------------------------------------------------------
    def undo(self) -> None:
        banker.undo()

    def redo(self) -> None:
        banker.redo()

W = TypeVar("W", bound=Widget)


def reuse(parent: Widget, kept: list[W], count: int, make: Callable[[], W]) -> list[W]:
    """``count`` widgets of ``parent``, in order: those in ``kept`` first, then new ones made by
    ``make()``; the rest removed. A redraw changes their texts; it makes no widget it already has."""
    while len(kept) < count:
        kept.append(make())
        parent.add_widget(kept[-1])
    while len(kept) > count:
        parent.remove_widget(kept.pop())
    return kept


class PlayerRow(ButtonBehavior, BoxLayout):
    """One player: the figure's colour at the left, the name and the shares (``who``), cash and fortune as
    large numbers (beside them in one column of rows, under them in two); a tap shows the player's shares
    with their values (:func:`ui.owners.show_player`). Its look: ``table.kv``."""

    who = StringProperty("")
    cash = StringProperty("")
    fortune = StringProperty("")
    font = NumericProperty(16)
    money_font = NumericProperty(32)
    cash_width = NumericProperty(0)
    fortune_width = NumericProperty(0)
    beside = BooleanProperty(True)
    """Cash and fortune beside the name and the shares (one column of rows), else under them."""
    colour = ListProperty(list(theme.BUTTON))
    current = BooleanProperty(False)
    tap_id = StringProperty("")
    seat = NumericProperty(-1)
    drawn: tuple[Any, ...] = ()
    """What the row's texts were made from last (:meth:`TableScreen._draw_players` skips a row whose is the same)."""


def shortened(shares: dict[str, int], language: str, room: float, measure: Callable[[str], tuple[int, int]],
              none: str = "") -> str:
    """A player's shares in the one share notation (:func:`companion.text.holdings`), as many as ``room`` px
    has room for, the companies in order, then "…" for the rest; ``none`` (in words) where there are none.

    >>> shortened({"7": 2, "11": 4, "3": 1}, "en", 80, lambda t: (len(t) * 10, 20))
    '2× 7 · …'
    >>> shortened({"7": 2}, "en", 80, lambda t: (len(t) * 10, 20))
    '2× 7'
    >>> shortened({"7": 0}, "en", 100, lambda t: (len(t) * 10, 20), "no shares")
    'no shares'
    >>> shortened({}, "en", 80, lambda t: (len(t) * 10, 20), "no shares")  # no room for the words: none
    ''
    """
    held = [(c, n) for c, n in shares.items() if n]
    if not held:
        return none if measure(none)[0] <= room else ""
    whole = text.holdings(dict(held), language)
    if measure(whole)[0] <= room:
        return whole
    for count in range(len(held) - 1, 0, -1):
        part = text.holdings(dict(held[:count]), language) + " · …"
        if measure(part)[0] <= room:
            return part
    return "…"

"""The new game screen: ruleset, players with names and figure colours, the ruleset's setup choices, house options.

Every ruleset the engine finds is offered (:func:`companion.registry.available`),
in the order of ``list_order`` in its ``ruleset.json``. Everything else it
offers comes from that file and the rules class too: the number of players,
the choices of the setup (``setup_choices``: a setup key and its values, e.g.
the order of play; ``seat_choice``: a setup key naming one seat, e.g. who
begins), the options with their defaults and bounds, which are house defaults
(RULINGS), and ``default_players``, how many players a new table starts with.
Their labels are the ruleset's own texts: ``<name>.setup.<key>``,
``<name>.setup.<key>.<value>``, ``<name>.option.<key>`` (a seat choice's
column also ``<name>.setup.<key>.hint`` and ``.chosen``). Names are picked
from chips or typed on the on-screen letter pad; numbers are set with steppers,
a table option (a ruleset's ``option_tables``) row by row.

The layout: the rulesets stand in the top bar, the players in the left column,
the setup choices in the right one, whole at 800×480; the house options open
from there in their own view, every one in sight (issue 24, item 18).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion import registry
from companion.messages import register_package
from companion.ruleset import SetupError
from ui import theme
from ui.banker import with_pin
from ui.screens.start import ruleset_title, shown_value
from ui.widgets import BigButton, Caption, ListView, RowButton, Stepper, app, name_pad

NAMES = ("Anna", "Béla", "Csaba", "Dóra", "Emil", "Flóra", "Gábor", "Hanna", "Jonas", "Lena", "Max", "Sophie")
"""Names offered as chips on the name pad."""



def ruleset_data(name: str) -> dict[str, Any]:
    """A ruleset's ``ruleset.json``; its texts join the catalogue (the labels of its options)."""
    rules = registry.ruleset_class(name)
    register_package(rules.package, rules.currency)
    data: dict[str, Any] = rules.read_json("ruleset.json")
    return data


def rulesets() -> list[str]:
    """The rulesets offered, by ``list_order`` in their ``ruleset.json`` (those without it last), then by name."""
    return sorted(registry.available(), key=lambda name: (ruleset_data(name).get("list_order", 1000), name))


def player_limits(name: str) -> tuple[int, int]:
    """The fewest and most players of a ruleset, as its rules say."""
    rules = registry.ruleset_class(name)
    return rules.min_players, rules.max_players


def house_default_keys(data: dict[str, Any]) -> set[str]:
    """The options that are house defaults (RULINGS), from ``house_defaults`` (a list or a map with notes)."""
    house = data.get("house_defaults", [])
    return set(house) if isinstance(house, (list, dict)) else set()


def default_players(name: str) -> int:
    """How many players a new table of the ruleset starts with: ``default_players`` of its ``ruleset.json``
    within its limits; the fewest where it names none."""
    lo, hi = player_limits(name)
    return max(lo, min(hi, int(ruleset_data(name).get("default_players", lo))))


def table_values(key: str, data: dict[str, Any]) -> list[list[int]] | None:
    """The values each column of a table option takes (``option_tables``: ``steps`` and ``max`` by column,
    from 0; ``first_row`` the first row's values it fixes, null where set), or None for an option that is no table.

    >>> [c[:3] for c in table_values("t", {"option_tables": {"t": {"steps": [500, 50], "max": [1000, 100]}}})]
    [[0, 500, 1000], [0, 50, 100]]
    """
    spec = data.get("option_tables", {}).get(key)
    if spec is None:
        return None
    return [list(range(0, int(top) + 1, int(step))) for step, top in zip(spec["steps"], spec["max"])]


def option_values(key: str, default: Any, data: dict[str, Any]) -> list[Any] | None:
    """The values a stepper offers for an option, or None when it cannot be set on the screen.

    >>> option_values("price_base", 800, {"option_bounds": {"price_base": {"min": 100, "max": 10000}}})[:4]
    [100, 150, 200, 250]
    >>> option_values("deck", "virtual", {"option_values": {"deck": ["virtual", "real"]}})
    ['virtual', 'real']
    >>> option_values("timed_rounds", None, {"option_bounds": {"timed_rounds": {"min": 1, "max": 1000, "null": True}}})[:3]
    [None, 5, 10]
    """
    if isinstance(default, bool):
        return [True, False]
    listed = data.get("option_values", {}).get(key)
    if isinstance(listed, list):
        return list(listed)
    bounds = data.get("option_bounds", {}).get(key)
    if bounds is None:
        return None
    lo, hi = int(bounds["min"]), int(bounds["max"])
    if default is None:
        values: list[Any] = [None, *range(max(lo, 5), min(hi, 100) + 1, 5)]
        return values
    if not isinstance(default, int):
        return None
    digits = len(str(abs(default)))
    step = 1 if digits <= 2 else 5 * 10 ** (digits - 3) * 10
    top = min(hi, max(default * 5, lo + step * 20))
    return list(range(lo, top + 1, step)) if (default - lo) % step == 0 else sorted({*range(lo, top + 1, step), default})


@dataclass
class Player:
    name: str
    colour: str


@dataclass
class Draft:
    """The new game as set up so far."""

    ruleset: str = ""
    players: list[Player] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)
    """The setup choices (``setup_choices``), each its first value at first."""
    seat: int = 0
    """The seat of ``seat_choice``, if the ruleset has one."""

    def setup(self) -> dict[str, Any]:
        """The engine's setup: only the options changed from their defaults are named."""
        data = ruleset_data(self.ruleset)
        defaults = data.get("options", {})
        setup: dict[str, Any] = {
            "ruleset": self.ruleset,
            "players": [p.name for p in self.players],
            "colours": [p.colour for p in self.players],
            "options": {k: v for k, v in self.options.items() if defaults.get(k) != v},
        }
        setup.update(self.choices)
        if "seat_choice" in data:
            setup[data["seat_choice"]] = self.seat
        return setup


class NewRow(BoxLayout):
    """One row of the new-game screen's body, a touch target high."""


class RowLabel(Label):
    """What a row sets (an option's name), at its left."""


class Heading(Caption):
    """The title of a part of the body: the players, a setup choice, the options."""


class Hint(Caption):
    """A line under a heading: what a tap there does, or what the house options change."""


class FixedOption(Caption):
    """An option the screen cannot set, with its value."""


class PickButton(BigButton):
    """A button of the body; ``chosen`` draws it as the value picked, a tap calls ``pick()``."""

    chosen = BooleanProperty(False)
    pick: Callable[[], None] = ObjectProperty(lambda: None)


class FigureButton(PickButton):
    """A player's figure colour, named and drawn in it; a tap gives the next one free."""

    figure = StringProperty("")


class NameButton(PickButton):
    """A player's name; a tap opens the name pad."""


class SeatButton(PickButton):
    """The seat the ruleset's ``seat_choice`` names (e.g. who begins)."""


class RemoveButton(PickButton):
    """Takes a player away."""


class OptionsView(ModalView):
    """The house options, one row each: its name and its control (the rule is in newgame.kv)."""


class TableEditor(ModalView):
    """A table option row by row: a stepper for each value, + Row, X, and Take once the ruleset accepts it.

    Its tap ids are the option's: ``<key>:<row>:<column>`` (a stepper), ``<key>:remove:<row>``,
    ``<key>:add``, ``<key>:ok`` and ``<key>:cancel``.
    """

    title = StringProperty("")
    key = StringProperty("")
    problem = StringProperty("")

    def __init__(self, ruleset: str, key: str, rows: list[list[int]],
                 check: Callable[[str, list[list[int]]], str | None], take: Callable[[list[list[int]]], Any],
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        a = app()
        spec = ruleset_data(ruleset)["option_tables"][key]
        self.title, self.key = a.t(a.lang, f"{ruleset}.option.{key}"), key
        self.names: list[str] = list(spec["columns"])
        self.steps: list[int] = [int(step) for step in spec["steps"]]
        self.first: list[int | None] = list(spec.get("first_row") or [None] * len(self.names))
        """The first row's values the ruleset fixes (None: set on a stepper)."""
        self.heads = [a.t(a.lang, f"{ruleset}.option.{key}.{name}") for name in self.names]
        self.rows = [list(r) for r in rows]
        # the steps of each column, and every value the table has besides (a printed table's 2,250 stays)
        self.columns = [sorted({*steps, *(r[i] for r in self.rows)})
                        for i, steps in enumerate(table_values(key, ruleset_data(ruleset)) or [])]
        self.check, self.take = check, take
        self.redraw()

    def redraw(self) -> None:
        a = app()
        box = self.ids.rows
        box.clear_widgets()
        heads = NewRow()
        for text in self.heads:
            heads.add_widget(RowLabel(text=text, size_hint_x=1, halign="center"))
        heads.add_widget(Widget(size_hint_x=None, width=a.unit * theme.TARGET))
        box.add_widget(heads)
        for index, values in enumerate(self.rows):
            line = NewRow()
            for column, value in enumerate(values):
                if index == 0 and self.first[column] is not None:  # fixed by the ruleset (B9: from a sum of 0)
                    line.add_widget(RowLabel(text=a.number(value), size_hint_x=1, halign="center"))
                    continue
                values_taken = self.columns[column]
                stepper = Stepper(tap_id=f"{self.key}:{index}:{self.names[column]}", values=values_taken,
                                  labels=[a.number(v) for v in values_taken])
                stepper.select(value)
                stepper.on_pick = partial(self.set, index, column)
                line.add_widget(stepper)
            remove = RemoveButton(tap_id=f"{self.key}:remove:{index}" if index else "", pick=partial(self.remove, index),
                                  disabled=index == 0, opacity=0 if index == 0 else 1)  # the first row (from 0) stays
            line.add_widget(remove)
            box.add_widget(line)

    def set(self, index: int, column: int, value: int) -> None:
        self.problem = ""
        self.rows[index][column] = value

    def add(self) -> None:
        """A row after the last: one step higher in every column."""
        self.rows.append([next((x for x in column if x >= value + step), column[-1])
                          for value, column, step in zip(self.rows[-1], self.columns, self.steps)])
        self.redraw()

    def remove(self, index: int) -> None:
        del self.rows[index]
        self.problem = ""
        self.redraw()

    def confirm(self) -> None:
        problem = self.check(self.key, self.rows)
        if problem:
            self.problem = problem
            return
        self.take([list(r) for r in self.rows])
        self.dismiss()


class NewGameScreen(Screen):
    problem = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.draft = Draft()
        self._names: list[str] = []
        """The names of the drafts so far, the longest: a player left out by a smaller game comes back."""
        self._prefilled: Draft | None = None
        app().bind(view=self._redraw_if_shown)

    def on_pre_enter(self, *_: Any) -> None:
        self.problem = ""
        if self._prefilled is not None:
            self.draft, self._prefilled = self._prefilled, None
        else:
            self.fresh_draft(self.draft.ruleset or rulesets()[0])
        self.build()

    def prefill(self, setup: dict[str, Any]) -> None:
        """Set up the next game as ``setup`` (the last game's): the same game, players, figure colours,
        setup choices and options; shown as the screen is entered."""
        data = ruleset_data(setup["ruleset"])
        colours = list(setup.get("colours") or [])
        figures = list(theme.FIGURES)
        players = [Player(name, colours[i] if i < len(colours) and colours[i] in theme.FIGURES else figures[i % len(figures)])
                   for i, name in enumerate(setup["players"])]
        choices = {key: setup.get(key, values[0]) for key, values in data.get("setup_choices", {}).items()}
        self._prefilled = Draft(ruleset=setup["ruleset"], players=players,
                                options={**data.get("options", {}), **setup.get("options", {})}, choices=choices,
                                seat=int(setup.get(data["seat_choice"], 0)) if "seat_choice" in data else 0)

    def _redraw_if_shown(self, *_: Any) -> None:
        if self.manager is not None and self.manager.current == self.name:
            self.build()

    def fresh_draft(self, ruleset: str) -> None:
        """A draft for ``ruleset``: the option defaults, colours in order, and the names of the draft before
        (or of the last game, or chips): as many as the last game of this ruleset had, else the ruleset's
        own number (:func:`default_players`); names left out by a smaller game come back with this one."""
        data = ruleset_data(ruleset)
        lo, hi = player_limits(ruleset)
        if self.draft.players:
            self._names = [p.name for p in self.draft.players] + self._names[len(self.draft.players):]
        names = self._names or self._last_names()
        last = app().session.table
        same = last is not None and last.setup["ruleset"] == ruleset and not self.draft.players
        count = max(lo, min(hi, len(names))) if same else default_players(ruleset)
        names = (names + [n for n in NAMES if n not in names])[:count]
        colours = list(theme.FIGURES)
        self.draft = Draft(
            ruleset=ruleset,
            players=[Player(n, colours[i % len(colours)]) for i, n in enumerate(names)],
            options=dict(data.get("options", {})),
            choices={key: values[0] for key, values in data.get("setup_choices", {}).items()},
        )

    def _last_names(self) -> list[str]:
        table = app().session.table
        return list(table.setup["players"]) if table is not None else list(NAMES[:3])

    # -- the layout (the look of each part: ui/kv/newgame.kv) ---------------------
    def build(self) -> None:
        a = app()
        d = self.draft
        data = ruleset_data(d.ruleset)
        tabs, players, body = self.ids.rulesets, self.ids.players, self.ids.body
        for box in (tabs, players, body):
            box.clear_widgets()

        def row(box: Widget, *widgets: Widget) -> None:
            line = NewRow()
            for widget in widgets:
                line.add_widget(widget)
            box.add_widget(line)

        for name in rulesets():
            tabs.add_widget(PickButton(tap_id=f"new:ruleset:{name}", text=ruleset_title(name, a.lang),
                                       chosen=d.ruleset == name, pick=partial(self.pick_ruleset, name)))

        lo, hi = player_limits(d.ruleset)
        players.add_widget(Heading(text=a.t(a.lang, "ui.new.players", min=lo, max=hi)))
        seat_key = data.get("seat_choice")
        if seat_key is not None:  # what a tap on the column beside the names does (B15: who starts)
            players.add_widget(Hint(text=a.t(a.lang, f"{d.ruleset}.setup.{seat_key}.hint")))
        for seat, player in enumerate(d.players):
            widgets: list[Widget] = [
                FigureButton(tap_id=f"new:colour:{seat}", figure=player.colour, pick=partial(self.next_colour, seat)),
                NameButton(tap_id=f"new:name:{seat}", text=player.name, pick=partial(self.edit_name, seat)),
            ]
            if seat_key is not None:
                chosen = d.seat == seat
                widgets.append(SeatButton(tap_id=f"new:{seat_key}:{seat}", chosen=chosen, pick=partial(self.set_seat, seat),
                                          text=a.t(a.lang, f"{d.ruleset}.setup.{seat_key}.chosen") if chosen else ""))
            if len(d.players) > lo:
                widgets.append(RemoveButton(tap_id=f"new:remove:{seat}", pick=partial(self.remove, seat)))
            row(players, *widgets)
        if len(d.players) < hi:
            row(players, PickButton(tap_id="new:add", text=a.t(a.lang, "ui.new.add"), pick=self.add))

        for key, values in data.get("setup_choices", {}).items():
            body.add_widget(Heading(text=a.t(a.lang, f"{d.ruleset}.setup.{key}")))
            row(body, *(PickButton(tap_id=f"new:{key}:{value}", text=a.t(a.lang, f"{d.ruleset}.setup.{key}.{value}"),
                                   chosen=d.choices.get(key) == value, pick=partial(self.set_choice, key, value))
                        for value in values))
        if data.get("options"):
            body.add_widget(Heading(text=a.t(a.lang, "ui.new.options")))
            body.add_widget(Hint(text=self.changes_said()))
            row(body, PickButton(tap_id="new:options", text=a.t(a.lang, "ui.new.house_rules"), pick=self.open_options))

    def changes_said(self) -> str:
        """The house options changed from their defaults, each with its value, or that none is."""
        a = app()
        d = self.draft
        changed = d.setup()["options"]
        if not changed:
            return str(a.t(a.lang, "ui.new.house_unchanged"))
        return str(a.t(a.lang, "ui.new.house_changed", changes=", ".join(
            f"{a.t(a.lang, f'{d.ruleset}.option.{key}')} {self.value_said(key, value)}" for key, value in changed.items())))

    def value_said(self, key: str, value: Any) -> str:
        """An option's value for people; a table by its number of rows."""
        a = app()
        if table_values(key, ruleset_data(self.draft.ruleset)) is not None:
            return str(a.t(a.lang, "ui.value.table", count=len(value)))
        return shown_value(value, a.lang)

    def open_options(self) -> None:
        """The house options, each with its control, in a view of their own."""
        view = OptionsView()
        self.fill_options(view)
        view.bind(on_dismiss=lambda *_: self.build())
        view.open()

    def fill_options(self, view: "OptionsView") -> None:
        a = app()
        d = self.draft
        data = ruleset_data(d.ruleset)
        rows = view.ids.rows
        rows.clear_widgets()
        house = house_default_keys(data)
        for key, default in data.get("options", {}).items():
            label = a.t(a.lang, f"{d.ruleset}.option.{key}")
            if key in house:
                label += f" ({a.t(a.lang, 'ui.house_default')})"
            line = NewRow()
            line.add_widget(RowLabel(text=label))
            line.add_widget(self.option_control(view, key, default, data))
            rows.add_widget(line)

    def option_control(self, view: "OptionsView", key: str, default: Any, data: dict[str, Any]) -> Widget:
        """The control of one option: a toggle for yes/no, an editor for a table, else a stepper."""
        a = app()
        value = self.draft.options.get(key, default)
        if table_values(key, data) is not None:
            return PickButton(tap_id=f"new:option:{key}", text=self.value_said(key, value),
                              pick=partial(self.edit_table, key, view))
        values = option_values(key, default, data)
        if values == [True, False]:  # yes or no: one button that says which, a tap flips it
            return PickButton(tap_id=f"new:option:{key}", text=shown_value(bool(value), a.lang), chosen=bool(value),
                              pick=partial(self.flip_option, key, view))
        if values is None:
            return FixedOption(text=shown_value(value, a.lang))
        stepper = Stepper(tap_id=f"new:option:{key}", values=values, labels=[shown_value(v, a.lang) for v in values])
        stepper.select(value)
        stepper.on_pick = partial(self.set_option, key)
        return stepper

    def edit_table(self, key: str, view: "OptionsView") -> None:
        """A table option row by row (B9's dividend table): each row's values on steppers, a row added or
        taken away; taken when the ruleset accepts it (its own check, :class:`SetupError`)."""
        def take(rows: list[list[int]]) -> None:
            self.set_option(key, rows)
            self.fill_options(view)

        TableEditor(self.draft.ruleset, key, self.draft.options[key], self.table_problem, take).open()

    def table_problem(self, key: str, rows: list[list[int]]) -> str | None:
        """Why the ruleset refuses ``rows`` as option ``key``, said in the screen's language, or None."""
        d = self.draft
        lo, _ = player_limits(d.ruleset)
        setup = {**d.setup(), "players": [f"{seat + 1}" for seat in range(lo)], "options": {key: rows}}
        setup.pop("colours", None)
        try:
            registry.ruleset_class(d.ruleset)(setup)
        except SetupError as error:
            return error.message(app().lang)
        return None

    # -- what the taps do -------------------------------------------------------
    def pick_ruleset(self, name: str) -> None:
        self.fresh_draft(name)
        self.build()

    def set_choice(self, key: str, value: Any) -> None:
        self.draft.choices[key] = value
        self.build()

    def set_option(self, key: str, value: Any) -> None:
        self.draft.options[key] = value

    def flip_option(self, key: str, view: "OptionsView") -> None:
        """A yes/no option the other way."""
        self.draft.options[key] = not self.draft.options.get(key)
        self.fill_options(view)

    def set_seat(self, seat: int) -> None:
        self.draft.seat = seat
        self.build()

    def next_colour(self, seat: int) -> None:
        """The next figure colour no other player has."""
        colours = list(theme.FIGURES)
        taken = {p.colour for i, p in enumerate(self.draft.players) if i != seat}
        current = colours.index(self.draft.players[seat].colour)
        for step in range(1, len(colours) + 1):
            candidate = colours[(current + step) % len(colours)]
            if candidate not in taken:
                self.draft.players[seat].colour = candidate
                break
        self.build()

    def add(self) -> None:
        d = self.draft
        used = {p.name for p in d.players}
        taken = {p.colour for p in d.players}
        name = next(n for n in NAMES if n not in used)
        colour = next(c for c in theme.FIGURES if c not in taken)
        d.players.append(Player(name, colour))
        self.build()

    def remove(self, seat: int) -> None:
        del self.draft.players[seat]
        self.draft.seat = min(self.draft.seat, len(self.draft.players) - 1)
        self.build()

    def edit_name(self, seat: int) -> None:
        a = app()
        used = {p.name for i, p in enumerate(self.draft.players) if i != seat}

        def done(name: str) -> str | None:
            name = name.strip()
            if not name:
                return "ui.new.name_empty"
            if name in used:
                return "ui.new.names_differ"
            self.draft.players[seat].name = name
            self.build()
            return None

        name_pad(a.t(a.lang, "ui.new.name_title", seat=seat + 1), self.draft.players[seat].name,
                 [n for n in NAMES if n not in used], done)

    def start(self) -> None:
        """Start the game set up here; in the middle of another one, after the banker confirms (and in the
        kiosk gives the PIN, where one is set): the other game stays saved."""
        a = app()
        setup = self.draft.setup()
        if len(set(setup["players"])) != len(setup["players"]):
            self.problem = a.t(a.lang, "ui.new.names_differ")
            return
        table = a.session.table
        if table is None or table.length == 0 or table.state.finished:
            self.begin(setup)
            return
        view = ListView(title=a.t(a.lang, "ui.new.confirm_title"))
        view.add_row(Caption(text=a.t(a.lang, "ui.new.confirm_hint", game=table.game_id, count=table.length)))
        button = RowButton(tap_id="new:confirm", text=a.t(a.lang, "ui.new.confirm"), colour=list(theme.GOOD))
        button.bind(on_release=lambda *_: self._confirmed(view, setup))
        view.add_row(button)
        view.open()

    def _confirmed(self, view: ListView, setup: dict[str, Any]) -> None:
        view.dismiss()
        with_pin("ui.pin.new_game", partial(self.begin, setup), always=app().kiosk)

    def begin(self, setup: dict[str, Any]) -> None:
        a = app()
        problem = a.session.new_game(setup, deal=True)
        if problem is not None:
            self.problem = problem.message(a.lang)
            return
        a.manager.current = "table"

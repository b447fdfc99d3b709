"""The dialogs of a choice the table screen cannot show as one row of buttons: its allowed values
as buttons or steppers, built from the choice's limits as the engine describes them, then OK.

:class:`ChoiceView` is the frame (its layout is ``<ChoiceView>`` in ``ui/kv/table.kv``); the
casino bet, the order of play by hand and a real card's parameters each fill it. None prices
or checks anything: OK hands the engine the action the description makes.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.describe import Described
from ui import theme
from ui.widgets import BigButton, Stepper, app


class ChoiceView(ModalView):
    """A dialog for one choice: buttons or steppers built from the choice's limits, then OK."""

    title = StringProperty("")
    hint = StringProperty("")
    ok_text = StringProperty("")
    columns = NumericProperty(1)
    ready = BooleanProperty(True)
    has_ok = BooleanProperty(True)


class FieldsDialog(ChoiceView):
    """A choice with several parameters: one stepper per parameter over its allowed values (e.g. a real card)."""

    def __init__(self, d: Described, act: Callable[[dict[str, Any]], None], **kwargs: Any) -> None:
        super().__init__(title=d.label, **kwargs)
        self.described, self._act = d, act
        a = app()
        self.steppers: dict[str, Stepper] = {}
        for name, options in d.fields.items():
            stepper = Stepper(tap_id=f"dialog:{name}", values=[o.value for o in options],
                              labels=[theme.printable(f"{name}: {o.label}") for o in options])
            self.steppers[name] = stepper
            self.ids.rows.add_widget(stepper)
        self.ready = bool(self.steppers)
        self.ok_text = a.t(a.lang, "ui.ok")

    def confirm(self) -> None:
        self.dismiss()
        self._act(self.described.action({name: s.value for name, s in self.steppers.items()}))


class OrderDialog(ChoiceView):
    """The order of play by hand (§5, T12): tap the players in their order."""

    def __init__(self, d: Described, act: Callable[[dict[str, Any]], None], **kwargs: Any) -> None:
        a = app()
        super().__init__(title=d.label, hint=a.t(a.lang, "ui.table.order_hint"), columns=2, **kwargs)
        self.described, self._act = d, act
        self.order: list[int] = []
        table = a.session.table
        self.names = [p.name for p in table.state.players]
        self.buttons: list[BigButton] = []
        for seat, name in enumerate(self.names):
            button = BigButton(tap_id=f"order:{seat}", text=name, size_hint_y=None, height=a.unit * theme.TARGET)
            button.bind(on_release=lambda *_, s=seat: self.pick(s))
            self.buttons.append(button)
            self.ids.rows.add_widget(button)
        self.ready = False

    def pick(self, seat: int) -> None:
        if seat in self.order:
            self.order.remove(seat)
        else:
            self.order.append(seat)
        for s, button in enumerate(self.buttons):
            place = self.order.index(s) + 1 if s in self.order else None
            button.text = self.names[s] if place is None else f"{place}. {self.names[s]}"
            button.colour = list(theme.PRIMARY if place else theme.BUTTON)
        self.ready = len(self.order) == len(self.names)

    def confirm(self) -> None:
        self.dismiss()
        self._act(self.described.action({"order": list(self.order)}))


class CasinoDialog(ChoiceView):
    """The casino bet (§7.3, T9): the stake on a stepper within the choice's limits, then 1 to 3 numbers."""

    def __init__(self, d: Described, act: Callable[[dict[str, Any]], None], **kwargs: Any) -> None:
        a = app()
        super().__init__(title=d.label, columns=6, **kwargs)
        self.described, self._act = d, act
        stakes = d.fields.get("stake", ())
        self.stake = Stepper(tap_id="casino:stake", values=[o.value for o in stakes], labels=[o.label for o in stakes])
        self.allowed = [sorted(o.value) for o in d.fields.get("numbers", ())]
        self.calls = {tuple(sorted(o.value)): o.label for o in d.fields.get("numbers", ())}  # what each call pays
        self.most = max((len(v) for v in self.allowed), default=3)
        self.numbers: list[int] = []
        self.stake_hint = self.hint = a.t(a.lang, "ui.table.stake")
        holder = self.ids.rows
        holder.cols = 6
        self.number_buttons: dict[int, BigButton] = {}
        for n in sorted({n for v in self.allowed for n in v}):
            button = BigButton(tap_id=f"casino:number:{n}", text=str(n), size_hint_y=None, height=a.unit * theme.TARGET)
            button.bind(on_release=lambda *_, n=n: self.toggle(n))
            self.number_buttons[n] = button
            holder.add_widget(button)
        # the stake stepper above the numbers, the whole width
        self.ids.rows.parent.parent.add_widget(self.stake, index=2)
        self.ready = False

    def toggle(self, n: int) -> None:
        if n in self.numbers:
            self.numbers.remove(n)
        elif len(self.numbers) < self.most:
            self.numbers.append(n)
        for m, button in self.number_buttons.items():
            button.colour = list(theme.SELECTED if m in self.numbers else theme.BUTTON)
        self.ready = sorted(self.numbers) in self.allowed
        self.hint = self.calls.get(tuple(sorted(self.numbers)), self.stake_hint)  # "1, 5 — 3 × the stake"

    def confirm(self) -> None:
        self.dismiss()
        self._act(self.described.action({"stake": self.stake.value, "numbers": sorted(self.numbers)}))

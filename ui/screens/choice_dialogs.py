"""The dialogs of a choice the table screen cannot show as one row of buttons: its allowed values
as buttons or steppers, built from the choice's limits as the engine describes them, then OK.

:class:`ChoiceView` is the frame (its layout is ``<ChoiceView>`` in ``ui/kv/table.kv``); each
form of :class:`companion.describe.Dialog` fills it (:data:`FORMS`), whatever the game: several
fields on steppers, an ordering tapped in turn, a wager's amount and call. None prices or checks
anything: OK hands the engine the action the description makes.
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.describe import Described, Dialog, Option
from ui import theme
from ui.widgets import RowButton, Stepper, app

Act = Callable[[dict[str, Any]], None]
"""What OK does with the action the dialog made (the table screen's ``act``)."""


class ChoiceView(ModalView):
    """A dialog for one choice: buttons or steppers built from the choice's limits, then OK."""

    title = StringProperty("")
    hint = StringProperty("")
    ok_text = StringProperty("")
    columns = NumericProperty(1)
    ready = BooleanProperty(True)
    has_ok = BooleanProperty(True)


class FieldsDialog(ChoiceView):
    """:attr:`Dialog.FIELDS`: one stepper per parameter over its allowed values (e.g. a card entered by hand)."""

    def __init__(self, d: Described, act: Act, **kwargs: Any) -> None:
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


class PermutationDialog(ChoiceView):
    """:attr:`Dialog.PERMUTATION`: the values of the one field tapped in their order (e.g. the seats in the
    order of play); a second tap takes a value back."""

    def __init__(self, d: Described, act: Act, **kwargs: Any) -> None:
        a = app()
        super().__init__(title=d.label, hint=a.t(a.lang, "ui.table.order_hint"), columns=2, **kwargs)
        self.described, self._act = d, act
        (self.field, options), = d.fields.items()
        self.values = [o.value for o in options]
        self.names = [o.label for o in options]
        self.order: list[Any] = []
        self.buttons: list[RowButton] = []
        for value, name in zip(self.values, self.names):
            button = RowButton(tap_id=f"order:{value}", text=name)
            button.bind(on_release=lambda *_, v=value: self.pick(v))
            self.buttons.append(button)
            self.ids.rows.add_widget(button)
        self.ready = False

    def pick(self, value: Any) -> None:
        if value in self.order:
            self.order.remove(value)
        else:
            self.order.append(value)
        for v, name, button in zip(self.values, self.names, self.buttons):
            place = self.order.index(v) + 1 if v in self.order else None
            button.text = name if place is None else f"{place}. {name}"
            button.colour = list(theme.PRIMARY if place else theme.BUTTON)
        self.ready = len(self.order) == len(self.values)

    def confirm(self) -> None:
        self.dismiss()
        self._act(self.described.action({self.field: list(self.order)}))


def is_call(options: tuple[Option, ...]) -> bool:
    """Whether a field's values are calls (lists of members toggled one by one), not amounts.

    >>> is_call((Option([1], "1"), Option([1, 2], "1, 2"))), is_call((Option(500, "500"),))
    (True, False)
    """
    return bool(options) and all(isinstance(o.value, list) for o in options)


class WagerDialog(ChoiceView):
    """:attr:`Dialog.WAGER`: the amount on a stepper within the choice's limits, then a call built by
    toggling its members; the hint says what the call picked pays (its option's label)."""

    def __init__(self, d: Described, act: Act, **kwargs: Any) -> None:
        a = app()
        super().__init__(title=d.label, columns=6, **kwargs)
        self.described, self._act = d, act
        self.amount_field = next((name for name, options in d.fields.items() if not is_call(options)), "")
        self.call_field = next((name for name, options in d.fields.items() if is_call(options)), "")
        amounts = d.fields.get(self.amount_field, ())
        calls = d.fields.get(self.call_field, ())
        self.amount = Stepper(tap_id="wager:amount", values=[o.value for o in amounts], labels=[o.label for o in amounts])
        self.allowed = [sorted(o.value) for o in calls]
        self.calls = {tuple(sorted(o.value)): o.label for o in calls}  # what each call pays
        self.most = max((len(v) for v in self.allowed), default=1)
        self.members: list[Any] = []
        self.amount_hint = self.hint = a.t(a.lang, "ui.table.stake")
        self.member_buttons: dict[Any, RowButton] = {}
        for n in sorted({n for v in self.allowed for n in v}):
            button = RowButton(tap_id=f"wager:call:{n}", text=str(n))
            button.bind(on_release=lambda *_, n=n: self.toggle(n))
            self.member_buttons[n] = button
            self.ids.rows.add_widget(button)
        # the amount's stepper above the members, the whole width
        self.ids.rows.parent.parent.add_widget(self.amount, index=2)
        self.ready = False

    def toggle(self, member: Any) -> None:
        if member in self.members:
            self.members.remove(member)
        elif len(self.members) < self.most:
            self.members.append(member)
        for m, button in self.member_buttons.items():
            button.colour = list(theme.SELECTED if m in self.members else theme.BUTTON)
        self.ready = sorted(self.members) in self.allowed
        self.hint = self.calls.get(tuple(sorted(self.members)), self.amount_hint)  # "1, 5 — 3 × the stake"

    def confirm(self) -> None:
        self.dismiss()
        self._act(self.described.action({self.amount_field: self.amount.value, self.call_field: sorted(self.members)}))


class ConfirmDialog(ChoiceView):
    """:attr:`Dialog.CONFIRM`: a choice only the banker's PIN takes back (ending the game) asked once more:
    what it does, Cancel, and the choice's own words on the OK button."""

    def __init__(self, d: Described, act: Act, **kwargs: Any) -> None:
        a = app()
        super().__init__(title=d.label, hint=a.t(a.lang, "ui.table.confirm_final"), ok_text=d.label, **kwargs)
        self.described, self._act = d, act
        self.ids.ok.colour = list(theme.BAD)

    def confirm(self) -> None:
        self.dismiss()
        self._act(self.described.action({}))


FORMS: dict[Dialog, Callable[[Described, Act], ChoiceView]] = {
    Dialog.CONFIRM: ConfirmDialog,
    Dialog.FIELDS: FieldsDialog,
    Dialog.PERMUTATION: PermutationDialog,
    Dialog.WAGER: WagerDialog,
}
"""The dialog of each form a choice may take (:attr:`Dialog.DEAL` opens none: the table deals)."""

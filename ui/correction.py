"""The banker's correction dialog: a player's cash and shares set with steppers, a reason picked from a list.

The limits come from :func:`companion.correction.limits` (what the bank can
pay, what the exchange holds), so the steppers never offer a value the
engine would refuse; the engine still checks, and a refusal is said in the
dialog. The PIN is asked before the dialog opens (:func:`ui.banker.with_pin`).
No keyboard: the reason is one of the engine's usual mistakes
(:class:`companion.correction.Reason`), journaled as its code, so the log
says it in the language of whoever reads it.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.correction import Limits, Reason, limits, reason_text
from ui import theme
from ui.app import load_kv
from ui.widgets import BigButton, Stepper, app


class CashStepper(BoxLayout):
    """Cash in coarse and fine steps, from 0 to ``most`` (−1 for no limit: an exchange that pays any amount)."""

    value = NumericProperty(0)
    most = NumericProperty(-1)
    shown = StringProperty("")

    def step(self, by: int) -> None:
        value = max(0, int(self.value) + by)
        self.value = value if self.most < 0 else min(int(self.most), value)


class CorrectionView(ModalView):
    """Pick a player, set their cash and shares, pick a reason, apply."""

    player = NumericProperty(-1)
    reason = StringProperty("")
    problem = StringProperty("")
    changed = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._limits: dict[int, Limits] = {}
        self._shares: dict[str, Stepper] = {}
        self.ids.cash.bind(value=self._show_cash)

    def on_pre_open(self) -> None:
        a = app()
        table = a.session.table
        self._limits = {lim.player: lim for lim in limits(table.state)} if table is not None else {}
        row = self.ids.players
        row.clear_widgets()
        if table is None or not self._limits:
            self.problem = a.t(a.lang, "ui.correction.none")
            return
        colours = theme.seat_colours(table.setup, len(table.state.players))
        for seat in self._limits:
            button = BigButton(text=table.state.players[seat].name, tap_id=f"correct:player:{seat}",
                               colour=list(colours[seat]))
            button.bind(on_release=lambda _b, s=seat: self.pick_player(s))
            row.add_widget(button)
        reasons = self.ids.reasons
        reasons.clear_widgets()
        for code in Reason:
            said = reason_text(code, a.lang)
            button = BigButton(text=said[:1].upper() + said[1:], tap_id=f"correct:reason:{code}")
            button.bind(on_release=lambda _b, c=code: self.pick_reason(c))
            reasons.add_widget(button)
        self.pick_player(next(iter(self._limits)))

    def pick_player(self, seat: int) -> None:
        a = app()
        self.player = seat
        lim = self._limits[seat]
        table = a.session.table
        colours = theme.seat_colours(table.setup, len(table.state.players)) if table is not None else []
        for button in self.ids.players.children:
            chosen = button.tap_id == f"correct:player:{seat}"
            mine = int(button.tap_id.rsplit(":", 1)[1])
            colour = colours[mine] if mine < len(colours) else theme.BUTTON
            button.bold = chosen
            button.colour = list(colour) if chosen else [c * 0.35 for c in colour[:3]] + [1]
        self.ids.cash.most = -1 if lim.most_cash is None else lim.most_cash
        self.ids.cash.value = lim.cash
        grid = self.ids.shares
        grid.clear_widgets()
        self._shares = {}
        for company, (held, most) in lim.shares.items():
            grid.add_widget(Label(text=self._company(company), font_size=a.unit, color=theme.TEXT,
                                  size_hint_y=None, height=a.unit * theme.TARGET, text_size=(None, None)))
            stepper = Stepper(tap_id=f"correct:shares:{company}")
            stepper.values = list(range(most + 1))
            stepper.select(held)
            stepper.on_pick = lambda _v: self._check_changed()
            self._shares[company] = stepper
            grid.add_widget(stepper)
        self.problem = ""
        self._check_changed()

    def _company(self, company: str) -> str:
        a = app()
        table = a.session.table
        name = table.game.rules.name if table is not None else ""
        return str(a.t(a.lang, f"ui.correction.company.{name}", company=company))

    def _show_cash(self, *_: Any) -> None:
        self.ids.cash.shown = app().money(int(self.ids.cash.value))
        self._check_changed()

    def pick_reason(self, code: str) -> None:
        self.reason = code
        for button in self.ids.reasons.children:
            button.colour = list(theme.PRIMARY if button.tap_id == f"correct:reason:{code}" else theme.BUTTON)

    def _wanted(self) -> tuple[int | None, dict[str, int]]:
        lim = self._limits.get(int(self.player))
        if lim is None:
            return None, {}
        cash = int(self.ids.cash.value)
        shares = {c: int(s.value) for c, s in self._shares.items() if int(s.value) != lim.shares[c][0]}
        return (cash if cash != lim.cash else None), shares

    def _check_changed(self) -> None:
        cash, shares = self._wanted()
        self.changed = cash is not None or bool(shares)

    def apply(self) -> None:
        a = app()
        if not self.reason:
            self.problem = a.t(a.lang, "ui.correction.pick_reason")
            return
        cash, shares = self._wanted()
        outcome = a.session.correct(int(self.player), cash=cash, shares=shares, reason=self.reason)
        if outcome is None or not outcome.accepted:
            self.problem = a.session.said(a.lang)
            return
        self.dismiss()


def open_correction() -> None:
    load_kv("correction.kv")  # its rules when the dialog is first opened, not with the history screen
    CorrectionView().open()

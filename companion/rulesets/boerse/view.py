"""What ``companion state --json`` and the screen show of a Die Börse game besides the core's view (docs/state.md)."""

from __future__ import annotations

from typing import Any

from companion.messages import LANGUAGES, Said
from companion.rulesets.boerse.effects import text_of
from companion.rulesets.boerse.prices import Prices
from companion.rulesets.boerse.setup import FISCUS
from companion.state import State


class View(Prices):
    """The prices, the deck, the Fiscus, the track, an offer or a pick waiting."""

    def public_view(self, state: State) -> dict[str, Any]:
        d = state.data
        drawn = d["drawn"]
        closed = d["closed"]
        rounds_left = None
        if closed and state.end_round is not None:
            # The turn that drew Börsenschluss is not one of the rounds still to play.
            in_closing_turn = state.round == d["closed_round"]
            rounds_left = state.end_round - state.round + (0 if in_closing_turn else 1)
        deck: dict[str, Any] = {
            "mode": "virtual" if self.virtual else "real",
            "cards": self.deck_size,
            "drawn": drawn,
            "shuffled": d["deck"] is not None,
            "cards_before_close_possible": max(0, self.close_from - drawn),
            "closed": closed,
            "rounds_left": rounds_left,
            "last_card": d["last_card"],
        }
        if self.virtual and d["last_card"] is not None:
            text = text_of(self.cards[d["last_card"]], "card")
            deck["last_card_text"] = {language: text.text(language) for language in LANGUAGES}
        view: dict[str, Any] = {
            "exchange_open": not closed,
            "deck": deck,
            "prices": dict(d["prices"]),
            "dividend_now": self.dividend_for(sum(d["prices"].values())),
            "fiscus": state.pots[FISCUS],
            "track": {"house_default": self.house_track, "start": self.start, "spaces": self.spaces},
            "house_defaults": self.data["house_defaults"],
            "final_count": [self.final_count(state, seat) for seat in range(len(state.players))],
        }
        if "offer" in state.turn:
            view["offer"] = dict(state.turn["offer"])
        if "pick" in state.turn:
            view["pick"] = {"amount": state.turn["pick"]}
        return view

    def final_count(self, state: State, seat: int) -> dict[str, Any]:
        """A fortune as B13 counts it, part by part, and (when a credit is open) the sentence that says why
        it drops by twice the credit: the credit is paid back and charged once more (B5, B13).

        >>> from companion.game import Game
        >>> game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
        >>> anna = game.state.players[0]
        >>> anna.credit, anna.cash = 500, 1150
        >>> part = game.rules.final_count(game.state, 0)
        >>> part["cash"], part["shares"], part["credit"], part["credit_deduction"], part["fortune"]
        (1150, 0, 500, 1000, 150)
        >>> part["explained"]["en"]
        'Anna: 1,150 DM cash + 0 DM in shares − 2 × 500 DM credit = 150 DM. A credit still open at the end is paid back and charged once more (B13).'
        """
        p = state.players[seat]
        prices = state.data["prices"]
        shares = sum(count * prices[c] for c, count in p.shares.items()) if self.shares_count else 0
        deduction = self.credit_factor * p.credit
        fortune = self.fortune(state, seat)
        explained = None
        if p.credit:
            params = {"player": p.name, "cash": p.cash, "shares": shares, "unpaid": p.unpaid, "factor": self.credit_factor,
                      "credit": p.credit, "fortune": fortune}
            if p.unpaid:
                params["variant"] = "unpaid"
            said = Said("boerse.final_count", params)
            explained = {language: said.text(language) for language in LANGUAGES}
        return {"seat": seat, "cash": p.cash, "shares": shares, "unpaid": p.unpaid, "credit": p.credit,
                "credit_deduction": deduction, "fortune": fortune, "explained": explained}

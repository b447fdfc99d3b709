"""What ``companion state --json`` and the screen show of a Die Börse game besides the core's view (docs/state.md)."""

from __future__ import annotations

from typing import Any

from companion.messages import LANGUAGES
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
        }
        if "offer" in state.turn:
            view["offer"] = dict(state.turn["offer"])
        if "pick" in state.turn:
            view["pick"] = {"amount": state.turn["pick"]}
        return view

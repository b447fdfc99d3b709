"""The coin game: players take turns to roll; an even roll is paid by the bank, an odd one is paid to it.

Before the roll the player may buy shares of the one company; after it they
end the turn. A player's figure stands on the face last rolled (its board:
a row of six tiles, panels.py). A player who cannot pay drops out. The bank is finite, so it
may go broke; the game also ends after a set number of rounds.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.actions import Action, Choice, IntRange
from companion.describe import Described, Group, share_options
from companion.events import Event
from companion.ledger import move_shares, transfer
from companion.ruleset import Ruleset
from companion.state import BANK, State
from companion.turns import advance, begin, eliminate, rank


class Rules(Ruleset):
    """The coin game's rules: the one class the engine loads from this folder."""

    name = "coin"
    """The folder's name: the texts' keys begin with it (``coin.option.rounds``)."""
    package = __name__.rpartition(".")[0]
    """Where the data files and texts are: this folder, wherever it is installed."""
    currency = "Taler"
    min_players = 2
    max_players = 3
    choice_groups = {"roll": Group.DICE, "buy": Group.TRADE}

    def initial_state(self) -> State:
        state = State.new(
            list(self.setup["players"]),
            list(self.data["companies"]),
            shares_per_company=self.options["shares"],
            cash=self.data["start_cash"],
            bank_cash=self.options["bank"],
        )
        state.end_round = self.options["rounds"]
        begin(state, list(range(len(state.players))))
        state.phase = "play"
        return state

    def legal_actions(self, state: State) -> list[Choice]:
        seat = state.current
        if state.finished or seat is None:
            return []
        if state.turn.get("rolled"):
            return [Choice("end_turn", player=seat)]
        choices = [Choice("roll", player=seat, params={"value": IntRange(1, 6)})]
        price = self.data["share_price"]
        most = min(state.bank_shares["C"], state.players[seat].cash // price)
        if most >= 1:
            choices.append(Choice("buy", player=seat, fixed={"company": "C"}, params={"count": IntRange(1, most)}))
        return choices

    def apply(self, state: State, action: Action) -> list[Event]:
        seat = action["player"]
        name = state.players[seat].name
        if action["type"] == "buy":
            transfer(state, seat, BANK, action["count"] * self.data["share_price"])
            move_shares(state, "C", BANK, seat, action["count"])
            return [Event("coin_bought", {"player": name, "count": action["count"]})]
        if action["type"] == "roll":
            value = action["value"]
            state.turn["rolled"] = True
            state.players[seat].position = value
            if value % 2 == 0:
                amount = self.data["win_per_even"] * (1 + state.players[seat].holding("C"))
                paid = transfer(state, BANK, seat, amount)
                return [Event("coin_won", {"player": name, "value": value, "amount": paid})]
            amount = self.data["loss_per_odd"]
            if state.players[seat].cash < amount:
                transfer(state, seat, BANK, state.players[seat].cash)
                move_shares(state, "C", seat, BANK, state.players[seat].holding("C"))
                eliminate(state, seat)
                events = [Event("coin_broke", {"player": name})]
                if not state.finished:
                    advance(state)
                return events
            transfer(state, seat, BANK, amount)
            return [Event("coin_lost", {"player": name, "value": value, "amount": amount})]
        # end_turn
        advance(state)
        return []

    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """A purchase with what each count of shares costs; the roll and the end of the turn as the
        base class says them (``coin.choice.<type>`` here, else the core's ``choice.<type>``)."""
        described = super().describe_choice(state, choice, language)
        if choice.type != "buy":
            return described
        most = choice.params["count"].values()[-1]
        prices = [self.data["share_price"]] * most
        return replace(described, options=share_options(prices, self.currency, language))

    def fortune(self, state: State, player: int) -> int:
        p = state.players[player]
        return p.cash + p.unpaid + sum(self.holdings(state, player).values())

    def holdings(self, state: State, player: int) -> dict[str, int]:
        held = state.players[player].holding("C")
        return {"C": held * self.data["share_price"]} if held else {}

    def market(self, state: State, company: str) -> dict[str, Any]:
        have = state.bank_shares[company]
        return {"exchange": have, "buy": self.data["share_price"] if have else None, "sell": None}

    def ranking(self, state: State) -> list[list[int]]:
        return rank(state, {p: self.fortune(state, p) for p in state.active_players()})

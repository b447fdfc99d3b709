"""Tőzsde's choices said for people, with their amounts (see :mod:`companion.describe`)."""

from __future__ import annotations

from dataclasses import replace

from companion.actions import Choice, IntRange, OneOf
from companion.describe import Described, Dialog, Group, Option, generic, share_options
from companion.messages import money, render
from companion.rulesets.tozsde.setup import NUMBERS, Phase, Setup
from companion.state import State


class Descriptions(Setup):
    """Labels, groups and options of every Tőzsde choice, in the screen's language."""

    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """Tőzsde's choices said for people; the amounts are the ladder's prices (§4, T3) and the casino's (§7.3, T9).

        >>> from companion.game import Game
        >>> g = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
        >>> buy = g.rules.describe_choice(g.state, g.rules._buy_choice(0, "7", 2, 5), "en")
        >>> buy.label, [(o.label, o.amount) for o in buy.options]
        ('Buy shares of company 7', [('1 share — 800 Rubin', 800), ('2 shares — 1,700 Rubin', 1700)])
        """
        kind, cur = choice.type, self.currency
        if kind == "buy" or kind == "sell":
            count = choice.params["count"]
            assert isinstance(count, IntRange)
            prices = choice.info["prices"][: count.hi]
            company = {"company": choice.fixed["company"]}
            label = render(f"tozsde.choice.{kind}", company, language)
            return Described(choice, label, Group.TRADE, "count", share_options(prices, cur, language),
                             short=render(f"tozsde.choice.{kind}_short", company, language))
        if kind == "roll":
            if state.phase == Phase.ORDER:
                label = render("tozsde.choice.rolloff", {"player": self._name(state, choice.player or 0)}, language)
                return generic(choice, language, Group.DICE, label)
            bet = state.turn.get("bet")
            if state.phase == Phase.CASINO_ROLL and bet is not None:
                numbers = ", ".join(map(str, bet["numbers"]))
                label = render("tozsde.choice.casino_roll", {"stake": money(bet["stake"], cur, language), "numbers": numbers}, language)
                return generic(choice, language, Group.DICE, label)
            return generic(choice, language, Group.DICE)
        if kind == "draw":
            spec = choice.params["company"]
            assert isinstance(spec, OneOf)
            options = tuple(Option(c, render("tozsde.option.company", {"company": c}, language)) for c in spec.options)
            label = render("tozsde.choice.draw", {"player": self._name(state, choice.player or 0)}, language)
            return Described(choice, label, Group.SETUP, "company", options)
        if kind == "set_order":
            seats = tuple(Option(seat, player.name) for seat, player in enumerate(state.players))
            label = render("tozsde.choice.set_order", {}, language)
            return Described(choice, label, Group.SETUP, dialog=Dialog.PERMUTATION, fields={"order": seats})
        if kind == "bet":
            return self._describe_bet(choice, language)
        if kind == "time_up":  # T11: the game ends; only the banker's PIN takes it back, so it is asked first
            return replace(generic(choice, language, Group.END), dialog=Dialog.CONFIRM)
        return generic(choice, language)

    def _describe_bet(self, choice: Choice, language: str) -> Described:
        """The casino bet as a wager (§7.3, T9): the stakes the cash allows, the calls with what each pays."""
        stake = choice.params["stake"]
        assert isinstance(stake, IntRange)
        cur = self.currency
        stakes = tuple(Option(v, money(v, cur, language), v) for v in stake.values())
        calls = tuple(
            Option(numbers, render("tozsde.option.numbers", {
                "numbers": ", ".join(map(str, numbers)), "multiplier": self.multipliers[len(numbers)]}, language))
            for numbers in NUMBERS.options
        )
        if stake.lo == stake.hi:  # the cash allows one stake only: "500 to 500" says it badly
            label = render("tozsde.choice.bet_one_stake", {"stake": money(stake.lo, cur, language)}, language)
        else:
            label = render("tozsde.choice.bet", {
                "min_stake": money(stake.lo, cur, language), "max_stake": money(stake.hi, cur, language)}, language)
        return Described(choice, label, Group.WAGERS, dialog=Dialog.WAGER, fields={"stake": stakes, "numbers": calls})

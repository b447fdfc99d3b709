"""Die Börse's choices said for people, with their amounts (see :mod:`companion.describe`)."""

from __future__ import annotations

from typing import Any

from companion.actions import Choice, IntRange
from companion.describe import Described, Dialog, Group, Option, generic, share_options
from companion.messages import money, number, render
from companion.rulesets.boerse.prices import Prices
from companion.state import State


class Descriptions(Prices):
    """Labels, groups and options of every Die Börse choice, in the screen's language."""

    def __init__(self, setup: dict[str, Any]) -> None:
        super().__init__(setup)
        self._described_cards: dict[tuple[str, str], Described] = {}

    def describe_choice(self, state: State, choice: Choice, language: str) -> Described:
        """Die Börse's choices said for people, with the amounts: a trade at the package's one price (B4),
        a credit less its interest (B5), a pick's new price, the real deck's card parameters (B10).

        >>> from companion.game import Game
        >>> g = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
        >>> buy = next(d for d in g.rules.describe(g.state, g.legal_actions(), "de") if d.choice.type == "buy")
        >>> buy.label, [o.label for o in buy.options]
        ('Stahl zu 500 DM kaufen', ['1 Aktie — 500 DM'])
        """
        kind, cur = choice.type, self.currency
        if kind == "buy" or kind == "sell":
            c = choice.fixed["company"]
            label = render(f"boerse.choice.{kind}", {"company": c, "price": money(choice.info["price"], cur, language)}, language)
            return Described(choice, label, Group.TRADE, "count", share_options(choice.info["prices"], cur, language),
                             short=render(f"boerse.choice.{kind}_short", {"company": c}, language))
        if kind == "borrow" or kind == "repay":
            spec = choice.params["amount"]
            assert isinstance(spec, IntRange)
            player = state.players[choice.player or 0]
            if kind == "borrow":
                options = tuple(Option(v, render("boerse.option.borrow", {
                    "amount": money(v, cur, language), "received": money(v - self.interest_on(v), cur, language),
                }, language), v) for v in spec.values())
                label = render("boerse.choice.borrow", {"percent": self.interest}, language)
            else:
                owed = money(player.credit, cur, language)  # the debt beside each amount: the last repays it all
                options = tuple(Option(v, render("boerse.option.repay", {"amount": money(v, cur, language), "credit": owed},
                                                 language), v) for v in spec.values())
                label = render("boerse.choice.repay", {}, language)
            return Described(choice, label, Group.LOANS, "amount", options)
        if kind == "pick":
            change = choice.info["amount"]
            prices = state.data["prices"]
            options = tuple(
                Option(c, render("boerse.option.pick", {
                    "company": c, "old": number(prices[c], language), "new": money(prices[c] + change, cur, language),
                }, language))
                for c in self.packages
            )
            key = "boerse.choice.pick_rise" if change > 0 else "boerse.choice.pick_fall"
            return Described(choice, render(key, {"amount": money(abs(change), cur, language)}, language),
                             Group.TURN, "company", options)
        if kind == "card":  # the same every time: described once per language
            card_key = (str(choice.fixed["effect"]), language)
            card = self._described_cards.get(card_key)
            if card is None:
                card = self._described_cards[card_key] = self._describe_card(choice, language)
            return card
        if kind == "accept_offer" or kind == "decline_offer":
            offer = choice.info if kind == "accept_offer" else state.turn["offer"]
            price = offer["price"]
            label = render(f"boerse.choice.{kind}", {"company": offer["company"], "price": money(price, cur, language)}, language)
            return Described(choice, label, Group.TRADE, amount=price if kind == "accept_offer" else None)
        if kind == "shuffle":  # the order is the app's to draw: nothing of it is described (B10, C2)
            return Described(choice, render("boerse.choice.shuffle", {}, language), Group.SETUP, dialog=Dialog.DEAL)
        if kind == "roll":
            return generic(choice, language, Group.DICE)
        return generic(choice, language)

    def _describe_card(self, choice: Choice, language: str) -> Described:
        """The real deck (B10): the banker enters the drawn card's effect, each parameter with its allowed values."""
        effect = choice.fixed["effect"]
        cur = self.currency
        fields: dict[str, tuple[Option, ...]] = {}
        for name, spec in choice.params.items():
            if name == "company":
                fields[name] = tuple(Option(c, c) for c in self.packages)
            elif name == "space":
                fields[name] = tuple(Option(i, render("boerse.option.space", {"space": i}, language)) for i in range(self.length))
            else:
                assert isinstance(spec, IntRange)
                signed = effect in ("package", "all_packages")
                fields[name] = tuple(
                    Option(v, ("+" if signed and v > 0 else "") + money(v, cur, language), v) for v in spec.values()
                )
        label = render("boerse.choice.card", {"effect": render(f"boerse.effect.{effect}", {}, language)}, language)
        if len(fields) == 1:
            (name, options), = fields.items()
            return Described(choice, label, Group.TURN, name, options)
        return Described(choice, label, Group.TURN, dialog=Dialog.FIELDS if fields else None, fields=fields)

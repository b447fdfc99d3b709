"""What can be done now, said for people (companion/describe.py): every legal choice of both rulesets.

The amounts come from the rules: Tőzsde's ladder (§4, T3), the casino (§7.3, T9);
Die Börse's one price per trade (B4), credit less interest (B5), the real deck (B10).
"""

from __future__ import annotations

import json
import random
import string

import pytest

from companion import bots
from companion.describe import Described, Dialog, Group, describe
from companion.game import Game
from companion.messages import LANGUAGES, money


def _walk(setup: dict, seed: int, steps: int = 400):
    """A bot game, yielding the game before each action."""
    rng = random.Random(seed)
    game = Game(setup)
    for _ in range(steps):
        if game.state.finished:
            return
        yield game
        game.apply_trusted(bots.choose(game, rng))


SETUPS = [
    {"ruleset": "tozsde", "players": ["Anna", "Béla", "Cili"]},
    {"ruleset": "tozsde", "players": ["Anna", "Béla"], "options": {"timed_clock": True}},
    {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"], "options": {"deck": "virtual"}},
    {"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}},
]


def _placeholders_left(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['ruleset']}-{len(s['players'])}")
def test_every_choice_of_a_game_is_described_in_every_language(setup: dict) -> None:
    for n, game in enumerate(_walk(setup, seed=7)):
        choices = game.legal_actions()
        for language in LANGUAGES:
            described = describe(game, language)
            assert [d.choice for d in described] == choices
            assert sum(d.usual for d in described) <= 1
            if any(c.type == "roll" for c in choices):  # C3: the die's value goes to the roll
                assert [d.choice.type for d in described if d.usual] == ["roll"]
            for d in described:
                texts = [d.label, *(o.label for o in d.options), *(o.label for f in d.fields.values() for o in f)]
                for text in texts:
                    assert text and not _placeholders_left(text), (language, text)
                    assert not text.startswith(("choice.", "tozsde.", "boerse.", "option.")), text
                if d.param is not None:
                    assert d.options, d
                    for option in d.options:
                        assert d.choice.admits(d.action(option.value)), (d, option)
                    assert {json.dumps(o.value) for o in d.options} == {
                        json.dumps(a[d.param]) for a in d.choice.expand()
                    }
                elif d.choice.params:
                    assert d.dialog is not None, d
                else:
                    assert d.choice.admits(d.action())
                json.dumps(d.to_json(), ensure_ascii=False)
        if n > 250:
            break


def test_tozsde_buy_and_sell_amounts_are_the_ladder_sums() -> None:
    """§4, T3: shares bought one after another cost 800, 900, … when all five are at the exchange."""
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    rules = game.rules
    buy = rules.describe_choice(game.state, rules._buy_choice(0, "7", 2, 5), "en")
    assert buy.group is Group.TRADE and buy.param == "count"
    assert [(o.value, o.amount) for o in buy.options] == [(1, 800), (2, 1700)]
    assert buy.options[1].label == "2 shares — 1,700 Rubin"
    assert buy.action(2) == {"type": "buy", "player": 0, "company": "7", "count": 2}
    sell = rules.describe_choice(game.state, rules._sell_choice(1, "3", 3, 1), "hu")
    # one share at the exchange, three held: 1100 + 1000 + 900 (T3)
    assert [o.amount for o in sell.options] == [1100, 2100, 3000]
    assert sell.label == "Részvény eladása: 3. cég"
    assert sell.options[2].label == "3 részvény — 3\u00a0000 Rubin"
    de = rules.describe_choice(game.state, rules._sell_choice(1, "3", 3, 1), "de")
    assert de.options[0].label == "1 Aktie — 1.100 Rubin"


def test_tozsde_casino_dialog_lists_stakes_and_calls_with_their_multipliers() -> None:
    """§7.3, T9: stake 500–1000 in steps of 100 up to the cash; 1, 2 or 3 numbers pay 6, 3, 2 times."""
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    bet = game.rules.describe_choice(game.state, game.rules._bet_choice(0, 800), "en")
    assert bet.group is Group.WAGERS and bet.dialog == Dialog.WAGER and bet.param is None
    assert [o.amount for o in bet.fields["stake"]] == [500, 600, 700, 800]
    calls = {tuple(o.value): o.label for o in bet.fields["numbers"]}
    assert len(calls) == 6 + 15 + 20
    assert calls[(4,)] == "4 — 6 × the stake" and calls[(1, 5)] == "1, 5 — 3 × the stake"
    assert bet.label == "Casino: stake 500 Rubin to 800 Rubin on 1 to 3 numbers"
    action = bet.action({"stake": 700, "numbers": [2, 5]})
    assert bet.choice.admits(action)
    only = game.rules.describe_choice(game.state, game.rules._bet_choice(0, 500), "de")
    assert [o.amount for o in only.fields["stake"]] == [500]
    assert only.label == "Casino: 500 Rubin auf 1 bis 3 Zahlen setzen"  # one stake: not "500 bis 500"


def test_tozsde_order_phase_is_setup_and_the_rolloff_is_usual() -> None:
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    roll, order = describe(game, "de")
    assert (roll.label, roll.group, roll.usual) == ("Anna: um die Reihenfolge würfeln", Group.DICE, True)
    assert order.dialog == Dialog.PERMUTATION and [o.label for o in order.fields["order"]] == ["Anna", "Béla"]
    game.apply({"type": "set_order", "order": [1, 0]})
    (draw,) = describe(game, "en")
    assert draw.label == "Béla draws a company" and draw.usual and draw.group is Group.SETUP
    assert [o.label for o in draw.options][:2] == ["Company 1", "Company 2"]


def test_boerse_trades_credit_and_offer_amounts() -> None:
    """B4: each share at the one price; B5: credit in steps of 500 less 10 % interest (house rate)."""
    game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
    described = {(d.choice.type, d.choice.fixed.get("company")): d for d in describe(game, "en")}
    buy = described[("buy", "Stahl")]
    assert buy.label == "Buy Stahl at 500 DM" and [o.amount for o in buy.options] == [500]
    borrow = described[("borrow", None)]
    assert borrow.group is Group.LOANS
    assert [(o.value, o.label) for o in borrow.options] == [
        (500, "500 DM — 450 DM paid out"), (1000, "1,000 DM — 900 DM paid out"),
        (1500, "1,500 DM — 1,350 DM paid out"), (2000, "2,000 DM — 1,800 DM paid out"),
    ]
    assert described[("roll", None)].usual
    game.apply(borrow.action(1000))
    buy = next(d for d in describe(game, "de") if d.choice.fixed.get("company") == "Bau")
    assert [o.label for o in buy.options] == ["1 Aktie — 500 DM", "2 Aktien — 1.000 DM", "3 Aktien — 1.500 DM"]
    repay = next(d for d in describe(game, "en") if d.choice.type == "repay")
    assert repay.label == "Repay credit" and [o.amount for o in repay.options] == [500, 1000]
    assert [o.label for o in repay.options] == ["500 DM of 1,000 DM", "1,000 DM of 1,000 DM"]  # the last repays it all


def test_boerse_real_deck_card_entry() -> None:
    """B10: with the real deck the banker enters the drawn card; one parameter is a row of options, two a dialog."""
    game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "real"}})
    cards = [game.rules.describe_choice(game.state, c, "en") for c in game.rules._card_choices]
    by_effect = {d.choice.fixed["effect"]: d for d in cards}
    assert by_effect["tax"].param == "amount" and by_effect["tax"].options[0].label == "50 DM"
    assert by_effect["tax"].label == "Risk card: tax to the Fiscus"
    package = by_effect["package"]
    assert package.dialog == Dialog.FIELDS and set(package.fields) == {"company", "amount"}
    assert "+100 DM" in [o.label for o in package.fields["amount"]]
    assert by_effect["boersenschluss"].param is None and by_effect["boersenschluss"].dialog is None


def test_the_virtual_deck_order_is_never_described() -> None:
    """C2, B10: two shuffles, the same actions: until a card is drawn the descriptions are the same."""
    def game_after(order: list) -> Game:
        game = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "virtual"}})
        game.apply({"type": "shuffle", "order": order})
        return game

    rng = random.Random(3)
    base = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"], "options": {"deck": "virtual"}})
    orders = [base.rules.random_setup_action(base.state, rng)["order"] for _ in range(2)]
    assert orders[0] != orders[1]
    games = [game_after(order) for order in orders]
    shuffle = describe(base, "en")[0]
    assert shuffle.dialog == Dialog.DEAL and not shuffle.fields and not shuffle.options
    rng = random.Random(5)
    for _ in range(60):
        if games[0].state.data["drawn"]:
            break
        texts = [json.dumps([d.to_json() for d in describe(g, lang)], ensure_ascii=False)
                 for g in games for lang in LANGUAGES]
        assert texts[:3] == texts[3:]
        action = bots.choose(games[0], rng)
        for g in games:
            g.apply(action)


def test_an_action_needs_the_value_its_choice_asks_for() -> None:
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    roll = describe(game, "en")[0]
    with pytest.raises(ValueError):
        roll.action()
    end = Described(game.rules._end_turns[0], "End", Group.TURN)
    with pytest.raises(ValueError):
        end.action(3)


def test_money_is_written_as_each_language_writes_it() -> None:
    assert [money(12000, "DM", lang) for lang in ("en", "hu", "de")] == ["12,000 DM", "12\u00a0000 DM", "12.000 DM"]


def test_ending_the_game_by_the_clock_stands_apart_and_is_asked_first():
    """T11: "time is up" ends the game, and only the banker's PIN takes it back: it is its own group,
    apart from the turn's actions, and a confirm (issue 24); its action takes the confirm's empty fields."""
    game = Game({"ruleset": "tozsde", "players": ["Anna", "Béla"], "options": {"timed_clock": True}})
    end = next(d for d in describe(game, "en") if d.choice.type == "time_up")
    assert (end.group, end.dialog, end.usual) == (Group.END, Dialog.CONFIRM, False)
    assert end.action({}) == end.action() == {"type": "time_up"}
    assert all(d.group is not Group.END for d in describe(game, "en") if d.choice.type != "time_up")

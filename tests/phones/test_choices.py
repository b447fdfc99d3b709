"""Issue 16, trading from one's seat: on its own turn a player's phone offers every legal choice of
that player's turn the engine describes — the die's face, trades, credit, a wager, a card entered as
drawn, the setup's own steps — each through the table's queue with the phone's source; never the
banker's correction, never another seat's, never out of turn; the engine refuses what is not legal."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from companion.actions import Choice
from companion.describe import Described, Dialog, Group, Option, describe
from companion.game import Game
from phones.choice import chosen_value
from tests.phones.support import Played, Served, line_until

BOERSE_REAL = {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"], "options": {"deck": "real"}}
TOZSDE = {"ruleset": "tozsde", "players": ["Anna", "Béla", "Csaba"]}


def run(scenario: Any) -> Any:
    return asyncio.run(scenario)


def described(game: Game, kind: str, dialog: Dialog | None = None) -> Described | None:
    return next((d for d in describe(game, "en") if d.choice.type == kind and d.dialog == dialog), None)


def turn_with(setup: dict[str, Any], kind: str, dialog: Dialog) -> tuple[list[dict[str, Any]], Game, int, Described | None]:
    """The bots' moves to the first turn offering a ``kind`` choice in the form ``dialog``: the moves,
    the game there, whose turn it is, and that choice."""
    line, game = line_until(setup, lambda g: described(g, kind, dialog) is not None)
    seat = game.state.current
    assert seat is not None
    return line, game, seat, described(game, kind, dialog)


async def caught_up(phone: Any, played: Played) -> None:
    while phone.view is None or phone.view["seq"] < played.table.length:
        await phone.next("change")


def test_the_die_face_from_the_phone_of_the_seat_that_rolls(tmp_path: Path) -> None:
    """Tőzsde §2: each player rolls for the order of play; the roller's phone offers the six faces."""
    async def scenario() -> None:
        async with Played(tmp_path, setup=TOZSDE) as played:
            anna, bela = await played.phone(0), await played.phone(1)
            assert bela.view is not None and bela.view["choices"] == []
            assert anna.view is not None
            (roll,) = [c for c in anna.view["choices"] if c["group"] == "dice"]
            assert roll["options"] == ["1", "2", "3", "4", "5", "6"] and roll["usual"]
            assert all(c["group"] != "setup" or c["label"] != "Enter the order of play by hand" for c in anna.view["choices"])
            reply = await anna.act(roll["index"], 3)
            assert reply["ok"] is True and reply["text"] == "Done: Anna: roll for the order of play: 4"
            entry = played.table.history()[-1]
            assert entry.source == "phone-0" and entry.action == {"type": "roll", "player": 0, "value": 4}
            # now Béla rolls: Anna's phone is refused, in one sentence, and nothing changes
            await caught_up(anna, played)
            assert anna.view is not None and anna.view["choices"] == []
            length = played.table.length
            assert (await anna.act(roll["index"], 2))["text"] == "It is not your turn."
            assert played.table.length == length

    run(scenario())


def test_a_wager_from_the_phone_with_its_stake_and_call(tmp_path: Path) -> None:
    """Tőzsde §7.3 (T9): the casino's bet, a stake and the numbers called, as the wager's dialog picks them."""
    line, game, seat, bet = turn_with(TOZSDE, "bet", Dialog.WAGER)
    assert bet is not None and bet.choice.player == seat
    stakes, calls = bet.fields["stake"], bet.fields["numbers"]
    call = next(i for i, o in enumerate(calls) if o.value == [2, 5])

    async def scenario() -> None:
        async with Played(tmp_path, setup=TOZSDE) as played:
            for action in line:
                assert played.table.submit(action).accepted
            phone, other = await played.phone(seat, "de"), await played.phone((seat + 1) % 3)
            await caught_up(phone, played)
            assert phone.view is not None
            (wager,) = [c for c in phone.view["choices"] if c["dialog"] == "wager"]
            assert wager["group"] == "wagers"
            fields = {f["name"]: f for f in wager["fields"]}
            assert fields["stake"]["members"] is None and [2, 5] in fields["numbers"]["members"]
            # out of turn, the same wager: refused at once, nothing reaches the table
            assert (await other.act(wager["index"], fields={"stake": 0, "numbers": call}))["text"] == "It is not your turn."
            # a field missing, or an index beyond its options: not what was offered
            assert (await phone.act(wager["index"], fields={"stake": 0}))["text"] == "Diese Möglichkeit steht Ihnen jetzt nicht offen."
            assert (await phone.act(wager["index"], fields={"stake": len(stakes), "numbers": call}))["text"] == \
                "Diese Möglichkeit steht Ihnen jetzt nicht offen."
            length = played.table.length
            reply = await phone.act(wager["index"], fields={"stake": len(stakes) - 1, "numbers": call})
            assert reply["ok"] is True, reply
            entry = played.table.history()[-1]
            assert entry.source == f"phone-{seat}" and played.table.length == length + 1
            assert entry.action == {"type": "bet", "player": seat, "stake": stakes[-1].value, "numbers": [2, 5]}

    run(scenario())


def test_a_card_as_drawn_entered_from_the_phone_of_the_player_whose_turn_it_is(tmp_path: Path) -> None:
    """Die Börse, the real deck (B10): the card drawn on one's turn, its fields as the dialog shows them."""
    line, game, seat, card = turn_with(BOERSE_REAL, "card", Dialog.FIELDS)
    assert card is not None and card.choice.player is None
    picks = {name: len(options) - 1 for name, options in card.fields.items()}
    wanted = {name: options[-1].value for name, options in card.fields.items()}

    async def scenario() -> None:
        async with Played(tmp_path, setup=BOERSE_REAL) as played:
            for action in line:
                assert played.table.submit(action).accepted
            phone, other = await played.phone(seat), await played.phone((seat + 1) % 3)
            await caught_up(phone, played)
            await caught_up(other, played)
            assert phone.view is not None and other.view is not None and other.view["choices"] == []
            offered = [c for c in phone.view["choices"] if c["dialog"] == "fields"]
            cards = [d.label for d in describe(game, "en") if d.choice.type == "card" and d.dialog == Dialog.FIELDS]
            assert [c["label"] for c in offered] == cards and len(cards) >= 1
            (chosen,) = [c for c in offered if c["label"] == card.label]
            assert [f["name"] for f in chosen["fields"]] == list(card.fields)
            assert (await other.act(chosen["index"], fields=picks))["text"] == "It is not your turn."
            length = played.table.length
            reply = await phone.act(chosen["index"], fields=picks)
            assert reply["ok"] is True, reply
            entry = played.table.history()[-1]
            assert entry.source == f"phone-{seat}" and played.table.length == length + 1
            assert entry.action == {**card.choice.base(), **wanted}

    run(scenario())


def test_a_boerse_loan_and_trade_from_the_phone_and_a_refusal_of_the_engine(tmp_path: Path) -> None:
    """Die Börse (B5): a credit from one's own phone; the engine's own refusal comes back in one sentence."""
    setup = {"ruleset": "boerse", "players": ["Anna", "Bernd", "Clara"]}
    line, game = line_until(setup, lambda g: any(d.choice.type == "borrow" and d.choice.player == g.state.current
                                                 for d in describe(g, "en")))
    seat = game.state.current
    assert seat is not None

    async def scenario() -> None:
        async with Played(tmp_path, setup=setup) as played:
            for action in line:
                assert played.table.submit(action).accepted
            phone = await played.phone(seat, "hu")
            await caught_up(phone, played)
            assert phone.view is not None
            groups = {c["group"] for c in phone.view["choices"]}
            assert "loans" in groups and "correction" not in groups
            borrow = next(c for c in phone.view["choices"] if c["group"] == "loans")
            length = played.table.length
            assert (await phone.act(borrow["index"], 0))["ok"] is True
            assert played.table.length == length + 1 and played.table.history()[-1].source == f"phone-{seat}"
            assert played.table.history()[-1].action["type"] == "borrow"  # type: ignore[index]
            # the bridge hands the engine what the web process asks; the engine refuses an illegal one
            notes: list[dict[str, Any]] = []
            played.bridge._note = notes.append  # type: ignore[method-assign,assignment]
            played.bridge._heard({"t": "act", "id": 9, "seat": seat,
                                  "action": {"type": "borrow", "player": seat, "amount": 10**9}})
            for _ in range(200):
                if notes:
                    break
                await asyncio.sleep(0.01)
            assert notes[0]["accepted"] is False and notes[0]["said"]["key"] not in ("", "phones.refused.lost")
            assert played.table.length == length + 1

    run(scenario())


def test_the_table_s_own_choices_are_never_a_phones() -> None:
    """The order of play entered by hand (Tőzsde §2) and the deck's shuffle (B10, C2) are nobody's:
    the screen lists them, no phone offers them; a choice of nobody's in the turn (a card) is the turn's player's."""
    game = Game(TOZSDE)
    types = {d.choice.type for d in describe(game, "en")}
    assert "set_order" in types

    async def scenario() -> None:
        async with Served([]) as served:
            anna = await served.phone(0)
            assert anna.view is not None
            assert [c["group"] for c in anna.view["choices"]] == ["dice"]

    run(scenario())
    boerse = Game({"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    assert [d.dialog for d in describe(boerse, "en") if d.choice.type == "shuffle"] == [Dialog.DEAL]
    from phones.replica import Replica
    from phones.seatview import phone_choices

    replica = Replica({"ruleset": "boerse", "players": ["Anna", "Bernd"]})
    assert all(d.dialog != Dialog.DEAL for _, d in phone_choices(replica, 0, "en"))


def test_an_ordering_is_every_option_once() -> None:
    order = Described(Choice("set_order", 0), "Order", Group.SETUP, dialog=Dialog.PERMUTATION,
                      fields={"order": (Option(0, "Anna"), Option(1, "Béla"), Option(2, "Csaba"))})
    assert chosen_value(order, None, {"order": [2, 0, 1]}) == ({"order": [2, 0, 1]}, "Csaba, Anna, Béla")
    for wrong in ([0, 1], [0, 0, 1], [0, 1, 3], "012", [0, 1, True], None):
        assert chosen_value(order, None, {"order": wrong}) is None, wrong
    assert chosen_value(order, 1, {"order": [0, 1, 2]}) is None
    assert chosen_value(order, None, {"order": [0, 1, 2], "more": 1}) is None

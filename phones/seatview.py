"""What one seat's phone shows, in the phone's language: made from the replica, never from the app.

Every text is rendered from the catalogues (the engine's, the game's and ``phones/locale``), so the
page holds no words of its own and prices nothing. A seat's choices are the engine's descriptions
of that seat's legal choices (:func:`companion.describe.describe`): the die's face, trades, credit,
wagers, cards, the setup's own steps, the turn's — each with its options or its dialog's fields —
and only while trading from phones is on and it is that seat's turn.

>>> from phones.wire import Change
>>> replica = Replica({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
>>> view = seat_view(replica, 1, "hu", trading=True)
>>> view["me"]["name"], view["me"]["cash"], view["turn"]["text"]
('Béla', '2\xa0000 Rubin', 'Anna következik')
>>> view["choices"]  # Anna's roll-off first: nothing for Béla to choose
[]
>>> [(c["label"], c["options"]) for c in seat_view(replica, 0, "en", trading=True)["choices"]]
[('Anna: roll for the order of play', ['1', '2', '3', '4', '5', '6'])]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from companion.describe import Described, Dialog, Group, describe
from companion.messages import money, register_package, render
from phones.replica import Replica

register_package("phones")

def offered(d: Described, seat: int) -> bool:
    """Whether a phone offers ``d`` to ``seat`` on that seat's turn: a choice of that seat, or one of
    nobody's in the turn (a card entered as drawn); never the banker's correction, nor a setup step
    of nobody's (the order entered by hand), nor chance the table deals (:attr:`Dialog.DEAL`).

    >>> from companion.actions import Choice
    >>> offered(Described(Choice("end_turn", 1), "End", Group.TURN), 1), offered(Described(Choice("end_turn", 1), "End", Group.TURN), 0)
    (True, False)
    >>> offered(Described(Choice("card", None), "Card", Group.TURN), 0), offered(Described(Choice("set_order", None), "Order", Group.SETUP), 0)
    (True, False)
    """
    if d.group == Group.CORRECTION or d.dialog == Dialog.DEAL:
        return False
    return d.choice.player == seat or (d.choice.player is None and d.group != Group.SETUP)


HISTORY_SHOWN = 8
"""How many of the table's last sentences a phone shows."""

CHART_POINTS = 60
"""The most points of each fortune's line sent to a phone (the chart is drawn on the phone)."""

PAGE_KEYS = (
    "title", "pick_seat", "watch", "cash", "credit", "fortune", "shares", "market", "history", "choices", "players",
    "ranking", "chart", "waiting", "offline", "sending", "trading_off", "no_shares", "game_over", "ok", "order_hint",
)
"""The page's own labels, sent with every view in the phone's language."""


@lru_cache(maxsize=8)
def labels(language: str) -> dict[str, str]:
    """The page's fixed labels in ``language`` (made once a language: never change the dict returned).

    >>> labels("de")["cash"]
    'Bargeld'
    """
    return {key: render(f"phones.{key}", {}, language) for key in PAGE_KEYS}


@lru_cache(maxsize=8192)
def _rendered_once(key: str, params: tuple[tuple[str, Any], ...], language: str) -> str:
    return render(key, dict(params), language)


def rendered(key: str, language: str, **params: Any) -> str:
    """``render(key, params, language)``, remembered: a market's lines and a turn's words come back
    change after change, and a phone's view is made at every one.

    >>> rendered("phones.turn", "de", player="Anna")
    'Anna ist am Zug'
    """
    return _rendered_once(key, tuple(sorted(params.items())), language)


@lru_cache(maxsize=8192)
def _money(amount: int, currency: str, language: str) -> str:
    return money(amount, currency, language)


def phone_choices(replica: Replica, seat: int, language: str,
                  state: dict[str, Any] | None = None) -> list[tuple[int, Described]]:
    """The seat's choices a phone may offer now, each with its index in the engine's description
    (``state``: ``replica.game.view(with_legal=False)`` when the caller has it already)."""
    view = state if state is not None else replica.game.view(with_legal=False)
    if replica.game.state.finished or view["turn"]["player"] != seat:
        return []
    return [(index, d) for index, d in enumerate(describe(replica.game, language)) if offered(d, seat)]


def choice_json(index: int, d: Described) -> dict[str, Any]:
    """A choice as the phone page draws it: its label, its options' labels, or its dialog's form and
    fields (each field's options' labels; a wager's call field also its members, which the page
    toggles). The page answers with indexes into these lists, never with values.

    >>> from companion.game import Game
    >>> roll = describe(Game({"ruleset": "tozsde", "players": ["A", "B"]}), "en")[0]
    >>> sorted(choice_json(0, roll)), choice_json(0, roll)["options"][:2]
    (['dialog', 'fields', 'group', 'index', 'label', 'options', 'usual'], ['1', '2'])
    """
    fields = [{"name": name, "labels": [o.label for o in options],
               "members": [o.value for o in options] if d.dialog == Dialog.WAGER and all(isinstance(o.value, list) for o in options) else None}
              for name, options in d.fields.items()]
    return {"index": index, "label": d.label, "group": d.group.value, "usual": d.usual,
            "options": [o.label for o in d.options], "dialog": None if d.dialog is None else d.dialog.value,
            "fields": fields}


def _sampled(series: list[int]) -> list[int]:
    if len(series) <= CHART_POINTS:
        return series
    step = (len(series) - 1) / (CHART_POINTS - 1)
    return [series[round(i * step)] for i in range(CHART_POINTS)]


def public_view(replica: Replica, language: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """What every phone shows alike, in ``language``: made once a change for all the phones of that language.

    ``state`` is ``replica.game.view(with_legal=False)`` when the caller has it already.
    """
    view = state if state is not None else replica.game.view(with_legal=False)
    currency = view["currency"]

    def cash(amount: int | None) -> str:
        return rendered("phones.none", language) if amount is None else _money(amount, currency, language)

    ranking = []
    if view["finished"] and view["ranking"]:
        for place, seats in enumerate(view["ranking"], 1):
            names = ", ".join(view["players"][s]["name"] for s in seats)
            fortune = view["players"][seats[0]]["fortune"]
            ranking.append(rendered("phones.place", language, place=place, names=names, amount=fortune, currency=currency))
    turn = view["turn"]
    return {
        "seq": replica.seq,
        "labels": labels(language),
        "turn": {"seat": turn["player"], "name": turn["name"], "finished": view["finished"],
                 "text": rendered("phones.turn", language, player=turn["name"]),
                 "mine_text": rendered("phones.your_turn", language)},
        "players": [{"name": p["name"], "fortune": cash(p["fortune"])} for p in view["players"]],
        "market": [{"company": c["id"], "line": rendered(
            "phones.market_line", language, exchange=c["exchange"], buy=cash(c["buy"]), sell=cash(c["sell"]))}
            for c in view["companies"]],
        "said": " ".join(replica.steps[-1].texts(language)) if replica.steps else "",
        "history": replica.said_tail(HISTORY_SHOWN, language),
        "finished": view["finished"],
        "ranking": ranking,
        "chart": {"names": [p["name"] for p in view["players"]],
                  "fortunes": [_sampled(series) for series in replica.history.fortunes]} if view["finished"] else None,
    }


def seat_view(replica: Replica, seat: int | None, language: str, *, trading: bool,
              state: dict[str, Any] | None = None, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the seat's phone shows, as JSON-ready values with the texts rendered; for a phone that
    only watches (``seat`` None) what the table screen shows everybody: no cash of anyone's, no choices.

    ``state`` and ``public`` (:func:`public_view`) are passed in when already made for this change.
    """
    view = state if state is not None else replica.game.view(with_legal=False)
    shared = public if public is not None else public_view(replica, language, view)
    currency = view["currency"]
    companies = {c["id"]: c for c in view["companies"]}
    shares = []
    player = view["players"][seat] if seat is not None else {"shares": {}}
    for company, count in sorted(player["shares"].items(), key=lambda item: item[0]):
        if count <= 0:
            continue
        market = companies.get(company, {})
        price = market.get("price", market.get("sell"))
        shares.append({
            "company": company, "count": count, "line": rendered("phones.share_line", language, count=count, company=company),
            "value": "" if price is None else rendered("phones.share_value", language, amount=price * count, currency=currency),
        })
    turn = shared["turn"]
    mine = turn["seat"] == seat and not turn["finished"]
    choices: list[dict[str, Any]] = []
    if trading and mine and seat is not None:
        choices = [choice_json(index, d) for index, d in phone_choices(replica, seat, language, view)]
    return {
        **shared,
        "seat": seat,
        "me": None if seat is None else {
            "name": player["name"], "cash": _money(player["cash"], currency, language),
            "credit": _money(player["credit"], currency, language), "fortune": _money(player["fortune"], currency, language),
            "shares": shares, "out": player["status"] != "playing"},
        "turn": {"seat": turn["seat"], "mine": mine, "text": turn["mine_text"] if mine else turn["text"]},
        "players": [{**p, "me": n == seat} for n, p in enumerate(shared["players"])],
        "trading": trading,
        "choices": choices,
    }


def watcher_view(replica: Replica, language: str) -> dict[str, Any]:
    """What a phone that only watches shows.

    >>> view = watcher_view(Replica({"ruleset": "tozsde", "players": ["Anna", "Béla"]}), "de")
    >>> view["me"], view["choices"], view["turn"]["text"]
    (None, [], 'Anna ist am Zug')
    """
    return seat_view(replica, None, language, trading=False)


def seats(replica: Replica) -> list[str]:
    """The players' names by seat, for the page where a phone picks its seat."""
    return [p["name"] for p in replica.game.view(with_legal=False)["players"]]

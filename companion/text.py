"""Text in and out for people and scripts: JSON read with a one-sentence refusal, numbers typed, the state in words.

Shared by the ``companion`` command and the text console, so neither needs the other.

>>> parse_json('{"type": "end_turn"}', "act")
{'type': 'end_turn'}
>>> parse_json("[" * 100 + "]" * 100, "act")
Traceback (most recent call last):
...
companion.actions.Rejection: act nests deeper than 64 levels; no game needs that.
>>> typed_number("12"), typed_number("²"), typed_number("9" * 5000)
(12, None, None)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from companion.actions import Rejection
from companion.describe import Described
from companion.messages import Said, has, money, render

MAX_DEPTH = 64
"""No action, board or exported game nests deeper than this."""

MAX_DIGITS = 18
"""A typed number longer than this is no seat, count or amount of any game."""


def parse_json(text: str, what: str) -> Any:
    """The JSON value of ``text``; a :class:`Rejection` in one sentence when it cannot be read.

    ``what`` names the input in the message (a file, an option, ``act``).
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise Rejection(
            "input.not_json", {"what": what, "problem": error.msg, "line": error.lineno, "column": error.colno}
        ) from None
    except RecursionError:
        raise Rejection("input.too_deep", {"what": what, "limit": MAX_DEPTH}) from None
    except ValueError:  # Python's limit on the digits of an integer
        raise Rejection("input.number_too_long", {"what": what, "limit": sys.get_int_max_str_digits()}) from None
    if _depth(value) > MAX_DEPTH:
        raise Rejection("input.too_deep", {"what": what, "limit": MAX_DEPTH})
    return value


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def utf8(text: str, what: str) -> str:
    """``text`` if it is UTF-8 (command-line arguments may carry any bytes), else a :class:`Rejection`."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Rejection("input.not_utf8", {"what": what}) from None
    return text


def decode_line(raw: bytes, what: str) -> str:
    """A line of a script as text, or a :class:`Rejection` if it is not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Rejection("input.not_utf8", {"what": what}) from None


def typed_number(text: str) -> int | None:
    """A whole number typed at the console (ASCII digits, an optional minus), else None.

    >>> typed_number("-3"), typed_number("3.0"), typed_number("٣")
    (-3, None, None)
    """
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS):
        return None
    return int(text)


def choices_text(described: list[Described], language: str = "en") -> str:
    """The legal choices of the moment on one line, as the ruleset describes them.

    >>> from companion.game import Game
    >>> from companion.describe import describe
    >>> choices_text(describe(Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})))
    'legal now: Anna: roll for the order of play: 1 · 2 · 3 · 4 · 5 · 6; Enter the order of play by hand'
    """
    return render("legal_now", {"choices": "; ".join(d.line() for d in described)}, language)


def holdings(shares: Mapping[str, int], language: str = "en") -> str:
    """A player's shares in the one share notation: the count with ×, then the company (``shares.held``);
    "—" for none. The market writes the shares at the exchange the same way (``3×``), before the prices.

    >>> holdings({"7": 2, "11": 4, "3": 0}), holdings({})
    ('2× 7 · 4× 11', '—')
    """
    held = [render("shares.held", {"count": n, "company": c}, language) for c, n in shares.items() if n]
    return " · ".join(held) or "—"


def ruleset_title(name: str, language: str = "en") -> str:
    """A ruleset's title in ``language``, from its ``ruleset.json`` (its name where it has none).

    >>> ruleset_title("boerse", "hu"), ruleset_title("tozsde", "de")
    ('Die Börse', 'Tőzsde')
    """
    from companion import registry

    title = registry.ruleset_class(name).read_json("ruleset.json").get("title", name)
    return str(title.get(language) or title.get("en") or name) if isinstance(title, Mapping) else str(title)


def phase_name(ruleset: str, phase: str, language: str = "en") -> str:
    """A phase as people call it: the ruleset's ``<ruleset>.phase.<phase>``, else the core's ``phase.<phase>``,
    else its id.

    >>> phase_name("tozsde", "act", "de"), phase_name("boerse", "over", "hu")
    ('Kaufen, verkaufen, Zug beenden', 'Vége')
    """
    for key in (f"{ruleset}.phase.{phase}", f"phase.{phase}"):
        if has(key, "en"):
            return render(key, None, language)
    return phase


def render_state(view: dict[str, Any], language: str = "en", owed: Said | None = None) -> str:
    """A short plain-text summary of a state view in ``language``; players by their 0-based seat, as in
    actions. ``owed``: the waiting debt said in one sentence (``Table.owed``), else its total.

    >>> from companion.game import Game
    >>> view = {**Game({"ruleset": "boerse", "players": ["Anna", "Bernd"]}).view(with_legal=False), "game": 1}
    >>> print(render_state(view, "de"))
    Spiel 1 · Die Börse · Runde 1 · Risikokarten mischen
    → Platz 0 Anna: 700 DM bar, keine Aktien, Vermögen 700 DM
      Platz 1 Bernd: 700 DM bar, keine Aktien, Vermögen 700 DM
    """
    cur = view["currency"]
    turn = view["turn"]
    lines = [render("state.heading", {"game": view.get("game"), "ruleset": ruleset_title(view["ruleset"], language),
                                      "round": turn["round"], "phase": phase_name(view["ruleset"], turn["phase"], language)},
                    language)]
    for p in view["players"]:
        marker = "→" if p["seat"] == turn["player"] else " "
        shares = holdings(dict(sorted(p["shares"].items())), language) if any(p["shares"].values()) else \
            render("state.no_shares", None, language)
        line = render("state.player.credit" if p["credit"] else "state.player", {
            "seat": p["seat"], "name": p["name"], "cash": money(p["cash"], cur, language), "shares": shares,
            "credit": money(p["credit"] or 0, cur, language), "fortune": money(p["fortune"], cur, language)}, language)
        if p["status"] == "out":
            line = render("state.out", {"line": line}, language)
        lines.append(f"{marker} {line}")
    if view["debt"]:
        lines.append(owed.text(language) if owed is not None else
                     render("state.waiting", {"amount": money(view["debt"]["total"], cur, language)}, language))
    if view["finished"]:
        groups = [" = ".join(view["players"][s]["name"] for s in group) for group in view["ranking"] or []]
        reason = f"game_ended.{view['end_reason']}"
        winner = {"winner": groups[0] if groups else "—"}
        lines.append(render(reason, winner, language) if has(reason, "en") else render("game_over", None, language))
        lines.append(render("state.ranking", {"ranking": "; ".join(groups)}, language))
    return "\n".join(lines)

"""The effect vocabulary of risk cards and event spaces (B10, B16).

A card (real or virtual) and an event space state their effect in the
same words: ``{"effect": kind, …parameters}``. One interpreter in
:mod:`companion.rulesets.boerse.spaces` carries them out.

>>> effect_problems({"effect": "tax", "amount": 200}, packages=["Stahl"], step=50)
[]
>>> effect_problems({"effect": "package", "company": "Gold", "amount": 75}, packages=["Stahl"], step=50)
["package 'Gold' is not one of Stahl", 'amount must be a non-zero multiple of 50, not 75']
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.actions import is_whole_number
from companion.messages import Said

EFFECTS: dict[str, tuple[str, ...]] = {
    "bank_pays": ("amount",),
    "pay_bank": ("amount",),
    "tax": ("amount",),
    "package": ("company", "amount"),
    "all_packages": ("amount",),
    "everyone_pays": ("amount",),
    "everyone_receives": ("amount",),
    "offer": ("company", "price"),
    "move": ("space",),
    "boersenschluss": (),
}
"""Each effect kind with its parameters, in the order a screen asks for them."""

MONEY_EFFECTS = frozenset({"bank_pays", "pay_bank", "tax", "everyone_pays", "everyone_receives"})
"""``amount`` is a positive sum of money."""

PRICE_EFFECTS = frozenset({"package", "all_packages"})
"""``amount`` is a signed price change."""

EVENT_EFFECTS = ("everyone_pays", "everyone_receives", "all_packages", "package")
"""What an event space may do: something that touches every player (B16)."""

LABEL_KEYS = frozenset({"name", "text", "id"})
"""Keys that only label a card or space."""



def effect_problems(
    entry: Any,
    *,
    packages: Iterable[str],
    step: int,
    allowed: Iterable[str] = tuple(EFFECTS),
    spaces: int | None = None,
    space_kinds: Iterable[str] = (),
    extra_keys: Iterable[str] = (),
) -> list[str]:
    """What is wrong with one effect; an empty list if nothing.

    ``spaces`` is the length of the track (a move names an index below it,
    or one of ``space_kinds``: the first space of that kind).
    """
    if not isinstance(entry, dict):
        return [f"must be an object, not {entry!r}"]
    kind = entry.get("effect")
    allowed = tuple(allowed)
    if kind not in allowed:
        return [f"effect {kind!r} is not one of {', '.join(allowed)}"]
    packages = list(packages)
    problems: list[str] = []
    params = EFFECTS[kind]
    for name in params:
        if name not in entry:
            problems.append(f"{kind} needs '{name}'")
    unexpected = sorted(set(entry) - {"effect", *params} - LABEL_KEYS - set(extra_keys))
    if unexpected:
        problems.append(f"unexpected field(s) {', '.join(unexpected)}")
    if "company" in params and "company" in entry and entry["company"] not in packages:
        problems.append(f"package {entry['company']!r} is not one of {', '.join(packages)}")
    if "amount" in params and "amount" in entry:
        amount = entry["amount"]
        if kind in MONEY_EFFECTS and not (is_whole_number(amount) and amount > 0 and amount % step == 0):
            problems.append(f"amount must be a positive multiple of {step}, not {amount!r}")
        if kind in PRICE_EFFECTS and not (is_whole_number(amount) and amount != 0 and amount % step == 0):
            problems.append(f"amount must be a non-zero multiple of {step}, not {amount!r}")
    if "price" in params and "price" in entry:
        price = entry["price"]
        if not (is_whole_number(price) and price > 0 and price % step == 0):
            problems.append(f"price must be a positive multiple of {step}, not {price!r}")
    if "space" in params and "space" in entry:
        space = entry["space"]
        kinds = list(space_kinds)
        if is_whole_number(space):
            if spaces is not None and not 0 <= space < spaces:
                problems.append(f"space {space} is not on the track (0–{spaces - 1})")
        elif space not in kinds:
            problems.append(f"space must be a space index or one of {', '.join(kinds) or 'no kind'}, not {space!r}")
    return problems


def text_of(entry: dict[str, Any], kind: str) -> Any:
    """The text of a card or event space: ``boerse.<kind>.<id>`` in the catalogue, filled with its
    amounts; a group's own track space may give its ``name`` in several languages instead."""
    if "id" in entry:
        params = {k: abs(v) if k == "amount" else v for k, v in entry.items() if k in ("amount", "company", "price")}
        return Said(f"boerse.{kind}.{entry['id']}", params)
    name = entry.get("name")
    return name if isinstance(name, dict) and "en" in name else entry["effect"]

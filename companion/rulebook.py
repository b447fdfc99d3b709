"""What each ruleset's rules are, for people: every field kind and rule with its § or ruling.

Each ruleset ships ``rulebook.json`` beside ``ruleset.json`` with the
structure of its rule book: entries of a kind (a field of the board or
track, a rule, an option) in the order shown, each with the § of the rule
book or the ruling of ``docs/rulings.md`` it comes from, and whether it is a
house default (decided here, where the source is silent). The texts are
in the ruleset's own gettext catalogue, found through its folder like all
its messages: a short title ``<ruleset>.rulebook.<key>.title`` and a
sentence ``<ruleset>.rulebook.<key>.text``, where ``{currency}`` stands
for the ruleset's currency and an entry's ``numbers`` fill its amounts,
written as each language writes numbers (``{top:number}``: 1,500 /
1.500 / 1500). The screen's rules page and any other front
end read this index; the ruleset, not the screen, says what its rules are.

>>> book = rulebook("tozsde")
>>> casino = next(e for e in book if e.key == "casino")
>>> casino.kind, casino.cite, casino.house_default
(<EntryKind.FIELD: 'field'>, '§7.3 · T9', False)
>>> casino.title_in("de"), casino.title_key
('Kasino', 'tozsde.rulebook.casino.title')
>>> next(e for e in book if e.key == "premium").text_in("hu")
'A Tőzsde minden birtokolt részvény után 100 Rubint fizet.'
>>> [e.key for e in rulebook("boerse") if e.house_default][:3]
['interest_percent', 'dividend_table', 'packages']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion import registry
from companion.messages import LANGUAGES, has, register_package, render


class EntryKind(StrEnum):
    FIELD = "field"
    """A kind of field on the board (Tőzsde) or space on the track (Die Börse)."""
    RULE = "rule"
    OPTION = "option"
    """A rule a group may set before a game (a house option of docs/rulings.md)."""


FIELDS = ("kind", "key", "cite", "house_default", "numbers")
"""What an entry of ``rulebook.json`` holds; its texts are in the catalogue."""


@dataclass(frozen=True)
class Entry:
    kind: EntryKind
    key: str
    """The field kind, rule or option name (an option's key in ``ruleset.json``)."""
    cite: str
    """The § of the rule book and/or the rulings (``§7.3 · T9``)."""
    house_default: bool
    """Decided by the project where the source is silent; a group may set its own."""
    ruleset: str
    """The ruleset's name, which begins the message keys of the texts."""
    currency: str = ""
    numbers: tuple[tuple[str, int], ...] = ()
    """The amounts its texts name (``{name:number}``), from ``rulebook.json``."""

    @property
    def title_key(self) -> str:
        return f"{self.ruleset}.rulebook.{self.key}.title"

    @property
    def text_key(self) -> str:
        return f"{self.ruleset}.rulebook.{self.key}.text"

    def title_in(self, language: str) -> str:
        return render(self.title_key, self._params, language)

    def text_in(self, language: str) -> str:
        return render(self.text_key, self._params, language)

    @property
    def _params(self) -> dict[str, Any]:
        return {"currency": self.currency, **dict(self.numbers)}


def entry(raw: Any, ruleset: str, currency: str = "") -> Entry:
    """One entry of ``rulebook.json``; a ValueError names what is wrong with it."""
    if not isinstance(raw, dict):
        raise ValueError(f"a rulebook entry must be an object, not {raw!r}")
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise ValueError(f"rulebook entry {raw.get('key')!r}: unknown {', '.join(unknown)} "
                         f"(the texts belong in the ruleset's catalogue, {ruleset}.rulebook.<key>.title and .text)")
    try:
        kind = EntryKind(raw["kind"])
        key, cite, house = raw["key"], raw["cite"], raw["house_default"]
    except (KeyError, ValueError) as error:
        raise ValueError(f"rulebook entry {raw.get('key')!r}: {error}") from None
    if not (isinstance(key, str) and key and isinstance(cite, str) and cite and isinstance(house, bool)):
        raise ValueError(f"rulebook entry {key!r}: key and cite are text, house_default true or false")
    numbers = raw.get("numbers", {})
    if not isinstance(numbers, dict) or not all(
            isinstance(name, str) and type(value) is int for name, value in numbers.items()):
        raise ValueError(f"rulebook entry {key!r}: numbers are names with whole numbers, e.g. {{\"top\": 1500}}")
    return Entry(kind, key, cite, house, ruleset, currency, tuple(sorted(numbers.items())))


def rulebook(ruleset: str) -> list[Entry]:
    """The entries of ``ruleset``'s ``rulebook.json``: fields first, then rules, then options, as written;
    none for a game without one (the file is optional)."""
    rules = registry.ruleset_class(ruleset)
    register_package(rules.package, rules.currency)
    try:
        raw = rules.read_json("rulebook.json")
    except FileNotFoundError:
        return []
    entries = [entry(item, rules.name, rules.currency) for item in raw.get("entries", [])]
    seen: set[str] = set()
    for e in entries:
        if e.key in seen:
            raise ValueError(f"rulebook entry {e.key!r} is there twice")
        seen.add(e.key)
    order = list(EntryKind)
    return sorted(entries, key=lambda e: order.index(e.kind))


def fields_heading(ruleset: str) -> str:
    """The message key of the heading over a ruleset's field entries: its own ``<ruleset>.fields``
    ("Spaces of the track") where its catalogue has one, else the app's plain one.

    >>> fields_heading("boerse"), fields_heading("nothing")
    ('boerse.fields', 'ui.rules.field')
    """
    own = f"{ruleset}.fields"
    return own if has(own, "en") else "ui.rules.field"


def missing_texts(ruleset: str) -> list[tuple[str, str]]:
    """Each rule-book text the catalogues lack, as ``(key, language)``; empty when every entry is complete.

    >>> missing_texts("tozsde"), missing_texts("boerse")
    ([], [])
    """
    return [(key, language) for e in rulebook(ruleset) for key in (e.title_key, e.text_key)
            for language in LANGUAGES if not has(key, language)]

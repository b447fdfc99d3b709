"""What each ruleset's rules are, for people: every field kind and rule with its § or ruling.

Each ruleset ships ``rulebook.json`` beside ``ruleset.json``: entries of a
kind (a field of the board or track, a rule, an option), a short title and
sentence in every language, the § of the rule book or the ruling of
``RULINGS.md`` it comes from, and whether it is a house default (decided
here, where the source is silent). The screen's rules page and any other
front end read this index; the ruleset, not the screen, says what its rules are.

>>> book = rulebook("tozsde")
>>> casino = next(e for e in book if e.key == "casino")
>>> casino.kind, casino.cite, casino.house_default
(<EntryKind.FIELD: 'field'>, '§7.3 · T9', False)
>>> casino.title_in("de")
'Kasino'
>>> [e.key for e in rulebook("boerse") if e.house_default][:3]
['interest_percent', 'dividend_table', 'packages']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion import registry
from companion.messages import LANGUAGES


class EntryKind(StrEnum):
    FIELD = "field"
    """A kind of field on the board (Tőzsde) or space on the track (Die Börse)."""
    RULE = "rule"
    OPTION = "option"
    """A rule a group may set before a game (a house option of RULINGS)."""


@dataclass(frozen=True)
class Entry:
    kind: EntryKind
    key: str
    """The field kind, rule or option name (an option's key in ``ruleset.json``)."""
    cite: str
    """The § of the rule book and/or the rulings (``§7.3 · T9``)."""
    house_default: bool
    """Decided by the project where the source is silent; a group may set its own."""
    title: dict[str, str]
    text: dict[str, str]

    def title_in(self, language: str) -> str:
        return self.title.get(language) or self.title["en"]

    def text_in(self, language: str) -> str:
        return self.text.get(language) or self.text["en"]


def entry(raw: Any) -> Entry:
    """One entry of ``rulebook.json``; a ValueError names what is wrong with it."""
    if not isinstance(raw, dict):
        raise ValueError(f"a rulebook entry must be an object, not {raw!r}")
    try:
        kind = EntryKind(raw["kind"])
        key, cite, house = raw["key"], raw["cite"], raw["house_default"]
        title, text = raw["title"], raw["text"]
    except (KeyError, ValueError) as error:
        raise ValueError(f"rulebook entry {raw.get('key')!r}: {error}") from None
    if not (isinstance(key, str) and isinstance(cite, str) and cite and isinstance(house, bool)):
        raise ValueError(f"rulebook entry {key!r}: key and cite are text, house_default true or false")
    for name, texts in (("title", title), ("text", text)):
        if not isinstance(texts, dict) or any(not isinstance(texts.get(lang), str) or not texts[lang] for lang in LANGUAGES):
            raise ValueError(f"rulebook entry {key!r}: {name} needs a text in each of {', '.join(LANGUAGES)}")
    return Entry(kind, key, cite, house, dict(title), dict(text))


def rulebook(ruleset: str) -> list[Entry]:
    """The entries of ``ruleset``'s ``rulebook.json``: fields first, then rules, then options, as written."""
    raw = registry.ruleset_class(ruleset).read_json("rulebook.json")
    entries = [entry(item) for item in raw.get("entries", [])]
    order = list(EntryKind)
    return sorted(entries, key=lambda e: order.index(e.kind))

"""The messages: keyed texts in English, Hungarian and German, with numbers and money as each language writes them.

Everything said is a :class:`Said` (a key and its parameters), made text in
any language by :func:`render`.

The texts are gettext catalogues (:mod:`companion.catalogue`): the core's in
``companion/locale``, each ruleset's in its own folder, found when the
ruleset is first used (:func:`register_package`).

Parameters fill ``{name}`` fields. A whole number is written as the language
writes it, ``{amount:money}`` adds the currency of the message's ruleset (or
of a ``currency`` parameter), ``{amount:+money}`` shows the sign. A message
with plural forms picks its form by the ``count`` parameter. A ``variant``
parameter picks the more specific text ``key.variant`` where there is one. A
parameter that is a :class:`Said` is itself a message, rendered in the same
language; a tuple is said item by item, separated by commas. A missing translation falls back to English, a missing key to the
key and its parameters.

>>> render("not_your_turn", {"player": "Béla"}, "de")
'Béla ist nicht am Zug.'
>>> render("game_ended", {"variant": "time_up", "reason": "time_up", "winner": "Anna"})
'Time is up: the game is over. Winner: Anna.'
>>> render("no_such_key", {"x": 1})
'no_such_key {"x": 1}'
>>> [money(12000, "Rubin", language) for language in LANGUAGES]
['12,000 Rubin', '12\\xa0000 Rubin', '12.000 Rubin']
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass, field
from functools import lru_cache
from gettext import GNUTranslations
from importlib import resources
from importlib.abc import Traversable
from typing import TYPE_CHECKING, Any, Mapping

from companion.catalogue import LANGUAGES, domains, translations

if TYPE_CHECKING:
    from babel import Locale

__all__ = ["LANGUAGES", "has", "money", "number", "register_package", "Said", "render"]

SOURCE = "en"


PLAIN_BELOW = 1000
"""Below this, each language of the catalogues writes a whole number in plain digits (a test holds
Babel to it), so Babel and its locale data (some 30 ms) are first loaded for a larger number: the
start screen is drawn without them."""

GROUPS = {"en": ",", "de": ".", "hu": "\u00a0"}
"""How each language of the catalogues groups the thousands of a whole number, as CLDR says (a test
holds Babel to it): the table's first frame, full of amounts, is drawn without loading Babel."""


@lru_cache(maxsize=None)
def _locale(language: str) -> Locale:
    from babel import Locale

    try:
        return Locale.parse(language)
    except (ValueError, LookupError):
        return Locale.parse(SOURCE)


@lru_cache(maxsize=8192)
def number(n: int, language: str = "en") -> str:
    """A whole number as the language writes it (CLDR, through Babel).

    >>> [number(12000, language) for language in LANGUAGES]
    ['12,000', '12\\xa0000', '12.000']
    >>> number(-300, "de"), number(950, "hu")
    ('-300', '950')
    """
    if -PLAIN_BELOW < n < PLAIN_BELOW and language in LANGUAGES:
        return str(n)
    if language in GROUPS:
        return f"{n:,}".replace(",", GROUPS[language])
    from babel.numbers import format_decimal

    return format_decimal(n, locale=_locale(language))


def money(amount: int, currency: str, language: str = "en", signed: bool = False) -> str:
    """An amount of the game's money, the number as the language writes it, then the currency.

    >>> money(1900, "Rubin", "en"), money(1900, "DM", "de"), money(67950, "DM", "hu")
    ('1,900 Rubin', '1.900 DM', '67\\xa0950 DM')
    >>> money(300, "DM", "de", signed=True), money(-1500, "DM", "en", signed=True)
    ('+300 DM', '-1,500 DM')
    """
    shown = number(amount, language)
    if signed and amount > 0:
        shown = "+" + shown
    return f"{shown} {currency}" if currency else shown


@dataclass(frozen=True, slots=True)
class Said:
    """Something said: a message key and its parameters, said in any language by :func:`render`.

    Every sentence of the game is one: an event (:data:`companion.events.Event`), the sentence a
    refusal or a setup error holds, the hardware's. A parameter may itself be one, said in the
    language of the sentence that holds it.

    >>> register_package("companion.rulesets.boerse", "DM")
    >>> card = Said("boerse.card.K05", {"amount": 1000})
    >>> Said("boerse.card_drawn", {"player": "Anna", "text": card}).text("de")
    'Anna zieht eine Risikokarte: „Lottogewinn: Die Bank zahlt Ihnen 1.000 DM.“'
    >>> Said("not_your_turn", {"player": "Béla"}).to_json()
    {'key': 'not_your_turn', 'params': {'player': 'Béla'}, 'text': "It is not Béla's turn."}
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        return render(self.key, self.params, language)

    def message(self, language: str = "en") -> str:
        """The same as :meth:`text`: a sentence stands where a refusal may (the app's last sentence)."""
        return self.text(language)

    def plain(self) -> dict[str, Any]:
        """The key and the parameters as JSON values (a sentence in the parameters as its key and parameters)."""
        return {"key": self.key, "params": {k: _plain(v) for k, v in self.params.items()}}

    def to_json(self) -> dict[str, Any]:
        return {**self.plain(), "text": self.text()}


def _plain(value: Any) -> Any:
    """A parameter as a JSON value: a sentence as its key and parameters, a tuple as a list."""
    if isinstance(value, Said):
        return value.plain()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(eq=False)
class _Domain:
    """The texts of one package: a gettext domain."""

    name: str
    currency: str
    folder: Traversable
    _loaded: dict[str, GNUTranslations | None] = field(default_factory=dict)

    def _catalogue(self, language: str) -> GNUTranslations | None:
        if language not in self._loaded:
            self._loaded[language] = translations(self.folder, self.name, language)
        return self._loaded[language]

    def text(self, key: str, language: str, count: int | None) -> str | None:
        """The text of ``key`` in ``language`` itself (no fallback), or None."""
        catalogue = self._catalogue(language)
        if catalogue is None:
            return None
        # plural forms first: gettext() alone would give a plural message's singular
        found = catalogue.ngettext(key, key, 2 if count is None else count)
        if found == key:
            found = catalogue.gettext(key)
        return None if found == key or not found else found


_domains: list[_Domain] = []
"""The registered domains, the core first; a later one's text wins for a key both hold."""
_packages: set[str] = set()
_where: dict[str, _Domain | None] = {}
"""Which domain holds each key, found once."""
_found: dict[tuple[str, str, int | None], tuple[str, str, _Domain] | None] = {}
"""Each text :func:`_template` found, by key, language and count (emptied when it holds :data:`FOUND_MOST`)."""
FOUND_MOST = 8192


def register_package(package: str, currency: str = "") -> None:
    """Add the texts of a package (a ruleset's folder): its ``.po`` files.

    Cheap after the first call for a package, so every new game may call it.
    """
    if package in _packages:
        return
    folder = resources.files(package)
    for name in domains(folder):
        _domains.append(_Domain(name, currency, folder))
    _packages.add(package)
    _where.clear()
    _found.clear()


register_package("companion")


def _domain(key: str) -> _Domain | None:
    if key not in _where:
        _where[key] = next((d for d in reversed(_domains) if d.text(key, SOURCE, None) is not None), None)
    return _where[key]


def has(key: str, language: str) -> bool:
    """Whether the catalogues translate ``key`` into ``language`` (without falling back to English).

    >>> has("game_over", "hu"), has("no_such_key", "en")
    (True, False)
    """
    domain = _domain(key)
    return domain is not None and domain.text(key, language, None) is not None


def _template(key: str, language: str, count: int | None) -> tuple[str, str, _Domain] | None:
    """The text of ``key``, the language it is in, and its domain; looked up in the catalogues once
    (two gettext lookups a language; a redraw of the table screen renders some forty messages)."""
    asked = key, language, count
    if asked in _found:
        return _found[asked]
    if len(_found) >= FOUND_MOST:
        _found.clear()
    domain = _domain(key)
    found: tuple[str, str, _Domain] | None = None
    for tried in (language, SOURCE):
        text = None if domain is None else domain.text(key, tried, count)
        if domain is not None and text is not None:
            found = text, tried, domain
            break
    _found[asked] = found
    return found


def render(key: str, params: Mapping[str, Any] | None = None, language: str = "en") -> str:
    """The message ``key`` with ``params`` in ``language``."""
    params = params or {}
    count = params.get("count")
    if not isinstance(count, int) or isinstance(count, bool):
        count = None
    found = None
    if "variant" in params:
        found = _template(f"{key}.{params['variant']}", language, count)
    found = found or _template(key, language, count)
    if found is None:
        return f"{key} {json.dumps(dict(params), ensure_ascii=False)}"
    text, language, domain = found
    currency = params.get("currency")
    return _fill(text, params, language, currency if isinstance(currency, str) else domain.currency)


@lru_cache(maxsize=4096)
def _fields(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    return tuple(string.Formatter().parse(template))


def _fill(template: str, params: Mapping[str, Any], language: str, currency: str) -> str:
    out: list[str] = []
    for literal, name, spec, conversion in _fields(template):
        out.append(literal)
        if name is None:
            continue
        if name not in params:
            out.append("{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
            continue
        out.append(_shown(params[name], spec or "", conversion, language, currency))
    return "".join(out)


_SPECS = ("money", "+money", "number")
"""The format specs of the catalogues; any other is Python's own."""


def _shown(value: Any, spec: str, conversion: str | None, language: str, currency: str) -> str:
    if type(value) is str and not spec and conversion is None:  # the most common: a name
        return value
    if isinstance(value, int) and not isinstance(value, bool) and conversion is None:
        if spec in ("money", "+money"):
            return money(value, currency, language, signed=spec == "+money")
        if spec in ("", "number"):
            return number(value, language)
    if isinstance(value, Said):
        return value.text(language)
    if isinstance(value, tuple):  # a list of names or sentences, said one after another
        return ", ".join(_shown(v, spec, conversion, language, currency) for v in value)
    if isinstance(value, dict):
        if SOURCE in value:  # a text the data gives in several languages
            return str(value.get(language) or value[SOURCE])
    if conversion == "r":
        value = repr(value)
    return format(value, "" if spec in _SPECS else spec)

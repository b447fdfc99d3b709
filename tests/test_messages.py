"""The catalogues: every text in English, Hungarian and German, plural forms, numbers and money as each
language writes them, the compiled catalogues built at first use and never kept in git."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from companion import catalogue as cat
from companion import messages
from companion.game import Game
from companion.messages import LANGUAGES, Said, money, number, render
from tests.catalogue_support import (ROOT, catalogue, domains, fields, forms, messages as po_messages, third_game,
                                     untranslated)

DOMAINS = sorted(domains())
TRANSLATED = [language for language in LANGUAGES if language != "en"]


def test_every_package_with_texts_has_one_domain_in_each_language():
    """The core's, the adapters' and one for each game's folder (companion/rulesets/<name>, examples/<name>),
    named as the folder: a new game needs no edit here."""
    games = {rules.parent.name for rules in [*(ROOT / "companion" / "rulesets").glob("*/rules.py"),
                                             *(ROOT / "examples").glob("*/rules.py")]}
    assert {"boerse", "tozsde", "coin"} <= games
    assert DOMAINS == sorted({"companion", "hardware", "phones", "ui"} | games)
    for domain, folder in domains().items():
        for language in LANGUAGES:
            assert (folder / "locale" / language / "LC_MESSAGES" / f"{domain}.po").is_file(), (domain, language)
        assert not (folder / "messages.json").exists(), f"{domain}: the JSON catalogue is converted; the .po is the source"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(domain, language):
    """A message missing, empty or fuzzy in Hungarian or German fails here, by name (the rule books' texts too:
    they are in each ruleset's domain)."""
    english, own = po_messages(domain, "en"), po_messages(domain, language)
    assert english
    assert untranslated(english, own) == {"missing": [], "empty": [], "fuzzy": [], "unknown": []}, f"{domain} {language}"
    for key, message in english.items():
        assert all(forms(message)) and not message.fuzzy, (domain, key)
        assert isinstance(message.id, str) == isinstance(own[key].id, str), f"{key}: plural in one language only"


@pytest.mark.parametrize("domain", DOMAINS)
def test_fields_are_the_same_in_every_language_and_form(domain):
    """``{player}``, ``{amount:money}`` … appear in all three languages, in each plural form."""
    english = po_messages(domain, "en")
    for language in LANGUAGES:
        for key, message in po_messages(domain, language).items():
            wanted = set().union(*(fields(text) for text in forms(english[key])))
            for text in forms(message):
                assert fields(text) == wanted, (domain, language, key, text)
            if not isinstance(message.id, str):
                assert all("{count}" in text for text in forms(message)), (domain, language, key)


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_currency_inside_a_text(domain):
    """The currency comes from the ruleset through ``{…:money}``; no text names it or a bare amount of it."""
    for language in LANGUAGES:
        for key, message in po_messages(domain, language).items():
            for text in forms(message):
                assert "Rubin" not in text and "DM" not in text, (language, key, text)


def test_plural_forms_of_each_language():
    """gettext's and CLDR's rule for all three: one form for exactly 1, another for every other number.

    Hungarian: CLDR has "one" and "other"; gettext's table and Babel give ``nplurals=2; plural=(n != 1);``.
    A Hungarian noun after a number stays singular ("2 részvény"), so both forms often read alike, but a
    translator may still phrase the one case apart.
    """
    for domain in DOMAINS:
        for language in LANGUAGES:
            assert catalogue(domain, language).plural_forms == "nplurals=2; plural=(n != 1);", (domain, language)
    Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    params = {"player": "Anna", "company": "7", "amount": 600}
    said = {(language, n): render("tozsde.bought", {**params, "count": n}, language)
            for language in LANGUAGES for n in (0, 1, 2, 5)}
    assert said["en", 1] == "Anna bought 1 share of company 7 for 600 Rubin."
    assert said["en", 0] == "Anna bought 0 shares of company 7 for 600 Rubin."
    assert said["en", 5] == "Anna bought 5 shares of company 7 for 600 Rubin."
    assert said["de", 1] == "Anna kauft 1 Aktie von Firma 7 für 600 Rubin."
    assert said["de", 2] == "Anna kauft 2 Aktien von Firma 7 für 600 Rubin."
    assert said["hu", 1] == "Anna 1 részvényt vett a(z) 7. cégből 600 Rubinért."
    assert said["hu", 2] == "Anna 2 részvényt vett a(z) 7. cégből 600 Rubinért."
    # no message key is made for the one case any more
    assert render("tozsde.bought_one", {}).startswith("tozsde.bought_one ")


@pytest.mark.parametrize(
    "n, en, hu, de",
    [
        (0, "0", "0", "0"),
        (950, "950", "950", "950"),
        (1900, "1,900", "1\u00a0900", "1.900"),
        (12000, "12,000", "12\u00a0000", "12.000"),
        (67950, "67,950", "67\u00a0950", "67.950"),
        (1000000, "1,000,000", "1\u00a0000\u00a0000", "1.000.000"),
        (-1500, "-1,500", "-1\u00a0500", "-1.500"),
    ],
)
def test_numbers_as_each_language_writes_them(n, en, hu, de):
    """CLDR through Babel: a comma in English, a no-break space in Hungarian, a dot in German, from 4 digits."""
    assert (number(n, "en"), number(n, "hu"), number(n, "de")) == (en, hu, de)


def test_below_a_thousand_every_language_writes_plain_digits_as_babel_does():
    """The numbers the app writes without loading Babel are the ones Babel itself writes so."""
    from babel.numbers import format_decimal

    from companion.messages import PLAIN_BELOW

    for language in ("en", "hu", "de"):
        for n in range(-PLAIN_BELOW - 2, PLAIN_BELOW + 2):
            assert number(n, language) == format_decimal(n, locale=language), (n, language)


def test_thousands_are_grouped_as_babel_groups_them_in_every_language_of_the_catalogues():
    """The grouping the app writes without loading Babel is the one Babel (CLDR) writes."""
    import random

    from babel.numbers import format_decimal

    from companion.messages import GROUPS, LANGUAGES

    assert set(GROUPS) == set(LANGUAGES)
    picked = random.Random(5)
    numbers = [10**k + d for k in range(3, 10) for d in (-1, 0, 1)] + [picked.randrange(10**9) for _ in range(300)]
    for language in LANGUAGES:
        for n in numbers + [-n for n in numbers]:
            assert number(n, language) == format_decimal(n, locale=language), (n, language)


def test_money_is_the_number_then_the_currency():
    assert money(1900, "Rubin", "en") == "1,900 Rubin"
    assert money(12000, "Rubin", "hu") == "12\u00a0000 Rubin"
    assert money(67950, "DM", "de") == "67.950 DM"
    assert money(300, "DM", "en", signed=True) == "+300 DM"
    assert money(-2000, "DM", "de", signed=True) == "-2.000 DM"
    assert money(500, "", "en") == "500"
    assert number(1900, "fr-not-a-language") == "1,900"  # an unknown language writes numbers as English does


def test_amounts_in_the_log_take_the_ruleset_currency_and_the_language():
    Game({"ruleset": "tozsde", "players": ["Anna", "Béla"]})
    Game({"ruleset": "boerse", "players": ["Anna", "Béla"]})
    rent = {"payer": "Anna", "payee": "Béla", "amount": 1500, "count": 5, "company": "9"}
    assert render("tozsde.rent_paid", rent) == "Anna paid Béla 1,500 Rubin rent for 5 shares of company 9."
    assert render("tozsde.rent_paid", rent, "hu") == (
        "Anna 1\u00a0500 Rubint fizetett Béla játékosnak a(z) 9. cég 5 részvénye után.")
    assert render("tozsde.rent_paid", rent, "de") == "Anna zahlt Béla 1.500 Rubin Miete für 5 Aktien von Firma 9."
    paid = {"player": "Anna", "amount": 4500, "count": 3, "company": "Stahl"}
    assert render("boerse.takeover_paid", paid, "de") == "Anna gibt 3 Aktien Stahl ab und erhält 4.500 DM."
    assert render("boerse.card_package", {"player": "Anna", "company": "Bau", "amount": -1000}, "en") == (
        "Anna's risk card: Bau -1,000 DM.")
    # a core message may name the currency in a parameter
    assert messages._fill("{x:money}", {"x": 2500, "currency": "DM"}, "hu", "DM") == "2\u00a0500 DM"


def test_card_and_event_space_texts_come_from_the_catalogue():
    deck = json.loads(resources.files("companion.rulesets.boerse").joinpath("deck.json").read_text(encoding="utf-8"))
    track = json.loads(resources.files("companion.rulesets.boerse").joinpath("track.json").read_text(encoding="utf-8"))
    english = po_messages("boerse", "en")
    assert all("text" not in card and "boerse.card." + card["id"] in english for card in deck["cards"])
    events = [space for space in track["spaces"] if space["kind"] == "event"]
    assert events and all("name" not in space and "boerse.space." + space["id"] in english for space in events)
    Game({"ruleset": "boerse", "players": ["Anna", "Béla"]})
    k15 = Said("boerse.card.K15", {"company": "Stahl", "amount": 300})
    assert render("boerse.card_drawn", {"player": "Anna", "text": k15}, "de") == (
        "Anna zieht eine Risikokarte: „Auslandsaufträge für Stahl: Stahl steigt um 300 DM.“")
    assert render("boerse.card_drawn", {"player": "Anna", "text": k15}, "hu") == (
        "Anna kockázati kártyát húz: „Külföldi acélrendelések: a(z) Stahl árfolyama 300 DM-mel emelkedik.”")
    # a group's own track may give an event space's name in several languages
    own = {"en": "Boom", "de": "Aufschwung"}
    assert render("boerse.event_space", {"text": own}, "de") == "Ereignis für alle Spieler: Aufschwung."
    assert render("boerse.event_space", {"text": own}, "hu") == "Esemény minden játékosnak: Boom."


def test_fallbacks():
    # an unknown language falls back to English, an unknown key shows the key and its parameters
    assert render("game_over", {}, "fr") == "The game is over."
    assert render("no_such_key", {"x": 1}) == 'no_such_key {"x": 1}'
    # a missing parameter leaves its field, spec and all
    assert render("not_your_turn", {}, "en") == "It is not {player}'s turn."
    assert messages.has("game_over", "hu") and not messages.has("game_over", "fr")


def test_a_message_missing_in_one_language_falls_back_to_english(tmp_path, monkeypatch):
    third_game(tmp_path, monkeypatch, {"en": {"t.only_english": "Only {n:money}."}})
    messages.register_package("coingame", "coins")
    assert render("t.only_english", {"n": 1200}, "de") == "Only 1,200 coins."  # English text, English number
    assert not messages.has("t.only_english", "de")


# -- compiled catalogues ----------------------------------------------------------------------
def test_no_compiled_catalogue_is_kept_in_git():
    assert "*.mo" in (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    if shutil.which("git") and (ROOT / ".git").exists():
        tracked = subprocess.run(["git", "ls-files", "*.mo", "**/*.mo"], cwd=ROOT, capture_output=True, text=True)
        assert tracked.returncode == 0 and tracked.stdout == ""


def test_catalogues_are_compiled_at_first_use_into_the_cache(tmp_path):
    """From a clean checkout (no .mo anywhere) the first render compiles; the next start reads the cache."""
    env = {**os.environ, "COMPANION_CACHE": str(tmp_path)}
    code = ("from companion.game import Game; from companion.messages import render; "
            "Game({'ruleset': 'tozsde', 'players': ['A', 'B']}); print(render('tozsde.tax_paid', "
            "{'player': 'Anna', 'amount': 2400}, 'hu')); print(render('game_over', {}, 'hu'))")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == "Anna 2\u00a0400 Rubin adót fizetett.\nA játék véget ért.\n"
    compiled = sorted(p.name.rsplit("-", 1)[0] for p in (tmp_path / "mo").iterdir())
    assert compiled == ["companion-en", "companion-hu", "tozsde-en", "tozsde-hu"]
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "mo").iterdir()}
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert again.stdout == first.stdout
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "mo").iterdir()} == stamps


def _package(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "pkg"
    po = folder / "locale" / "de" / "LC_MESSAGES" / "x.po"
    po.parent.mkdir(parents=True)
    po.write_text(f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n"Plural-Forms: nplurals=2; '
                  f'plural=(n != 1);\\n"\n\nmsgid "x.hello"\nmsgstr "{text}"\n', encoding="utf-8")
    return folder


def test_a_changed_po_is_compiled_again_and_an_old_mo_beside_it_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    folder = _package(tmp_path, "Hallo")
    assert cat.translations(folder, "x", "de").gettext("x.hello") == "Hallo"  # type: ignore[union-attr]
    assert cat.compile_package(folder) == [folder / "locale" / "de" / "LC_MESSAGES" / "x.mo"]
    _package(tmp_path / "new", "Servus")
    shutil.copy(tmp_path / "new" / "pkg" / "locale" / "de" / "LC_MESSAGES" / "x.po", folder / "locale/de/LC_MESSAGES/x.po")
    assert cat.translations(folder, "x", "de").gettext("x.hello") == "Servus"  # type: ignore[union-attr]
    assert len(list((tmp_path / "cache" / "mo").glob("x-de-*.mo"))) == 1  # the stale one is gone
    # a damaged file in the cache is compiled again
    for f in (tmp_path / "cache" / "mo").iterdir():
        f.write_bytes(b"not a catalogue")
    assert cat.translations(folder, "x", "de").gettext("x.hello") == "Servus"  # type: ignore[union-attr]


def test_the_mo_built_by_the_install_is_used_and_a_cache_that_cannot_be_written_is_no_problem(tmp_path, monkeypatch):
    folder = _package(tmp_path, "Hallo")
    cat.compile_package(folder)
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("COMPANION_CACHE", str(blocked))  # not a folder: nothing can be written there
    assert cat.translations(folder, "x", "de").gettext("x.hello") == "Hallo"  # type: ignore[union-attr]
    (folder / "locale" / "de" / "LC_MESSAGES" / "x.mo").unlink()
    assert cat.translations(folder, "x", "de").gettext("x.hello") == "Hallo"  # type: ignore[union-attr]
    assert cat.translations(folder, "x", "hu") is None


def test_the_build_step_compiles_each_catalogue_beside_its_po(tmp_path):
    """The wheel's build step (setup.py's build_py): a .mo beside every .po, made from that very .po."""
    source = tmp_path / "src"
    for package in ("companion", "hardware", "ui", "phones"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "-d", str(tmp_path / "lib")], cwd=source,
                   check=True, capture_output=True)
    built = tmp_path / "lib" / "companion"
    sources = sorted((tmp_path / "lib").glob("**/locale/*/LC_MESSAGES/*.po"))
    assert len(sources) == 3 * len([d for d, folder in domains().items() if "examples" not in folder.parts])
    for po in sources:
        compiled = cat._parse(po.with_suffix(".mo").read_bytes())
        assert compiled is not None and compiled.gettext(cat.SOURCE_HASH) == cat.source_hash(po.read_bytes())
    domain = built / "rulesets" / "tozsde"
    assert cat.translations(domain, "tozsde", "de").gettext("tozsde.time_up") == "Die Zeit ist um."  # type: ignore[union-attr]


# -- a third game ------------------------------------------------------------------------------
def test_a_third_game_may_bring_its_own_po(tmp_path, monkeypatch):
    """A ruleset folder with ``locale/…/<name>.po`` gets its own domain, with no edit of the core."""
    third_game(tmp_path, monkeypatch)
    messages.register_package("coingame", "coins")
    won = {"player": "Anna", "value": 4, "amount": 1100}
    assert render("coin_won", won) == "Anna rolled 4 and won 1,100 coins."
    assert render("coin_won", won, "de") == "Anna würfelte 4 und gewann 1.100 coins."
    assert render("coin_broke", {"player": "Anna"}, "hu") == "Anna nem tud fizetni, és kiesik."

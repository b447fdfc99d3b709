"""Each ruleset's rulebook index: every field kind and house default is in it, every entry cites a § or ruling,
and every entry's title and text are in the ruleset's catalogue in each language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion import registry
from companion.messages import LANGUAGES
from companion.rulebook import EntryKind, entry, missing_texts, rulebook
from tests.catalogue_support import messages as po_messages, third_game, untranslated

CITE = re.compile(r"^(§\d+(\.\d+)?|[TBC]\d+)$")


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_every_entry_cites_a_paragraph_or_ruling(ruleset: str) -> None:
    for e in rulebook(ruleset):
        parts = [p.strip() for chunk in e.cite.split("·") for p in chunk.split(",")]
        assert parts and all(CITE.match(p) for p in parts), (e.key, e.cite)
        if ruleset == "boerse":
            assert not any(p.startswith(("§", "T")) for p in parts), e.key  # Die Börse's book has no § numbers here


def test_tozsde_lists_every_field_kind_of_the_board() -> None:
    kinds = registry.ruleset_class("tozsde").read_json("ruleset.json")["board"]["kinds"]
    fields = {e.key for e in rulebook("tozsde") if e.kind == EntryKind.FIELD}
    assert fields == set(kinds)


def test_boerse_lists_every_space_kind_and_house_default() -> None:
    track = registry.ruleset_class("boerse").read_json("track.json")
    kinds = {space["kind"] for space in track["spaces"]}
    book = rulebook("boerse")
    assert {e.key for e in book if e.kind == EntryKind.FIELD} == kinds
    house = registry.ruleset_class("boerse").read_json("ruleset.json")["house_defaults"]
    assert {e.key for e in book if e.house_default} == set(house)


def test_house_defaults_of_tozsde_are_marked() -> None:
    house = registry.ruleset_class("tozsde").read_json("ruleset.json")["house_defaults"]
    marked = {e.key for e in rulebook("tozsde") if e.house_default}
    assert set(house) <= marked


@pytest.mark.parametrize("ruleset", sorted(registry.available()))
def test_every_entry_has_its_title_and_text_in_every_language(ruleset: str) -> None:
    """The catalogue holds each entry's two texts in en, hu and de, and no text of an entry that is gone."""
    assert missing_texts(ruleset) == []
    book = rulebook(ruleset)
    wanted = {key for e in book for key in (e.title_key, e.text_key)}
    assert {key for key in po_messages(ruleset, "en") if ".rulebook." in key} == wanted
    for e in book:
        for language in LANGUAGES:
            assert e.title_in(language) and e.text_in(language), (e.key, language)
            assert "{" not in e.title_in(language) + e.text_in(language), (e.key, language)  # every field filled


def test_the_currency_in_a_rule_book_text_is_the_rulesets() -> None:
    """§7.1: the rent is 300 Rubin a share; a Hungarian case ending follows the currency."""
    company = next(e for e in rulebook("tozsde") if e.key == "company")
    assert company.text_in("de").startswith("Jedem anderen Besitzer der Firma 300 Rubin je Aktie zahlen;")
    assert "részvényenként 300 Rubint fizet" in company.text_in("hu")
    players = next(e for e in rulebook("boerse") if e.key == "players")
    assert players.text_in("hu").startswith("2–4 játékos, mindegyik 700 DM-mel;")


def test_amounts_in_a_rule_book_text_are_written_as_each_language_writes_numbers() -> None:
    """B5: credit in steps of 500 up to 2000; T9: a stake of 500 to 1000 — 2,000 / 2.000 / 2 000."""
    credit = next(e for e in rulebook("boerse") if e.key == "credit")
    assert credit.text_in("en").startswith("In steps of 500 up to 2,000;")
    assert credit.text_in("de").startswith("In Schritten von 500 bis 2.000;")
    assert credit.text_in("hu").startswith("500-as lépésekben 2\u00a0000-ig;")
    casino = next(e for e in rulebook("tozsde") if e.key == "casino")
    assert "500–1.000 Rubin" in casino.text_in("de") and "500–1,000 Rubin" in casino.text_in("en")
    for ruleset in ("tozsde", "boerse"):  # no amount of four digits is left written by hand
        for e in rulebook(ruleset):
            for language in LANGUAGES:
                assert not re.search(r"\d{4}", e.text_in(language)), (ruleset, e.key, language)


def test_an_entry_with_numbers_that_are_not_whole_is_refused_by_name() -> None:
    raw = {"kind": "rule", "key": "x", "cite": "T1", "house_default": False, "numbers": {"top": "1500"}}
    with pytest.raises(ValueError, match="'x': numbers are names with whole numbers"):
        entry(raw, "tozsde")


def test_an_entry_with_its_texts_inline_or_twice_is_refused_by_name() -> None:
    raw = {"kind": "rule", "key": "x", "cite": "T1", "house_default": False, "title": {"en": "X"}}
    with pytest.raises(ValueError, match=r"'x': unknown title \(the texts belong in the ruleset's catalogue"):
        entry(raw, "tozsde")
    with pytest.raises(ValueError, match="'x': key and cite are text"):
        entry({**{k: v for k, v in raw.items() if k != "title"}, "cite": ""}, "tozsde")


def test_a_third_game_brings_its_rule_book_and_a_missing_text_is_caught(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset folder with ``rulebook.json`` and the texts in its own ``.po`` needs no edit of the core;
    a text missing in Hungarian, or an entry with no text at all, is named."""
    said = {"en": ("Even roll", "The bank pays 100 {currency}.", "The bank", "It may go broke."),
            "hu": ("Páros dobás", "A bank 100 {currency} összeget fizet.", "A bank", ""),
            "de": ("Gerader Wurf", "Die Bank zahlt 100 {currency}.", "Die Bank", "Sie kann pleitegehen.")}
    keys = ("coin.rulebook.even.title", "coin.rulebook.even.text", "coin.rulebook.bank.title", "coin.rulebook.bank.text")
    game = third_game(tmp_path, monkeypatch, {language: {key: text for key, text in zip(keys, said[language]) if text}
                                              for language in LANGUAGES})
    entries = [{"kind": "field", "key": "even", "cite": "C1", "house_default": False},
               {"kind": "rule", "key": "bank", "cite": "C2", "house_default": True},
               {"kind": "rule", "key": "rounds", "cite": "C3", "house_default": False}]
    (game / "rulebook.json").write_text(json.dumps({"entries": entries}), encoding="utf-8")
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    from coingame.rules import Rules

    registry.register("coin", Rules)
    shown = {e.key: (e.title_in("hu"), e.text_in("hu"), e.house_default) for e in rulebook("coin")}
    assert shown["even"] == ("Páros dobás", "A bank 100 Taler összeget fizet.", False)
    assert shown["bank"] == ("A bank", "It may go broke.", True)  # untranslated: English, and named below
    assert missing_texts("coin") == [("coin.rulebook.bank.text", "hu"), ("coin.rulebook.rounds.title", "en"),
                                     ("coin.rulebook.rounds.title", "hu"), ("coin.rulebook.rounds.title", "de"),
                                     ("coin.rulebook.rounds.text", "en"), ("coin.rulebook.rounds.text", "hu"),
                                     ("coin.rulebook.rounds.text", "de")]
    # the catalogue test over the .po files names the Hungarian gap the same way it does for the core's texts
    gaps = untranslated(po_messages("coingame", "en", game), po_messages("coingame", "hu", game))
    assert "coin.rulebook.bank.text" in gaps["empty"]

"""Words a table reads in the game choice, the settings and the board's key (issue 15)."""

from __future__ import annotations

import json
import re
from importlib import resources

from companion.catalogue import LANGUAGES
from tests.catalogue_support import forms, messages

GAMES = ("tozsde", "boerse")


def title(game: str, language: str) -> str:
    raw = json.loads(resources.files(f"companion.rulesets.{game}").joinpath("ruleset.json").read_text("utf-8"))["title"]
    return str(raw.get(language) or raw["en"]) if isinstance(raw, dict) else str(raw)


def words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\w+", text)}


def test_the_game_choice_names_the_games_apart_in_every_language() -> None:
    """German once offered "Tőzsde (Börse)" beside "Die Börse": two games, one word."""
    for language in LANGUAGES:
        first, second = (words(title(g, language)) for g in GAMES)
        assert not first & second, (language, title(GAMES[0], language), title(GAMES[1], language))


def test_the_hungarian_board_key_is_in_hungarian() -> None:
    """The Hungarian rule book names the fields üdülőhely, kaszinó, tőzsde, osztalék-fizetőhely, adóhivatal;
    the board's English words (Casino, Change, Premium, Tax) do not belong in its key or its marks."""
    hu = messages("tozsde", "hu")
    english = {"casino", "change", "premium", "tax"}
    keyed = {k: forms(m)[0] for k, m in hu.items() if k.startswith(("tozsde.board.kind.", "tozsde.board.mark.",
                                                                    "tozsde.rulebook.")) and k.endswith(
        tuple(f".{kind}" for kind in ("resort", "casino", "change", "premium", "tax", "start")) + (".title",))}
    assert keyed and not {k: t for k, t in keyed.items() if words(t) & english}


def test_the_electronic_die_is_none_in_german_grammar() -> None:
    """„der Würfel“: „Elektronischer Würfel: keiner“; the buttons (die Tasten) have their own „keine“."""
    de = messages("ui", "de")
    assert forms(de["ui.value.none_device"]) == ["keiner"] and forms(de["ui.value.none"]) == ["keine"] and forms(de["ui.settings.buttons_none"]) == ["keine"]


def test_no_sentence_mixes_the_boards_english_field_names_into_hungarian_or_german() -> None:
    """Issue 24, item 4: "tőzsde (Change) mezőre lépett" mixed the printed board's English word into the
    Hungarian sentence (and German said "Steueramt (Tax)"); every text of Tőzsde in Hungarian and German
    names the fields in its own language only, the German key too (item 13)."""
    english = {"change", "premium", "tax"}
    mixed = {(language, key): text for language in ("hu", "de")
             for key, message in messages("tozsde", language).items() for text in forms(message)
             if words(text) & english or re.search(r"\((Casino|Change|Premium|Tax)\)", text)}
    assert not mixed, mixed
    de = messages("tozsde", "de")
    key = {kind: forms(de[f"tozsde.board.kind.{kind}"])[0] for kind in ("resort", "casino", "change", "premium", "tax", "start")}
    assert not {k: t for k, t in key.items() if words(t) & english}, key

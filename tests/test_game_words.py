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


ROUND = {"ui": ("ui.table.round", "ui.end.reason.rounds"), "companion": ("game_ended.rounds", "round_started"),
         "boerse": ("boerse.boersenschluss", "boerse.card.BS", "boerse.rulebook.boersenschluss.text",
                    "boerse.table.rounds_left"),
         "tozsde": ("tozsde.rulebook.timed_rounds.text", "tozsde.option.timed_rounds")}
"""Texts that speak of a round (every player's turn once: the header's number, the timed game, Börsenschluss)."""

TURN = {"ui": ("ui.button.end_turn",), "companion": ("turn_ended", "choice.end_turn"),
        "boerse": ("boerse.already_rolled", "boerse.one_way_per_turn"),
        "tozsde": ("tozsde.already_rolled", "tozsde.limit_reached")}
"""Texts that speak of one player's turn."""

WORDS = {"de": ("runde", "zug"), "hu": ("forduló", "kör"), "en": ("round", "turn")}
"""The word for a round and for a turn in each language, as a word's start (Hungarian adds endings)."""


def said(domain: str, language: str, keys: tuple[str, ...]) -> dict[str, set[str]]:
    found = messages(domain, language)
    return {key: words(re.sub(r"\{[^}]*\}", "", " ".join(forms(found[key])))) for key in keys}  # no placeholders


def test_a_round_and_a_turn_are_two_words_in_every_language() -> None:
    """The Hungarian table read "4. kör" (round 4) over "Dóra befejezte a körét" (her turn), and "még 2 kört
    játszanak" for the rounds after Börsenschluss "körének végétől" (from the end of her turn): a round is
    "forduló", a turn "kör", and the button that ends the turn says "Kör vége" (not "Lépés", which counts
    the game's actions)."""
    wrong = []
    for language, (round_word, turn_word) in WORDS.items():
        for domain in ROUND:
            for key, seen in said(domain, language, ROUND[domain]).items():
                if not any(w.startswith(round_word) for w in seen) or (
                        key != "boerse.boersenschluss" and any(w.startswith(turn_word) for w in seen)):
                    wrong.append((language, key, seen))
            for key, seen in said(domain, language, TURN[domain]).items():
                if not any(w.startswith(turn_word) for w in seen) or any(w.startswith(round_word) for w in seen):
                    wrong.append((language, key, seen))
    assert not wrong, wrong


PAST = {"zahlte", "kaufte", "verkaufte", "konnte", "haben"}
"""German past forms (and the perfect's "haben … erhalten"): the table reads what happens as it happens
("würfelt", "zieht", "erhält")."""


def test_german_sentences_of_a_turn_say_it_in_one_tense() -> None:
    """Issue 24: "Anna würfelt 1 und zieht auf ein Feld der Firma 6. Anna zahlte Béla 1.500 Rubin Miete": a
    turn's sentences in the present, as Die Börse's ("Béla kauft 1 Aktie Bau")."""
    found = {f"{domain}:{key}": " ".join(forms(message)) for domain in ("tozsde", "boerse")
             for key, message in messages(domain, "de").items() if words(" ".join(forms(message))) & PAST}
    assert not found, found


def test_hungarian_die_values_take_no_fixed_ending() -> None:
    """"Anna 4-t dobott": a number's ending follows its sound (1-et, 3-at, 4-et, 5-öt, 6-ot, only 2-t), so a
    roll is said as Tőzsde says it, "Anna dobása: 4", with no ending fixed after the value."""
    found = {f"{domain}:{key}": " ".join(forms(message)) for domain in ("tozsde", "boerse", "companion")
             for key, message in messages(domain, "hu").items() if re.search(r"\{value\}-\w", " ".join(forms(message)))}
    assert not found, found

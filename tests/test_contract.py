"""What every game must keep, whatever its rules: one contract, over every game found (tests/games_found.py).

A game's folder is its texts complete in Hungarian, German and English, its rule book present or left
out, its title, every choice said in words, every character it shows in the screen's font, bots that
finish a game, and a replay that gives the live state (C2). The app's table screen draws each one at
800×480 (tests/ui/test_contract_screen.py). A new folder under companion/rulesets/ (or a package's
entry point) is covered here without an edit of this file.
"""

from __future__ import annotations

import importlib
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion import bots, showcase
from companion.describe import describe
from companion.game import Game
from companion.messages import LANGUAGES, money, number, render
from companion.rulebook import missing_texts, rulebook
from companion.ruleset import Ruleset
from companion.table import Table
from tests.catalogue_support import domains, forms, messages as po_messages, untranslated
from tests.games_found import GAMES, use
from tests.test_glyphs import FONTS, undrawable

CORE_DOMAINS = ("companion", "hardware", "phones", "ui")
SEED = 7


@pytest.fixture(params=GAMES)
def rules(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> type[Ruleset]:
    return use(request.param, monkeypatch)


def folder(rules: type[Ruleset]) -> Path:
    return Path(str(resources.files(rules.package)))


def setup(rules: type[Ruleset], players: int | None = None) -> dict[str, Any]:
    count = players or min(3, rules.max_players)
    return {"ruleset": rules.name, "players": showcase.players(rules.name)[:count]}


def played(rules: type[Ruleset], seed: int = SEED) -> Iterator[Game]:
    """A bot game of ``rules``, the game yielded before every action and once at its end."""
    rng = random.Random(seed)
    game = Game(setup(rules))
    while not game.state.finished and len(game.actions) < 20_000:
        yield game
        game.apply(bots.choose(game, rng))
    yield game


def data(rules: type[Ruleset]) -> dict[str, Any]:
    found: dict[str, Any] = rules.read_json("ruleset.json")
    return found


# -- the folder ------------------------------------------------------------------------------------
def test_the_folder_is_named_as_its_rules(rules: type[Ruleset]) -> None:
    """The registry finds a game by its folder's name: a Python identifier, the ``name`` of its Rules."""
    assert rules.name.isidentifier() and folder(rules).name == rules.name
    assert rules.package.rpartition(".")[2] == rules.name
    assert (folder(rules) / "ruleset.json").is_file()
    assert 1 <= rules.min_players <= rules.max_players


def test_what_the_class_says_is_not_said_again_in_its_data(rules: type[Ruleset]) -> None:
    """``name``, ``currency`` and the players' numbers are the class's; ruleset.json holding them too
    would be a second place nothing reads."""
    assert not {"name", "currency", "players", "min_players", "max_players"} & set(data(rules))


def test_the_title_is_said_in_every_language(rules: type[Ruleset]) -> None:
    title = data(rules).get("title")
    assert isinstance(title, (str, dict)), f"{rules.name}: ruleset.json has no title (the buttons would show its folder's name)"
    if isinstance(title, dict):
        assert all(isinstance(title.get(language), str) and title[language] for language in LANGUAGES), title


# -- the texts ---------------------------------------------------------------------------------------
def test_its_texts_are_complete_in_every_language(rules: type[Ruleset]) -> None:
    """One catalogue named as the game, in each language; nothing missing, empty or fuzzy."""
    english = po_messages(rules.name, "en", folder(rules))
    assert english
    for language in LANGUAGES:
        own = po_messages(rules.name, language, folder(rules))
        assert untranslated(english, own) == {"missing": [], "empty": [], "fuzzy": [], "unknown": []}, language
        assert all(all(forms(message)) for message in own.values()), language


def test_its_keys_are_its_own(rules: type[Ruleset]) -> None:
    """Message keys are one name space over every catalogue (the one loaded later wins): a game's
    keys begin with its name, and none is a key of the core's or the app's catalogues."""
    keys = set(po_messages(rules.name, "en", folder(rules)))
    assert all(key.startswith((f"{rules.name}.", f"{rules.name}_")) for key in keys), sorted(
        k for k in keys if not k.startswith((f"{rules.name}.", f"{rules.name}_")))
    core = domains()
    for domain in CORE_DOMAINS:
        assert not keys & set(po_messages(domain, "en", core[domain])), domain


def test_its_options_and_setup_choices_have_labels(rules: type[Ruleset]) -> None:
    """The new-game screen shows each option and setup choice by its label (docs/adding-a-game.md)."""
    raw = data(rules)
    keys = [f"{rules.name}.option.{key}" for key in raw.get("options", {})]
    for key, values in raw.get("setup_choices", {}).items():
        keys += [f"{rules.name}.setup.{key}"] + [f"{rules.name}.setup.{key}.{value}" for value in values]
    if "seat_choice" in raw:  # its column's line above the names, and the chosen seat's word
        keys += [f"{rules.name}.setup.{raw['seat_choice']}{end}" for end in ("", ".hint", ".chosen")]
    for key, table in raw.get("option_tables", {}).items():  # a table option's columns (B9's dividend table)
        keys += [f"{rules.name}.option.{key}.{column}" for column in table["columns"]]
    english = po_messages(rules.name, "en", folder(rules))
    assert [key for key in keys if key not in english] == []


def test_its_rule_book_is_complete_or_left_out(rules: type[Ruleset]) -> None:
    """``rulebook.json`` is optional; where there is one, each entry has its title and text in every language."""
    book = rulebook(rules.name)
    assert bool(book) == (folder(rules) / "rulebook.json").is_file()
    assert missing_texts(rules.name) == []


class Shown:
    """The screen as a game's panels see it (companion.board_model.Shown), in one language."""

    def __init__(self, rules: type[Ruleset], lang: str) -> None:
        self.lang, self.currency = lang, rules.currency

    def t(self, lang: str, key: str, **params: Any) -> str:
        return render(key, params, lang)

    def money(self, amount: int | None) -> str:
        return "—" if amount is None else money(amount, self.currency, self.lang)

    def number(self, value: int) -> str:
        return number(value, self.lang)


def panel_texts(rules: type[Ruleset], game: Game, language: str) -> Iterator[str]:
    """Every text a game's own panels show for the game as it stands (its market lines, its board)."""
    try:
        panels: Any = importlib.import_module(f"{rules.package}.panels")
    except ModuleNotFoundError:
        return
    shown, view = Shown(rules, language), game.view()
    if hasattr(panels, "market_cell"):
        yield from (panels.market_cell(shown, company, view) for company in view["companies"])
    if hasattr(panels, "market_note"):
        yield panels.market_note(shown, view)
    if hasattr(panels, "board"):
        board = panels.board(shown, view)
        yield from (text for place in board.places for text in (place.mark, place.number))
        yield from (entry.name for entry in board.key or ())


def test_every_choice_is_said_in_words(rules: type[Ruleset]) -> None:
    """Along a whole bot game, every legal choice has a label in every language: never its raw message
    key, never an unfilled field; every value a label; an amount said once on its line."""
    for game in played(rules):
        for language in LANGUAGES:
            for d in describe(game, language):
                line = d.line()
                assert d.label.strip() and "{" not in d.label, (language, d.label)
                assert not d.label.startswith(("choice.", f"{rules.name}.")), (language, d.label)
                assert all(option.label.strip() for option in d.options), (language, d.label)
                if d.amount is not None:
                    assert line.count(money(d.amount, rules.currency, language)) <= 1, line


@pytest.mark.parametrize("font", FONTS)
def test_every_character_it_shows_is_in_the_font(rules: type[Ruleset], font: str) -> None:
    """Its catalogues, its data and what its panels draw (market lines, marks on its board, ▲ ▼ …)."""

    def texts() -> Iterator[str]:
        for language in LANGUAGES:
            yield from (text for message in po_messages(rules.name, language, folder(rules)).values()
                        for text in forms(message))
        yield json.dumps(data(rules), ensure_ascii=False)
        for step, game in enumerate(played(rules)):
            if step % 10 == 0 or game.state.finished:
                for language in LANGUAGES:
                    yield from panel_texts(rules, game, language)

    missing = undrawable(texts(), font)
    assert not missing, f"{font} lacks {', '.join(f'{c!r} (U+{ord(c):04X}) in {t!r}' for c, t in missing.items())}"


# -- playing ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_finish_a_game(rules: type[Ruleset], seed: int) -> None:
    for players in {rules.min_players, rules.max_players}:
        game = bots.play(setup(rules, players), random.Random(seed), max_actions=20_000)
        assert game.state.finished and game.rules.ranking(game.state), (players, len(game.actions))


def test_a_replay_gives_the_live_state(rules: type[Ruleset], tmp_path: Path) -> None:
    """C2: the journal's line, opened again or replayed from the setup, is the game as it was played."""
    path = tmp_path / "games.db"
    table = Table.new(setup(rules), path)
    rng = random.Random(SEED)
    while not table.state.finished:
        assert table.submit(bots.choose(table.game, rng)).accepted
    live, line = table.state.to_json(), table.actions()
    table.close()
    again = Table.open(path, readonly=True)
    assert again.state.to_json() == live
    again.close()
    replayed = Game(setup(rules))
    for action in line:
        replayed.apply(action)
    assert replayed.state.to_json() == live

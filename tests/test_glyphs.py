"""Every character the screen may draw is in the font it draws with (issue 15: "cash 100 ▯ 200 Rubin").

The app draws every label with Kivy's default font, Roboto (regular, and bold where a label is bold; no
other font is registered in ui/). Every text of every catalogue, in every language — the engine's, each
game's, the hardware's, the app's and the test game's — and every text of the games' data files must
be made of characters Roboto has, or the screen shows an empty box in their place.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.catalogue_support import ROOT, catalogue, forms, po_files
from tests.font_cmap import characters, kivy_font

FONTS = ("Roboto-Regular.ttf", "Roboto-Bold.ttf")
CATALOGUES = po_files()
DATA = sorted([*(ROOT / "companion" / "rulesets").glob("*/*.json"), *(ROOT / "examples").glob("*/*.json")])


def texts_of(value: Any) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from texts_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts_of(item)


def undrawable(texts: Iterator[str], font: str) -> dict[str, str]:
    """The characters the font lacks, each with the first text that uses it (line breaks aside)."""
    has = characters(kivy_font(font))
    out: dict[str, str] = {}
    for text in texts:
        for char in text:
            if char not in has and char not in "\n\t" and char not in out:
                out[char] = text
    return out


def id_of(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("font", FONTS)
@pytest.mark.parametrize("po", CATALOGUES, ids=id_of)
def test_every_catalogue_text_is_in_the_font(po: Path, font: str) -> None:
    language, domain = po.parents[1].name, po.stem
    texts = (text for message in catalogue(domain, language, po.parents[3]) if message.id for text in forms(message))
    missing = undrawable(texts, font)
    assert not missing, f"{font} lacks {', '.join(f'{c!r} (U+{ord(c):04X}) in {t!r}' for c, t in missing.items())}"


@pytest.mark.parametrize("font", FONTS)
@pytest.mark.parametrize("path", DATA, ids=id_of)
def test_every_text_of_the_games_data_is_in_the_font(path: Path, font: str) -> None:
    missing = undrawable(texts_of(json.loads(path.read_text(encoding="utf-8"))), font)
    assert not missing, f"{font} lacks {', '.join(f'{c!r} (U+{ord(c):04X}) in {t!r}' for c, t in missing.items())}"


def test_the_font_reader_knows_what_roboto_lacks() -> None:
    """The check can fail: Roboto has no arrow, and the box the table saw stands for it."""
    assert undrawable(iter(["cash 100 → 200 Rubin"]), FONTS[0]) == {"→": "cash 100 → 200 Rubin"}

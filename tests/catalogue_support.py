"""The ``.po`` catalogues of the source tree, read as a translator's tool reads them."""

from __future__ import annotations

import json
import shutil
import string
import sys
from pathlib import Path
from typing import Mapping

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"


APP = ROOT / "ui"
PHONES = ROOT / "phones"
HARDWARE = ROOT / "hardware"
EXAMPLES = ROOT / "examples"


def po_files() -> list[Path]:
    """The engine's catalogues, the hardware's, the touchscreen app's, the phones' and the example games'."""
    return sorted([*PACKAGE.glob("**/locale/*/LC_MESSAGES/*.po"), *HARDWARE.glob("locale/*/LC_MESSAGES/*.po"),
                   *APP.glob("locale/*/LC_MESSAGES/*.po"), *PHONES.glob("locale/*/LC_MESSAGES/*.po"),
                   *EXAMPLES.glob("*/locale/*/LC_MESSAGES/*.po")])


def domains() -> dict[str, Path]:
    """Each domain with the package folder holding it: ``{"companion": …/companion, "tozsde": …}``."""
    return {po.stem: po.parents[3] for po in po_files()}


def catalogue(domain: str, language: str, folder: Path | None = None) -> Catalog:
    """One ``.po`` of the source tree, or of the package ``folder``."""
    po = (folder or domains()[domain]) / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    with po.open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def messages(domain: str, language: str, folder: Path | None = None) -> dict[str, Message]:
    """The messages by key (the header left out)."""
    return {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue(domain, language, folder) if m.id}


def untranslated(english: dict[str, Message], own: dict[str, Message]) -> dict[str, list[str]]:
    """What a translation lacks or has wrong: the keys missing, empty, fuzzy, and unknown to English."""
    return {"missing": sorted(set(english) - set(own)),
            "empty": sorted(k for k, m in own.items() if not all(forms(m))),
            "fuzzy": sorted(k for k, m in own.items() if m.fuzzy),
            "unknown": sorted(set(own) - set(english))}


def forms(message: Message) -> list[str]:
    """The text of a message, each plural form on its own."""
    return [message.string] if isinstance(message.string, str) else list(message.string)


def fields(text: str) -> set[str]:
    """The ``{name:spec}`` fields of a text: ``{"player", "amount:money"}``."""
    return {name + (f":{spec}" if spec else "") for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def third_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               more: Mapping[str, Mapping[str, str]] | None = None) -> Path:
    """``examples/coin`` as the importable package ``coingame``, its texts (and ``more``) in ``.po`` files.

    The registered message domains are put back after the test; the compiled catalogues go to ``tmp_path``.
    """
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import json_to_po
    finally:
        sys.path.remove(str(ROOT / "tools"))
    from companion import messages

    game = tmp_path / "coingame"
    shutil.copytree(ROOT / "examples" / "coin", game, ignore=shutil.ignore_patterns("__pycache__"))
    for po in game.glob("locale/*/LC_MESSAGES/coin.po"):  # the domain is named as the package
        po.rename(po.with_name("coingame.po"))
    json_to_po.merge(game, "coingame", "coins", {language: dict(added) for language, added in (more or {}).items()})
    for name in [m for m in sys.modules if m.partition(".")[0] == "coingame"]:  # another test's copy
        del sys.modules[name]
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(messages, "_domains", list(messages._domains))
    monkeypatch.setattr(messages, "_packages", set(messages._packages))
    monkeypatch.setattr(messages, "_where", {})
    return game

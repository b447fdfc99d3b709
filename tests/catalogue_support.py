"""The ``.po`` catalogues of the source tree, read as a translator's tool reads them."""

from __future__ import annotations

import string
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"


APP = ROOT / "ui"
HARDWARE = ROOT / "hardware"


def po_files() -> list[Path]:
    """The engine's catalogues, the hardware's and the touchscreen app's."""
    return sorted([*PACKAGE.glob("**/locale/*/LC_MESSAGES/*.po"), *HARDWARE.glob("locale/*/LC_MESSAGES/*.po"),
                   *APP.glob("locale/*/LC_MESSAGES/*.po")])


def domains() -> dict[str, Path]:
    """Each domain with the package folder holding it: ``{"companion": …/companion, "tozsde": …}``."""
    return {po.stem: po.parents[3] for po in po_files()}


def catalogue(domain: str, language: str) -> Catalog:
    po = domains()[domain] / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    with po.open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def messages(domain: str, language: str) -> dict[str, Message]:
    """The messages by key (the header left out)."""
    return {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue(domain, language) if m.id}


def forms(message: Message) -> list[str]:
    """The text of a message, each plural form on its own."""
    return [message.string] if isinstance(message.string, str) else list(message.string)


def fields(text: str) -> set[str]:
    """The ``{name:spec}`` fields of a text: ``{"player", "amount:money"}``."""
    return {name + (f":{spec}" if spec else "") for _, name, spec, _ in string.Formatter().parse(text) if name is not None}

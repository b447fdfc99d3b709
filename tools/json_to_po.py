"""Move messages from the older JSON catalogues into the gettext ``.po`` files; safe to run again.

    python tools/json_to_po.py [--core OLD_MESSAGES] [--delete] [FOLDER ...]

``FOLDER`` is a package folder holding a ``messages.json`` (default: every
ruleset under ``companion/rulesets`` that still has one); its domain is the
folder's name, its currency the ``currency`` of its ``ruleset.json``.
``--core`` names a file with the core's older catalogue: a ``messages.py``
with a ``CATALOGUE`` dict (e.g. from ``git show <commit>:companion/messages.py``)
or a JSON file of the same shape.

Only keys the ``.po`` files lack are added, so what was edited in a ``.po``
stays. On the way: ``key`` and ``key_one`` become one message with plural
forms; ``{amount} Rubin`` (the currency after a field) and ``{amount} {currency}``
become ``{amount:money}``, so the currency comes from the ruleset (a Hungarian case
ending stays: ``{amount} Rubint`` → ``{amount:money}t``). A key without a
Hungarian or German text is added untranslated, and the tests name it.
``--delete`` removes each ``messages.json`` once converted.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "hu", "de")
NAMES = {"en": "English", "hu": "Hungarian", "de": "German"}


def old_core(path: Path) -> dict[str, dict[str, str]]:
    if path.suffix == ".json":
        data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
        return data
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "CATALOGUE" for t in targets) and node.value is not None:
                value: dict[str, dict[str, str]] = ast.literal_eval(node.value)
                return value
    raise SystemExit(f"{path}: no CATALOGUE found")


def with_money(text: str, currency: str) -> str:
    """``{amount} Rubin`` (or ``{amount} {currency}``, the currency as a parameter) → ``{amount:money}``."""
    text = re.sub(r"\{(\w+)\} \{currency\}", r"{\1:money}", text)
    return re.sub(r"\{(\w+)\} " + re.escape(currency), r"{\1:money}", text) if currency else text


def with_count(text: str) -> str:
    """The singular text of a plural message names ``{count}``: ``1 share`` → ``{count} share``."""
    return text if "{count}" in text else re.sub(r"(?<![\w{.])1(?![\w}.])", "{count}", text, count=1)


def load(po: Path, language: str, domain: str) -> Catalog:
    if po.is_file():
        with po.open("rb") as f:
            return read_po(f, locale=language, domain=domain)
    header = (f"# {NAMES.get(language, language)} texts of the table companion, domain {domain}.\n"
              "# The msgid is the message key; the English catalogue holds the English text.")
    return Catalog(locale=language, domain=domain, project="table-companion", version="0.1", fuzzy=False,
                   header_comment=header, last_translator="", language_team="")


def save(catalog: Catalog, po: Path) -> None:
    po.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=0, sort_output=False, no_location=True)
    placeholders = (b"EMAIL@ADDRESS", b"YEAR-MO-DA", b"FULL NAME", b"Generated-By", b"LL@li.org")
    po.write_bytes(b"".join(line for line in out.getvalue().splitlines(keepends=True)
                            if not any(p in line for p in placeholders)))


def merge(folder: Path, domain: str, currency: str, texts: dict[str, dict[str, str]]) -> int:
    """Add the keys the ``.po`` files of ``folder`` lack; returns how many messages were added."""
    english = texts.get("en", {})
    plural = {k[:-4] for k in english if k.endswith("_one") and k[:-4] in english}
    keys = [k for k in english if not (k.endswith("_one") and k[:-4] in plural)]
    added = 0
    for language in LANGUAGES:
        po = folder / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
        catalog = load(po, language, domain)
        own = texts.get(language, {})
        for key in keys:
            if key in catalog:
                continue
            if key in plural:
                one, other = own.get(key + "_one", ""), own.get(key, "")
                strings: Any = (with_money(with_count(one), currency) if one else "",
                                with_money(other, currency) if other else "")
                catalog.add((key, key), strings)
            else:
                catalog.add(key, with_money(own.get(key, ""), currency))
            added += 1
        save(catalog, po)
    return added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--core", type=Path, help="the core's older catalogue (messages.py or .json)")
    parser.add_argument("--delete", action="store_true", help="remove each messages.json once converted")
    args = parser.parse_args(argv)
    if args.core:
        print(f"companion: {merge(ROOT / 'companion', 'companion', '', old_core(args.core))} added")
    folders = args.folders or sorted(p.parent for p in (ROOT / "companion" / "rulesets").glob("*/messages.json"))
    for folder in folders:
        source = folder / "messages.json"
        if not source.is_file():
            print(f"{folder}: no messages.json", file=sys.stderr)
            continue
        ruleset = folder / "ruleset.json"
        currency = json.loads(ruleset.read_text(encoding="utf-8")).get("currency", "") if ruleset.is_file() else ""
        added = merge(folder, folder.name, currency, json.loads(source.read_text(encoding="utf-8")))
        print(f"{folder.name}: {added} added")
        if args.delete:
            source.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())

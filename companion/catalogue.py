"""Where the texts come from: gettext catalogues, one domain per package, compiled at first use.

A package keeps its texts in ``locale/<language>/LC_MESSAGES/<domain>.po``:
the core in ``companion/locale`` (domain ``companion``), each ruleset in its
own folder (``companion/rulesets/tozsde/locale/hu/LC_MESSAGES/tozsde.po``).
The msgid is the message key (``tozsde.bought``); the English catalogue
holds the English text, the others translate it. A message about a number
of things has plural forms (``msgid_plural``), chosen by ``Plural-Forms``.

The ``.po`` files are the source. The compiled ``.mo`` is taken from beside
the ``.po`` when the install built it (the wheel's build step in ``setup.py``,
:func:`compile_package`) and it was built from this very ``.po``; otherwise it is compiled
at first use into the cache folder (``$COMPANION_CACHE`` or the user's cache
folder), named by the hash of the ``.po``, or kept in memory when no folder
can be written.

>>> hu = translations(resources.files("companion"), "companion", "hu")
>>> hu is not None and hu.gettext("game_over")
'A játék véget ért.'
>>> translations(resources.files("companion"), "companion", "fr") is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import struct
import tempfile
from gettext import GNUTranslations
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

LANGUAGES = ("en", "hu", "de")
"""The languages of the screen; English is the source every other falls back to."""

SOURCE_HASH = "@source-sha256"
"""A msgid every compiled catalogue holds: the hash of the ``.po`` it was compiled from."""


def source_hash(source: bytes) -> str:
    return hashlib.sha256(source).hexdigest()[:32]


def compile_po(source: bytes, language: str) -> bytes:
    """The ``.mo`` of a ``.po`` (fuzzy and empty translations left out, so they fall back to English)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(source), locale=language)
    catalog.add(SOURCE_HASH, source_hash(source))
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def cache_root() -> Path:
    """The folder of what is made at first use and kept: ``$COMPANION_CACHE`` or the user's cache folder."""
    override = os.environ.get("COMPANION_CACHE")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("companion", appauthor=False))


def cache_dir() -> Path:
    """The folder of the catalogues compiled at first use."""
    return cache_root() / "mo"


def domains(folder: Traversable) -> list[str]:
    """The gettext domains whose ``.po`` files a package folder holds, e.g. ``['tozsde']``."""
    locale = folder / "locale"
    if not locale.is_dir():
        return []
    found: set[str] = set()
    for language in locale.iterdir():
        messages = language / "LC_MESSAGES"
        if messages.is_dir():
            found.update(f.name[:-3] for f in messages.iterdir() if f.name.endswith(".po"))
    return sorted(found)


def po_file(folder: Traversable, domain: str, language: str) -> Traversable:
    return folder / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def translations(folder: Traversable, domain: str, language: str) -> GNUTranslations | None:
    """The compiled catalogue of one domain in one language, or None if the package has no such ``.po``."""
    po = po_file(folder, domain, language)
    if not po.is_file():
        return None
    source = po.read_bytes()
    wanted = source_hash(source)
    built = folder / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
    if built.is_file():
        catalogue = _parse(built.read_bytes())
        if catalogue is not None and catalogue.gettext(SOURCE_HASH) == wanted:
            return catalogue
    cached = cache_dir() / f"{domain}-{language}-{wanted}.mo"
    try:
        catalogue = _parse(cached.read_bytes())
    except OSError:
        catalogue = None
    if catalogue is not None and catalogue.gettext(SOURCE_HASH) == wanted:
        return catalogue
    data = compile_po(source, language)
    write_cached(cached, data, stale=f"{domain}-{language}-*.mo")  # those compiled from an older .po go
    parsed = _parse(data)
    assert parsed is not None, "a catalogue just compiled parses"
    return parsed


def _parse(data: bytes) -> GNUTranslations | None:
    """A catalogue from the bytes of a ``.mo``, or None for anything else — an empty file left by a power cut,
    a truncated or foreign one — which is then compiled again (a kept file is never trusted).

    >>> _parse(b"") is None and _parse(b"\\xde\\x12") is None and _parse(b"\\x00" * 64) is None
    True
    """
    try:
        return GNUTranslations(io.BytesIO(data))
    except (OSError, ValueError, UnicodeDecodeError, struct.error, IndexError):
        return None


def write_cached(path: Path, data: bytes, *, stale: str = "") -> None:
    """Write atomically if the folder can be written (a read-only cache only costs a compile per start);
    then remove the files of the folder that match the glob ``stale``, other than ``path``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())  # on the disk before its name: a power cut leaves the old file or this one
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
    for old in path.parent.glob(stale) if stale else ():
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()


def compile_package(folder: Path) -> list[Path]:
    """Compile every ``.po`` in a folder and below to the ``.mo`` beside it (the wheel's build step)."""
    written = []
    for po in sorted(folder.glob("**/locale/*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_po(po.read_bytes(), po.parent.parent.name))
        written.append(mo)
    return written

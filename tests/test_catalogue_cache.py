"""The compiled catalogues kept in the cache folder: a file a power cut left empty or cut short is compiled
again, never a fault at the kiosk's start (the system test's power cut found one: ``struct.error``)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import catalogue

PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "ui.hello"
msgstr "Hallo"
'''


@given(st.binary(max_size=200))
def test_any_bytes_are_a_catalogue_or_none_never_a_fault(data: bytes) -> None:
    parsed = catalogue._parse(data)
    assert parsed is None or parsed.gettext("ui.hello") in ("ui.hello", "Hallo")


@pytest.mark.parametrize("left", [b"", b"\xde\x12\x04", b"\x95\x04\x12\xde" + b"\xff" * 40])
def test_a_cached_catalogue_cut_short_is_compiled_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, left: bytes) -> None:
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "game"
    messages = folder / "locale" / "de" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "game.po").write_text(PO, encoding="utf-8")
    first = catalogue.translations(folder, "game", "de")
    assert first is not None and first.gettext("ui.hello") == "Hallo"
    [cached] = catalogue.cache_dir().glob("game-de-*.mo")
    whole = cached.read_bytes()
    cached.write_bytes(left)  # what a power cut may leave of a file written just before it
    again = catalogue.translations(folder, "game", "de")
    assert again is not None and again.gettext("ui.hello") == "Hallo"
    assert cached.read_bytes() == whole, "the damaged file was not written again"

"""The characters a TrueType font can draw, read from its ``cmap`` table (formats 4 and 12), no library needed.

>>> from pathlib import Path
>>> font = kivy_font("Roboto-Regular.ttf")
>>> drawn = characters(font)
>>> "ő" in drawn, "„" in drawn, "→" in drawn
(True, True, False)
"""

from __future__ import annotations

import importlib.util
import struct
from functools import lru_cache
from pathlib import Path


def kivy_font(name: str) -> Path:
    """A font Kivy ships (its default, Roboto, draws every label the app makes), found without importing Kivy."""
    spec = importlib.util.find_spec("kivy")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("Kivy is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "fonts" / name


@lru_cache(maxsize=None)
def characters(font: Path) -> frozenset[str]:
    """Every character ``font`` maps to a glyph (Unicode subtables of its ``cmap``)."""
    data = font.read_bytes()
    count = struct.unpack_from(">H", data, 4)[0]
    cmap = next(offset for tag, _, offset, _ in (struct.unpack_from(">4sLLL", data, 12 + 16 * i) for i in range(count))
                if tag == b"cmap")
    found: set[int] = set()
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        table = cmap + offset
        kind = struct.unpack_from(">H", data, table)[0]
        if kind == 4:
            found |= _format4(data, table)
        elif kind == 12:
            found |= _format12(data, table)
    return frozenset(chr(c) for c in found)


def _format4(data: bytes, table: int) -> set[int]:
    segments = struct.unpack_from(">H", data, table + 6)[0] // 2
    ends = table + 14
    starts = ends + 2 * segments + 2
    deltas = starts + 2 * segments
    ranges = deltas + 2 * segments
    out: set[int] = set()
    for s in range(segments):
        end, start = struct.unpack_from(">H", data, ends + 2 * s)[0], struct.unpack_from(">H", data, starts + 2 * s)[0]
        delta, range_offset = struct.unpack_from(">hH", data, deltas + 2 * s)[0], struct.unpack_from(">H", data, ranges + 2 * s)[0]
        for code in range(start, end + 1):
            if code == 0xFFFF:
                continue
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = ranges + 2 * s + range_offset + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                out.add(code)
    return out


def _format12(data: bytes, table: int) -> set[int]:
    groups = struct.unpack_from(">L", data, table + 12)[0]
    out: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">LLL", data, table + 16 + 12 * g)
        out.update(c for c in range(start, end + 1) if glyph + (c - start))
    return out

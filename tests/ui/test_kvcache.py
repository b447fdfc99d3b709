"""The kv files read from the cache of parsed rules (ui/kvcache.py): the same rules as Kivy's own parse,
parsed again when the file changes, and parsed as Kivy does where the cache cannot be used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.lang.parser import Parser

from ui import kvcache

RULES = """#:import theme ui.theme
<CachedRow@BoxLayout>:
    spacing: 7
    Label:
        text: 'Anna ' + str(theme.WIDE)
        color: theme.TEXT
"""


@pytest.fixture
def kv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A kv file of a rule in a folder of its own, the cache in another; the parses counted."""
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    parses: list[str] = []
    parse = Parser.parse

    def counted(parser: Parser, content: str) -> None:
        if parser.filename is not None and parser.filename.endswith("rows.kv"):  # not the parses Kivy makes itself
            parses.append(parser.filename)
        parse(parser, content)

    monkeypatch.setattr(Parser, "parse", counted)
    path = tmp_path / "kv" / "rows.kv"
    path.parent.mkdir()
    path.write_text(RULES)
    yield path, parses
    Builder.unload_file(str(path))


def made(path: Path) -> Any:
    """A widget of the rule, read from ``path`` by the cache."""
    kvcache.load(path)
    try:
        return Factory.CachedRow()
    finally:
        Builder.unload_file(str(path))


def test_a_kv_file_is_parsed_once_then_read_from_the_cache_with_the_same_rules(kv: Any) -> None:
    path, parses = kv
    from ui import theme

    first, second = made(path), made(path)
    assert parses == [str(path)]  # the second read is the cached parse
    assert len(list((kvcache.cache_dir()).glob("rows-*.pickle"))) == 1
    for row in (first, second):
        assert row.spacing == 7
        assert row.children[0].text == f"Anna {theme.WIDE}"
        assert list(row.children[0].color) == list(theme.TEXT)
    Builder.load_file(str(path))  # Kivy's own parse of the same file makes the same widget
    try:
        own = Factory.CachedRow()
    finally:
        Builder.unload_file(str(path))
    assert (own.spacing, own.children[0].text) == (second.spacing, second.children[0].text)


def test_a_changed_file_is_parsed_again_and_its_old_parse_removed(kv: Any) -> None:
    path, parses = kv
    made(path)
    path.write_text(RULES.replace("spacing: 7", "spacing: 9"))
    assert made(path).spacing == 9
    assert made(path).spacing == 9
    assert parses == [str(path)] * 2
    assert len(list(kvcache.cache_dir().glob("rows-*.pickle"))) == 1


def test_an_unreadable_cache_file_is_parsed_again(kv: Any) -> None:
    path, parses = kv
    made(path)
    cached = kvcache.cached_path(path, path.read_text())
    cached.write_bytes(cached.read_bytes()[:100])  # cut off, as by a power cut while it was written
    assert made(path).spacing == 7
    assert len(parses) == 2
    assert made(path).spacing == 7 and len(parses) == 2  # written anew


def test_a_cache_that_cannot_be_written_parses_each_time(kv: Any, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path, parses = kv
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    monkeypatch.setenv("COMPANION_CACHE", str(blocked))
    assert made(path).spacing == 7 and made(path).spacing == 7
    assert len(parses) == 2


def test_a_file_with_a_root_widget_is_refused(kv: Any) -> None:
    path, _ = kv
    path.write_text("BoxLayout:\n    spacing: 3\n")
    with pytest.raises(ValueError, match="only rules"):
        kvcache.load(path)


# -- Kivy's own style.kv --------------------------------------------------------------------------
STYLE = """
import json, sys
from ui import kvcache, launch
launch.configure((800, 480))
hooked = sys.argv[1] == "hooked" and kvcache.cache_kivy_style()
from kivy.lang import Builder

def rule(r):
    return [r.name, [[k, p.value] for k, p in r.properties.items()],
            [[c.name, [[k, p.value] for k, p in c.properties.items()]]
             for canvas in (r.canvas_before, r.canvas_root, r.canvas_after) if canvas for c in canvas.children],
            [rule(c) for c in r.children]]

from kivy.lang.parser import global_idmap
print(json.dumps({"from_cache": kvcache.style_from_cache, "kivy_imported": "kivy" in global_idmap,
                  "rules": [[s.key, rule(r)] for s, r in Builder.rules]}))
"""


def kivy_style(tmp_path: Path, how: str) -> dict[str, Any]:
    """Kivy's rules as a new process reads them (``hooked``: through :func:`kvcache.cache_kivy_style`)."""
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "COMPANION_CACHE": str(tmp_path / "cache"), "KIVY_NO_CONSOLELOG": "1",
           "KIVY_HOME": str(tmp_path / "kivy"), "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", STYLE, how], env=env, cwd=root, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_kivy_style_is_parsed_once_then_read_from_the_cache_with_the_same_rules(tmp_path: Path) -> None:
    own = kivy_style(tmp_path, "own")  # Kivy's own parse, no hook
    first, second = kivy_style(tmp_path, "hooked"), kivy_style(tmp_path, "hooked")
    assert own["from_cache"] is None and first["from_cache"] is False and second["from_cache"] is True
    assert len(own["rules"]) > 50
    assert first["rules"] == own["rules"] and second["rules"] == own["rules"]
    assert second["kivy_imported"]  # style.kv's "#:import kivy kivy" carried out from the cache too
    assert len(list((tmp_path / "cache" / "kv").glob("style-*.pickle"))) == 1


def test_a_damaged_cached_kivy_style_is_parsed_again_and_kept_anew(tmp_path: Path) -> None:
    kivy_style(tmp_path, "hooked")
    (kept,) = (tmp_path / "cache" / "kv").glob("style-*.pickle")
    good = kept.read_bytes()
    kept.write_bytes(good[: len(good) // 2])  # a file cut short (the cache's own writes are atomic)
    again = kivy_style(tmp_path, "hooked")
    assert again["from_cache"] is False and again["rules"] == kivy_style(tmp_path, "own")["rules"]
    kept_again = kivy_style(tmp_path, "hooked")
    assert kept_again["from_cache"] is True and kept_again["rules"] == again["rules"]


def test_the_phones_layout_is_read_through_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ui/kv/phones.kv, read when the phones are first turned on, is parsed once and then read from the cache
    like the screens' kv files."""
    from importlib import resources

    from ui import phones

    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    path = str(resources.files("ui").joinpath("kv", "phones.kv"))
    Builder.unload_file(path)
    phones._loaded = False  # and loaded once again below (turning the phones on later loads nothing more)
    phones.load()
    assert path in Builder.files
    assert len(list(kvcache.cache_dir().glob("phones-*.pickle"))) == 1

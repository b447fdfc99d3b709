"""The system test's image cache: an older image of a release is removed only when no run has used it lately,
so two runs of the appliance on one machine never pull each other's disk away (a power cut boots it again)."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.system import image


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_SYSTEST_CACHE", str(tmp_path))
    return tmp_path


def made(cache: Path, name: str, age: float) -> Path:
    folder = cache / name
    folder.mkdir()
    (folder / "root.img").write_bytes(b"")
    then = time.time() - age
    os.utime(folder, (then, then))
    return folder


def test_only_images_of_the_release_unused_for_hours_are_removed(cache: Path) -> None:
    new = made(cache, "trixie-amd64-new", 0)
    in_use = made(cache, "trixie-amd64-inuse", 600)
    stale = made(cache, "trixie-amd64-stale", image.UNUSED + 60)
    other_release = made(cache, "bookworm-amd64-old", image.UNUSED + 60)
    half_built = made(cache, "trixie-amd64-next.x1y2", image.UNUSED + 60)
    assert image.prune_images("trixie", "amd64", keep=new) == [stale]
    assert all(f.exists() for f in (new, in_use, other_release, half_built)) and not stale.exists()


def test_a_cached_image_is_marked_as_used_when_a_run_takes_it(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = "trixie-amd64-0123456789abcdef"  # the key is a hash of the clone's files (git): any one will do here
    monkeypatch.setattr(image, "cache_key", lambda arch, suite: key)
    folder = made(cache, key, image.UNUSED + 60)
    for name in ("vmlinuz", "initrd.img"):
        (folder / name).write_bytes(b"")
    taken, seconds = image.ensure_image("amd64", "trixie")
    assert (taken.folder, seconds) == (folder, 0.0)
    assert time.time() - folder.stat().st_mtime < 60
    assert image.prune_images("trixie", "amd64", keep=cache / "another") == []

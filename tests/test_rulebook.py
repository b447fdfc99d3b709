"""Each ruleset's rulebook index: every field kind and house default is in it, every entry cites a § or ruling."""

from __future__ import annotations

import re

import pytest

from companion import registry
from companion.rulebook import EntryKind, entry, rulebook

CITE = re.compile(r"^(§\d+(\.\d+)?|[TBC]\d+)$")


@pytest.mark.parametrize("ruleset", ["tozsde", "boerse"])
def test_every_entry_cites_a_paragraph_or_ruling(ruleset: str) -> None:
    for e in rulebook(ruleset):
        parts = [p.strip() for chunk in e.cite.split("·") for p in chunk.split(",")]
        assert parts and all(CITE.match(p) for p in parts), (e.key, e.cite)
        if ruleset == "boerse":
            assert not any(p.startswith(("§", "T")) for p in parts), e.key  # Die Börse's book has no § numbers here


def test_tozsde_lists_every_field_kind_of_the_board() -> None:
    kinds = registry.ruleset_class("tozsde").read_json("ruleset.json")["board"]["kinds"]
    fields = {e.key for e in rulebook("tozsde") if e.kind == EntryKind.FIELD}
    assert fields == set(kinds)


def test_boerse_lists_every_space_kind_and_house_default() -> None:
    track = registry.ruleset_class("boerse").read_json("track.json")
    kinds = {space["kind"] for space in track["spaces"]}
    book = rulebook("boerse")
    assert {e.key for e in book if e.kind == EntryKind.FIELD} == kinds
    house = registry.ruleset_class("boerse").read_json("ruleset.json")["house_defaults"]
    assert {e.key for e in book if e.house_default} == set(house)


def test_house_defaults_of_tozsde_are_marked() -> None:
    house = registry.ruleset_class("tozsde").read_json("ruleset.json")["house_defaults"]
    marked = {e.key for e in rulebook("tozsde") if e.house_default}
    assert set(house) <= marked


def test_an_entry_without_a_language_is_refused_by_name() -> None:
    raw = {"kind": "rule", "key": "x", "cite": "T1", "house_default": False,
           "title": {"en": "X", "hu": "X"}, "text": {"en": "x", "hu": "x", "de": "x"}}
    with pytest.raises(ValueError, match="'x': title needs a text in each of en, hu, de"):
        entry(raw)

"""§3 and T15: the board is data; the house default and a group's own layout are checked."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.game import Game
from companion.ruleset import SetupError
from companion.rulesets.tozsde.layout import hexagon
from companion.rulesets.tozsde.rules import Rules

from tests.test_tozsde_support import BOARD, board_copy, setup


def field(board, fid):
    return next(f for f in board["fields"] if f["id"] == fid)


def test_t15_house_default_is_valid_and_labelled_as_invented():
    """T15: the house-default board passes the check and says it is invented."""
    assert Rules.check_board(BOARD) == []
    assert BOARD["house_default"] is True
    assert "Invented layout" in BOARD["note"] and "companion board check" in BOARD["note"]


def test_section3_house_default_counts():
    """§3: 61 fields: 48 company sites (4 per company), 3 resorts, 3 casinos, 3 Change, 3 Premium, 1 Tax."""
    kinds = Counter(f["kind"] for f in BOARD["fields"])
    assert kinds == {"company": 48, "resort": 3, "casino": 3, "change": 3, "premium": 3, "tax": 1}
    sites = Counter(f["company"] for f in BOARD["fields"] if f["kind"] == "company")
    assert sites == {str(c): 4 for c in range(1, 13)}
    starts = Counter(f["company"] for f in BOARD["fields"] if f.get("start"))
    assert starts == {str(c): 1 for c in range(1, 13)}
    assert sorted((f["q"], f["r"]) for f in BOARD["fields"]) == sorted(hexagon(5))


def test_t15_house_default_spreads_the_special_fields():
    """The special fields are not clumped: no two of them are neighbours."""
    special = [(f["q"], f["r"]) for f in BOARD["fields"] if f["kind"] != "company"]
    for i, (q1, r1) in enumerate(special):
        for q2, r2 in special[i + 1:]:
            assert max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2)) >= 2


def test_t15_directions_cover_the_six_die_numbers():
    """T15: which die number means which of the six directions."""
    directions = BOARD["directions"]
    assert sorted(directions) == ["1", "2", "3", "4", "5", "6"]
    assert len({tuple(d) for d in directions.values()}) == 6


def errors_for(change) -> list[str]:
    board = board_copy()
    change(board)
    return Rules.check_board(board)


def test_board_check_not_an_object_and_missing_keys():
    """A non-object or a board without fields/directions gives messages, never an exception."""
    assert Rules.check_board("hello") == ['the board must be a JSON object with "fields" and "directions", not str']
    errors = Rules.check_board({})
    assert 'the board has no "fields" list' in errors
    assert any(e.startswith('the board has no "directions" map') for e in errors)
    errors = Rules.check_board({"fields": [1, None], "directions": {}})
    assert "entry 1 of the fields list is not an object: 1" in errors


def test_board_check_field_outside_the_hexagon():
    """Not a hexagon of 5 a side: a field outside is named with its id and q, r, the hole too."""
    f = field(BOARD, 1)
    errors = errors_for(lambda b: field(b, 1).update(q=5, r=-5))
    assert "field 1 (q=5, r=-5): lies outside the hexagon of 5 fields a side (max(|q|, |r|, |q+r|) must be at most 4)" in errors
    assert f"no field at q={f['q']}, r={f['r']}" in errors


def test_board_check_duplicate_coordinates_and_ids():
    """Duplicate places and ids name both fields."""
    f2 = field(BOARD, 2)
    errors = errors_for(lambda b: field(b, 1).update(q=f2["q"], r=f2["r"]))
    assert any(e.startswith(f"field 2 (q={f2['q']}, r={f2['r']}): the place") and "taken twice" in e for e in errors)
    errors = errors_for(lambda b: field(b, 3).update(id=4))
    assert any("the id 4 is used twice" in e for e in errors)


def test_board_check_wrong_counts_per_section3():
    """§3 counts: a resort turned into a casino gives 2 resorts and 4 casinos, each listed."""
    resort = next(f for f in BOARD["fields"] if f["kind"] == "resort")
    errors = errors_for(lambda b: field(b, resort["id"]).update(kind="casino"))
    assert any(e.startswith("§3 needs 3 resort field(s), the board has 2: field") for e in errors)
    assert any(e.startswith("§3 needs 3 casino field(s), the board has 4: field") for e in errors)
    errors = errors_for(lambda b: b["fields"].pop())
    assert "the board has 60 fields, §3 needs 61" in errors


def test_board_check_company_sites_and_start_sites():
    """T15/T2: each company needs exactly 4 sites and exactly one start site."""
    site = next(f for f in BOARD["fields"] if f["kind"] == "company" and f["company"] == "7" and not f.get("start"))
    errors = errors_for(lambda b: field(b, site["id"]).update(company="8"))
    assert any(e.startswith("company 7 has 3 site(s), §3 needs 4: field") for e in errors)
    assert any(e.startswith("company 8 has 5 site(s), §3 needs 4: field") for e in errors)
    errors = errors_for(lambda b: field(b, site["id"]).update(start=True))
    assert any(e.startswith("company 7 has 2 start sites (black circle), needs exactly one (T2): field") for e in errors)
    start = next(f for f in BOARD["fields"] if f.get("start") and f["company"] == "5")
    errors = errors_for(lambda b: field(b, start["id"]).pop("start"))
    assert "company 5 has 0 start sites (black circle), needs exactly one (T2): none" in errors
    errors = errors_for(lambda b: field(b, site["id"]).update(company=13))
    where = f"field {site['id']} (q={site['q']}, r={site['r']})"
    assert f"{where}: a company site must name a company 1–12 (a string), not 13" in errors


def test_board_check_unknown_kind_and_misplaced_company_or_start():
    """Unknown kinds; a non-company field naming a company or marked as start."""
    f = field(BOARD, 10)
    where = f"field 10 (q={f['q']}, r={f['r']})"
    errors = errors_for(lambda b: field(b, 10).update(kind="jail"))
    assert f"{where}: unknown kind 'jail'; the kinds are company, resort, casino, change, premium, tax" in errors
    tax = next(x for x in BOARD["fields"] if x["kind"] == "tax")
    twhere = f"field {tax['id']} (q={tax['q']}, r={tax['r']})"
    errors = errors_for(lambda b: field(b, tax["id"]).update(company="3", start=True))
    assert f"{twhere}: a tax field names company '3'; only company sites belong to a company" in errors
    assert f"{twhere}: a tax field is marked as a start site; only company sites can be" in errors


def test_board_check_directions():
    """The direction map must cover 1–6 with six distinct unit hex directions."""
    errors = errors_for(lambda b: b["directions"].pop("4"))
    assert "directions: die number(s) 4 have no direction" in errors
    errors = errors_for(lambda b: b["directions"].update({"3": [1, 0]}))
    assert "directions: die numbers 2 and 3 both point to [1, 0]" in errors
    errors = errors_for(lambda b: b["directions"].update({"5": [2, 0]}))
    assert any(e.startswith("directions: die number 5 points to [2, 0], not one of the six hex directions") for e in errors)
    errors = errors_for(lambda b: b["directions"].update({"7": [1, 0]}))
    assert "directions: 7 are not die numbers 1–6" in errors


def test_t15_setup_may_carry_the_groups_board():
    """T15: a setup's own board is used when it passes the check."""
    board = board_copy()
    board["name"] = "Our printed board"
    board.pop("house_default")
    board["directions"] = {"1": [0, -1], "2": [1, -1], "3": [1, 0], "4": [0, 1], "5": [-1, 1], "6": [-1, 0]}
    game = Game({**setup(2), "board": board})
    view = game.view()["board"]
    assert view["name"] == "Our printed board" and view["house_default"] is False
    assert game.view()["house_defaults"] == []
    here = next(f for f in board["fields"] if (f["q"], f["r"]) == (0, 0))
    assert game.rules.layout.step[here["id"]][3] == next(f["id"] for f in board["fields"] if (f["q"], f["r"]) == (1, 0))


def test_t15_a_bad_board_in_the_setup_is_refused_with_the_problems():
    """T15/C6: an invalid board stops the setup with a SetupError listing every problem."""
    board = board_copy()
    field(board, 1)["kind"] = "jail"
    board["directions"].pop("6")
    with pytest.raises(SetupError) as info:
        Game({**setup(2), "board": board})
    message = str(info.value)
    assert "unknown kind 'jail'" in message and "die number(s) 6 have no direction" in message

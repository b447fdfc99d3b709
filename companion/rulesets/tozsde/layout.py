"""The Tőzsde board as data (§3, T15): checking a layout and walking on it.

A board is a JSON object: ``fields``, a list of hexagonal fields in axial
coordinates ``q, r`` forming a hexagon with ``size`` fields a side, and
``directions``, which die number points to which of the six neighbours.

>>> hexagon(2)
[(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]
>>> check({"fields": []}, SPEC, [str(c) for c in range(1, 13)])[:2]
['the board has 0 fields, §3 needs 61', 'no field at q=0, r=-4']
"""

from __future__ import annotations

from typing import Any

from companion.actions import is_whole_number

KINDS = ("company", "resort", "casino", "change", "premium", "tax")
UNIT_DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
DIE = ("1", "2", "3", "4", "5", "6")

SPEC: dict[str, Any] = {
    "size": 5,
    "fields": 61,
    "kinds": {"company": 48, "resort": 3, "casino": 3, "change": 3, "premium": 3, "tax": 1},
    "sites_per_company": 4,
}
"""The counts of §3 (the ruleset reads them from ruleset.json)."""


def hexagon(size: int) -> list[tuple[int, int]]:
    """The places of a hexagon with ``size`` fields a side, in reading order (rows r, then q)."""
    radius = size - 1
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]



def _where(field: dict[str, Any], index: int) -> str:
    fid, q, r = field.get("id"), field.get("q"), field.get("r")
    name = f"field {fid}" if is_whole_number(fid) else f"field #{index + 1} of the list (id {fid!r})"
    return f"{name} (q={q!r}, r={r!r})"


def _list(places: list[str]) -> str:
    return ", ".join(places) if places else "none"


def check(board: Any, spec: dict[str, Any], companies: list[str]) -> list[str]:
    """Every problem of a board, each naming the field (id and q, r) and what is wrong."""
    if not isinstance(board, dict):
        return [f"the board must be a JSON object with \"fields\" and \"directions\", not {type(board).__name__}"]
    errors: list[str] = []
    size, radius = spec["size"], spec["size"] - 1
    fields = board.get("fields")
    if not isinstance(fields, list):
        errors.append('the board has no "fields" list')
    else:
        errors.extend(_check_fields(fields, spec, companies, size, radius))
    errors.extend(_check_directions(board.get("directions")))
    return errors


def _check_fields(fields: list[Any], spec: dict[str, Any], companies: list[str], size: int, radius: int) -> list[str]:
    errors: list[str] = []
    if len(fields) != spec["fields"]:
        errors.append(f"the board has {len(fields)} fields, §3 needs {spec['fields']}")
    ids: dict[int, str] = {}
    places: dict[tuple[int, int], str] = {}
    by_kind: dict[str, list[str]] = {kind: [] for kind in KINDS}
    sites: dict[str, list[str]] = {c: [] for c in companies}
    starts: dict[str, list[str]] = {c: [] for c in companies}
    for index, field in enumerate(fields):
        if not isinstance(field, dict):
            errors.append(f"entry {index + 1} of the fields list is not an object: {field!r}")
            continue
        where = _where(field, index)
        # Values read from a group's file: anything until checked.
        fid: Any = field.get("id")
        q: Any = field.get("q")
        r: Any = field.get("r")
        if not is_whole_number(fid):
            errors.append(f"{where}: the id must be a whole number")
        elif fid in ids:
            errors.append(f"{where}: the id {fid} is used twice (also {ids[fid]})")
        else:
            ids[fid] = where
        if not (is_whole_number(q) and is_whole_number(r)):
            errors.append(f"{where}: the coordinates q and r must be whole numbers")
        elif max(abs(q), abs(r), abs(q + r)) > radius:
            errors.append(f"{where}: lies outside the hexagon of {size} fields a side (max(|q|, |r|, |q+r|) must be at most {radius})")
        elif (q, r) in places:
            errors.append(f"{where}: the place q={q}, r={r} is taken twice (also {places[(q, r)]})")
        else:
            places[(q, r)] = where
        kind = field.get("kind")
        if kind not in KINDS:
            errors.append(f"{where}: unknown kind {kind!r}; the kinds are {', '.join(KINDS)}")
            continue
        by_kind[kind].append(where)
        company = field.get("company")
        start = field.get("start", False)
        if not isinstance(start, bool):
            errors.append(f"{where}: \"start\" must be true or false, not {start!r}")
            start = False
        if kind == "company":
            if company not in sites:
                errors.append(f"{where}: a company site must name a company {companies[0]}–{companies[-1]} (a string), not {company!r}")
                continue
            sites[company].append(where)
            if start:
                starts[company].append(where)
        else:
            if company is not None:
                errors.append(f"{where}: a {kind} field names company {company!r}; only company sites belong to a company")
            if start:
                errors.append(f"{where}: a {kind} field is marked as a start site; only company sites can be")
    for q, r in hexagon(size):
        if (q, r) not in places:
            errors.append(f"no field at q={q}, r={r}")
    for kind, need in spec["kinds"].items():
        have = by_kind[kind]
        if len(have) != need:
            # The company sites are listed company by company below.
            where = "" if kind == "company" else f": {_list(have)}"
            errors.append(f"§3 needs {need} {kind} field(s), the board has {len(have)}{where}")
    need = spec["sites_per_company"]
    for company in companies:
        if len(sites[company]) != need:
            errors.append(f"company {company} has {len(sites[company])} site(s), §3 needs {need}: {_list(sites[company])}")
        if len(starts[company]) != 1:
            errors.append(
                f"company {company} has {len(starts[company])} start sites (black circle), needs exactly one"
                f" (T2): {_list(starts[company])}"
            )
    return errors


def _check_directions(directions: Any) -> list[str]:
    if not isinstance(directions, dict):
        return ['the board has no "directions" map from the die numbers "1"–"6" to hex directions [dq, dr]']
    errors: list[str] = []
    missing = [n for n in DIE if n not in directions]
    if missing:
        errors.append(f"directions: die number(s) {', '.join(missing)} have no direction")
    unknown = sorted(str(k) for k in directions if k not in DIE)
    if unknown:
        errors.append(f"directions: {', '.join(unknown)} are not die numbers 1–6")
    seen: dict[tuple[int, int], str] = {}
    for number in DIE:
        if number not in directions:
            continue
        value = directions[number]
        if not (isinstance(value, list) and len(value) == 2 and all(is_whole_number(v) for v in value)) or tuple(value) not in UNIT_DIRECTIONS:
            errors.append(
                f"directions: die number {number} points to {value!r}, not one of the six hex directions"
                f" {', '.join(str(list(d)) for d in UNIT_DIRECTIONS)}"
            )
            continue
        if tuple(value) in seen:
            errors.append(f"directions: die numbers {seen[tuple(value)]} and {number} both point to {value}")
        else:
            seen[tuple(value)] = number
    return errors


class Layout:
    """A checked board, ready for play: fields by id, the step table, the start sites.

    >>> import json
    >>> from importlib import resources
    >>> board = json.loads(resources.files("companion.rulesets.tozsde").joinpath("board.json").read_text(encoding="utf-8"))
    >>> layout = Layout(board)
    >>> len(layout.fields), len(layout.start)
    (61, 12)
    """

    __slots__ = ("board", "fields", "step", "start")

    def __init__(self, board: dict[str, Any]) -> None:
        self.board = board
        self.fields: dict[int, dict[str, Any]] = {f["id"]: f for f in board["fields"]}
        by_place = {(f["q"], f["r"]): f["id"] for f in board["fields"]}
        moves = [(int(n), tuple(d)) for n, d in board["directions"].items()]
        self.step: dict[int, list[int | None]] = {}
        """``step[field][die]``: the field one step away in that die number's direction, None off the board."""
        for fid, f in self.fields.items():
            row: list[int | None] = [None] * 7
            for number, (dq, dr) in moves:
                row[number] = by_place.get((f["q"] + dq, f["r"] + dr))
            self.step[fid] = row
        self.start: dict[str, int] = {f["company"]: f["id"] for f in board["fields"] if f.get("start")}

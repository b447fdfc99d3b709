"""Checking a track (B16): the house default or a group's own printed board.

A track is ``{"spaces": [space, …], …labels}``; each space has a ``kind``:

* ``start``: exactly one;
* ``rise`` / ``fall`` with a positive ``amount`` (the player picks the package);
* ``risk``: draw a risk card;
* ``event`` with an effect from the card vocabulary that touches every
  player (:data:`~companion.rulesets.boerse.effects.EVENT_EFFECTS`);
* ``domain`` with a ``company`` (a package) and a signed ``amount``;
* ``refund``: Steuererstattung, the player takes the Fiscus (B12).

>>> for problem in check_track({"spaces": [{"kind": "start"}, {"kind": "rise", "amount": 120}]},
...                            packages=["Stahl"], step=50, min_spaces=2):
...     print(problem)
space 1: rise amount must be a positive multiple of 50, not 120
the track has no risk space, so Börsenschluss could never be drawn (B10, B11)
"""

from __future__ import annotations

from typing import Any

from companion.actions import is_whole_number

from companion.rulesets.boerse.effects import EVENT_EFFECTS, LABEL_KEYS, effect_problems

KINDS: dict[str, tuple[str, ...]] = {
    "start": (),
    "rise": ("amount",),
    "fall": ("amount",),
    "risk": (),
    "event": ("effect",),
    "domain": ("company", "amount"),
    "refund": (),
}



def check_track(track: Any, *, packages: list[str], step: int, min_spaces: int) -> list[str]:
    """Every problem of a track, each naming the space index; never raises."""
    if not isinstance(track, dict):
        return [f"a track must be an object with 'spaces', not {type(track).__name__}"]
    spaces = track.get("spaces")
    if not isinstance(spaces, list):
        return ["the track needs 'spaces': a list of spaces"]
    problems: list[str] = []
    if len(spaces) < min_spaces:
        problems.append(f"the track has {len(spaces)} spaces; it needs at least {min_spaces}")
    starts = []
    risks = 0
    for index, space in enumerate(spaces):
        where = f"space {index}"
        if not isinstance(space, dict):
            problems.append(f"{where}: must be an object, not {space!r}")
            continue
        kind = space.get("kind")
        if kind not in KINDS:
            problems.append(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
            continue
        if kind == "start":
            starts.append(index)
        elif kind == "risk":
            risks += 1
        if kind == "event":
            problems.extend(
                f"{where}: event {p}"
                for p in effect_problems(
                    {k: v for k, v in space.items() if k != "kind"},
                    packages=packages,
                    step=step,
                    allowed=EVENT_EFFECTS,
                )
            )
            continue
        params = KINDS[kind]
        for name in params:
            if name not in space:
                problems.append(f"{where}: {kind} needs '{name}'")
        unexpected = sorted(set(space) - {"kind", *params} - LABEL_KEYS)
        if unexpected:
            problems.append(f"{where}: unexpected field(s) {', '.join(unexpected)}")
        amount: Any = space.get("amount")  # anything until checked
        if kind in ("rise", "fall") and "amount" in space:
            if not (is_whole_number(amount) and amount > 0 and amount % step == 0):
                problems.append(f"{where}: {kind} amount must be a positive multiple of {step}, not {amount!r}")
        if kind == "domain":
            if "company" in space and space["company"] not in packages:
                problems.append(f"{where}: package {space['company']!r} is not one of {', '.join(packages)}")
            if "amount" in space and not (is_whole_number(amount) and amount != 0 and amount % step == 0):
                problems.append(f"{where}: domain amount must be a non-zero multiple of {step}, not {amount!r}")
    if len(starts) != 1:
        problems.append(
            "the track needs exactly one start space, "
            + (f"not {len(starts)} (spaces {', '.join(map(str, starts))})" if starts else "and has none")
        )
    if risks == 0:
        problems.append("the track has no risk space, so Börsenschluss could never be drawn (B10, B11)")
    return problems


def first_of_kind(spaces: list[dict[str, Any]], kind: str) -> int | None:
    """The index of the first space of ``kind``, or None."""
    for index, space in enumerate(spaces):
        if space.get("kind") == kind:
            return index
    return None

"""What a repair keeps: every action whose place in the hash chain verifies, around damaged rows.

Properties of :func:`companion.journal.recover.recover` over random lines
with random damage: a damaged position or stored hash loses nothing that a
later hash (or the head record) vouches for; a damaged text ends the line
just before the last action nothing vouches for, and the stop says why.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.journal.chain import Head, link, root_hash
from companion.journal.recover import recover

ROOT = root_hash("tozsde", '{"players":["Anna","Béla"]}')


def chain_of(texts: list[str]) -> list[bytes]:
    chain = [ROOT]
    for idx, text in enumerate(texts):
        chain.append(link(chain[-1], idx, text))
    return chain


@st.composite
def damaged_lines(draw: st.DrawFn) -> tuple[list[str], set[int], set[int], int | None]:
    """A line, the positions whose stored hash is damaged, those whose position is, and a damaged text."""
    texts = draw(st.lists(st.sampled_from(['{"type":"roll","value":3}', '{"type":"end_turn"}', '{"type":"pay"}']),
                          min_size=1, max_size=40))
    places = st.integers(0, len(texts) - 1)
    hashes = draw(st.sets(places, max_size=5))
    moved = draw(st.sets(places, max_size=5)) - hashes
    text = draw(st.none() | places)
    return texts, hashes, moved, text


@given(damaged_lines())
def test_every_action_the_chain_vouches_for_is_kept(case: tuple[list[str], set[int], set[int], int | None]) -> None:
    texts, hashes, moved, spoiled = case
    chain = chain_of(texts)
    rows = []
    for idx, text in enumerate(texts):
        stored = b"\x00" * 16 if idx in hashes else chain[idx + 1]
        rows.append((-1 - idx if idx in moved else idx, text + " " if idx == spoiled else text, stored))
    end = Head(len(texts), chain[-1])
    found = recover(rows, ROOT, None, [end])
    kept = len(texts) if spoiled is None else spoiled
    while kept < len(texts) and kept > 0 and kept - 1 in hashes:  # nothing after it vouches for it
        kept -= 1
    assert found.texts == texts[:kept] and found.chain == chain[: kept + 1]
    assert (found.stop is None) == (kept == len(texts))
    if found.stop is not None:
        assert found.stop.startswith(f"action {kept + 1} ")
    without_end = recover(rows, ROOT, None, [])  # the last action's hash alone damaged: nothing vouches for it
    if spoiled is None and len(texts) - 1 in hashes:
        assert len(without_end.texts) < len(texts) and without_end.stop is not None


@given(damaged_lines())
def test_the_history_gives_back_what_the_rows_lost(case: tuple[list[str], set[int], set[int], int | None]) -> None:
    texts, hashes, moved, spoiled = case
    chain = chain_of(texts)
    rows = [(idx, text, chain[idx + 1]) for idx, text in enumerate(texts) if idx not in hashes | moved]
    found = recover(rows, ROOT, texts, [])
    assert found.texts == texts and found.stop is None

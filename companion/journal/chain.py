"""The hash chain that lets the journal find any change to a stored game.

Every stored piece of a game carries a 16-byte BLAKE2b digest that depends
on everything before it:

* the game's *root* covers its ruleset, setup, name and *identity* (16
  random bytes drawn when the game is made, so no two games share a root,
  however alike they are set up);
* action ``i`` of the line covers the hash after action ``i - 1`` (the root
  for the first), its position and its JSON text;
* entry ``k`` of the history covers the hash of entry ``k - 1`` (the root
  for the first) and all of its fields;
* a snapshot covers the line hash at its position and its state's JSON.

So a flipped bit anywhere in a game's stored data changes a digest, and the
first action whose digest does not match is where the good prefix ends.
The hash after the last action, with the length, is the line's *head*:
every write names the head it was checked against (C2).

>>> root = root_hash("tozsde", '{"players":["Anna","Béla"]}')
>>> first = link(root, 0, '{"type":"roll","player":0,"value":3}')
>>> len(first), first == link(root, 0, '{"type":"roll","player":0,"value":4}')
(16, False)
>>> Head(1, first).length
1
"""

from __future__ import annotations

import secrets
import struct
from dataclasses import dataclass
from hashlib import blake2b

__all__ = ["DIGEST_SIZE", "Head", "entry_link", "link", "new_identity", "root_hash", "snapshot_hash"]

DIGEST_SIZE = 16
"""Bytes per digest: collisions by chance are out of reach at this size."""

_INDEX = struct.Struct(">q")


@dataclass(frozen=True, slots=True)
class Head:
    """Where a game's line stands: its number of actions and the hash after the last.

    Two heads are equal only if the two lines are equal, so a write that
    names the head it was checked against cannot land on a changed line.
    """

    length: int
    hash: bytes


def _text(value: str | None) -> bytes:
    """A length-prefixed field: no two different field lists give the same bytes."""
    if value is None:
        return b"\xff" * 8
    data = value.encode("utf-8", "surrogatepass")
    return _INDEX.pack(len(data)) + data


def new_identity() -> bytes:
    """A game's identity: random bytes no other game shares."""
    return secrets.token_bytes(DIGEST_SIZE)


def root_hash(ruleset: str, setup_json: str, name: str | None = None, identity: bytes | None = None) -> bytes:
    """The hash a game's chains start from: its ruleset, setup, name and identity.

    Games stored before identities were given (schema 2) and left without
    one, because their chain did not verify, keep the root without it.
    """
    data = b"game" + _text(ruleset) + _text(setup_json) + _text(name)
    if identity is not None:
        data += b"identity" + _INDEX.pack(len(identity)) + identity
    return blake2b(data, digest_size=DIGEST_SIZE).digest()


def link(previous: bytes, index: int, action_json: str) -> bytes:
    """The line hash after action ``index`` (counted from 0)."""
    return blake2b(
        previous + _INDEX.pack(index) + action_json.encode("utf-8", "surrogatepass"),
        digest_size=DIGEST_SIZE,
    ).digest()


def entry_link(
    previous: bytes, seq: int, kind: str, action_json: str | None, source: str, at: str
) -> bytes:
    """The history hash after entry ``seq`` (an action, undo or redo)."""
    data = previous + _INDEX.pack(seq) + _text(kind) + _text(action_json) + _text(source) + _text(at)
    return blake2b(data, digest_size=DIGEST_SIZE).digest()


def snapshot_hash(line_hash: bytes, state_json: str) -> bytes:
    """The hash of a snapshot taken where the line hash was ``line_hash``."""
    return blake2b(b"snapshot" + line_hash + _text(state_json), digest_size=DIGEST_SIZE).digest()

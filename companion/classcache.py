"""The methods :mod:`dataclasses` writes for each class, compiled once and kept in the cache folder.

``@dataclass`` writes the source of the methods it makes for a class (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, a frozen class's ``__setattr__`` and ``__delattr__``) and compiles it by
``exec``: on Python 3.11 one text a method, about 0.4 ms a class; on 3.13 one text a class.
:func:`install` gives the ``dataclasses`` module an ``exec`` of its own that compiles a source text
the first time it is seen and keeps the code (marshal data, for this Python only) in the cache folder
(:func:`companion.catalogue.cache_root`); a later process runs the kept code of the same text instead
of compiling it: a tenth of the time. The text is the key, so the classes are exactly what
``dataclasses`` makes without the cache: the same source compiled the same way. Another Python, a
cache that cannot be read or written: the text is compiled as before. As for the catalogues and the
kv files, the cache folder is the user's own, trusted as the code is.

It replaces a name in a module of the standard library for the whole process, so nothing installs it
on import: only the touchscreen app's own start does (:func:`ui.launch.speed_up_start`), and only on
the Pythons where it was measured to shorten that start (:data:`MEASURED`, docs/benchmarks.md).

A process that had to compile a text adds what it ran to the file (after the app's first frame, and at
exit). Past :data:`LIMIT` texts (old versions of classes changed since) the file starts again from what
the process ran.

>>> namespace: dict = {}
>>> _exec("def half(x):\\n    return x / 2\\n", {}, namespace)
>>> namespace["half"](3)
1.5
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import hashlib
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["install", "path", "save"]

MEASURED = frozenset({(3, 11), (3, 13)})
"""The Python versions (major, minor) whose app start the cache was measured to shorten (docs/benchmarks.md:
on 3.11 by 0.02–0.17 of the hello-world's start, on 3.13 by 0.05 on the table screen); on any other
:func:`install` does nothing."""

LIMIT = 500
"""The most texts the file keeps (the app and the phones' web process make some 300; reading 500 takes ~1 ms)."""

_kept: dict[str, CodeType] | None = None
"""The code read from the cache file, by source text (None until the first class is made)."""
_used: dict[str, CodeType] = {}
"""The code of every text this process ran: what :func:`save` writes."""
_compiled = 0
"""How many texts this process had to compile (none kept for them)."""


def path() -> Path:
    """The cache file of this Python: marshal data is for one version and build only."""
    from companion.catalogue import cache_root

    build = hashlib.sha256(sys.version.encode()).hexdigest()[:12]
    return cache_root() / "dataclasses" / f"{sys.implementation.cache_tag}-{build}.marshal"


def _read() -> dict[str, CodeType]:
    try:
        kept = marshal.loads(path().read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(kept, dict):
        return {}
    return {text: code for text, code in kept.items() if isinstance(text, str) and isinstance(code, CodeType)}


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: Any = None, /) -> None:
    """``exec`` as ``dataclasses`` calls it (always with the class module's globals): a source text's code
    taken from the cache, or compiled as ``exec`` compiles it (no ``__future__`` flags of the caller)."""
    global _kept, _compiled
    if not isinstance(source, str):
        builtins.exec(source, globals, locals)
        return
    if _kept is None:
        _kept = {}  # made first, so a dataclass made while the file is read cannot read it again
        _kept = _read()
    code = _kept.get(source) or _used.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _compiled += 1
    _used[source] = code
    builtins.exec(code, globals, locals)


def save() -> None:
    """Add the code this process ran to the cache file, if it compiled any (at exit, by :func:`install`)."""
    global _compiled
    if not _compiled:
        return
    from companion.catalogue import write_cached

    kept = {**_read(), **_used}
    write_cached(path(), marshal.dumps(kept if len(kept) <= LIMIT else _used))
    _compiled = 0


def install() -> bool:
    """Let ``dataclasses`` take its methods' code from the cache, for the rest of the process; False (and
    nothing done) on a Python not in :data:`MEASURED`. Only the app's own start calls it."""
    if sys.version_info[:2] not in MEASURED:
        return False
    if getattr(dataclasses, "exec", None) is not _exec:
        setattr(dataclasses, "exec", _exec)  # found before the builtin by the module's own functions
        atexit.register(save)
    return True

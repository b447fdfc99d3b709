"""The app's kv files read from a cache of what Kivy's parser made of them.

Kivy's parser compiles every expression of a kv file each time the file is read: ``common.kv``
about 11 ms, ``table.kv`` about 18 ms of a start on the 2-core test machine. The parsed rules
(a :class:`kivy.lang.parser.Parser`, its compiled expressions as marshal data) are kept pickled
in the cache folder (:func:`companion.catalogue.cache_root`), named by the file and by the hash
of its text, Kivy's version and Python's; reading them back takes about a tenth of the time.
A file changed, another Kivy or Python, or a cache that cannot be read or written: the file is
parsed as Kivy does it. The cache folder is the user's own, as for the compiled catalogues: what
is read from it is trusted as the code is.

>>> import tempfile
>>> from pathlib import Path
>>> kv = Path(tempfile.mkdtemp()) / "example.kv"
>>> _ = kv.write_text("<ExampleLabel@Label>:\\n    text: 'Hello, ' + 'table'\\n")
>>> load(kv)
>>> from kivy.factory import Factory
>>> Factory.ExampleLabel().text
'Hello, table'
"""

from __future__ import annotations

import hashlib
import io
import marshal
import pickle
import sys
import types
from pathlib import Path
from typing import Any

import kivy
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.lang.parser import Parser

from companion.catalogue import cache_root, write_cached


def cache_dir() -> Path:
    """The folder of the parsed kv files."""
    return cache_root() / "kv"


class _Pickler(pickle.Pickler):
    """Pickles the compiled expressions of the rules too (as marshal data, which is for this Python only:
    its version names the cached file)."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is types.CodeType:
            return marshal.loads, (marshal.dumps(obj),)
        return NotImplemented


def _kept_as(path: Path) -> str:
    """The beginning of the names of ``path``'s cached parses: its name and its folder's hash."""
    return f"{path.stem}-{hashlib.sha256(str(path).encode()).hexdigest()[:8]}-"


def cached_path(path: Path, text: str) -> Path:
    """Where the parsed ``path`` is kept: one file per kv file (by name and folder) and text."""
    what = hashlib.sha256(f"{kivy.__version__}\0{sys.version}\0{text}".encode()).hexdigest()[:32]
    return cache_dir() / f"{_kept_as(path)}{what}.pickle"


def parse(path: Path) -> Parser:
    """What Kivy's parser makes of the kv file at ``path``, from the cache where it holds it
    (its directives, such as ``#:import``, carried out as the parser does)."""
    text = path.read_text(encoding="utf8")
    cached = cached_path(path, text)
    try:
        parser = pickle.loads(cached.read_bytes())
    except Exception:  # none yet, or unreadable (a truncated file, a class Kivy no longer has): parse it
        parser = None
    if isinstance(parser, Parser):
        parser.execute_directives()
        return parser
    parser = Parser(content=text, filename=str(path))
    out = io.BytesIO()
    try:
        _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(parser)
    except (pickle.PicklingError, TypeError, AttributeError):  # a value it cannot keep: parsed each time
        return parser
    write_cached(cached, out.getvalue(), stale=f"{_kept_as(path)}*.pickle")  # the parses of its older texts go
    return parser


def load(path: Path) -> None:
    """As ``Builder.load_file(path, rulesonly=True)``, for a kv file of rules and dynamic classes
    (the app's kind: no root widget, no templates), with the parsed file from the cache."""
    parser = parse(path)
    if parser.root is not None or parser.templates:
        raise ValueError(f"{path.name}: only rules and dynamic classes are read from the cache")
    filename = str(path)
    # what Builder.load_string does with a parsed file of rules (Kivy 2.3)
    Builder.rules.extend(parser.rules)
    Builder._clear_matchcache()
    for name, bases in parser.dynamic_classes.items():
        Factory.register(name, baseclasses=bases, filename=filename, warn=True)
    if parser.rules or parser.dynamic_classes:
        Builder.files.append(filename)

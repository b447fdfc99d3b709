"""The app's kv files read from a cache of what Kivy's parser made of them.

Kivy's parser compiles every expression of a kv file each time the file is read: ``common.kv``
about 11 ms, ``table.kv`` about 18 ms of a start on the 2-core test machine. The parsed rules
(a :class:`kivy.lang.parser.Parser`, its compiled expressions as marshal data) are kept pickled
in the cache folder (:func:`companion.catalogue.cache_root`), named by the file and by the hash
of its text, Kivy's version and Python's; reading them back takes about a tenth of the time.
A file changed, another Kivy or Python, or a cache that cannot be read or written: the file is
parsed as Kivy does it. The cache folder is the user's own, as for the compiled catalogues: what
is read from it is trusted as the code is.

Kivy's own rules (its ``style.kv``, 77 rules) are parsed when ``kivy.lang`` is first imported, before
the app could load anything: about 40 ms of every start on the test machine, a fifth of a bare Kivy
hello-world's. :func:`cache_kivy_style`, called before Kivy's language is imported, has that parse
read from the same cache (an import hook that wraps :meth:`Parser.parse` for that one file).

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
import importlib.abc
import importlib.machinery
import io
import marshal
import os
import pickle
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import kivy

from companion.catalogue import cache_root, write_cached

if TYPE_CHECKING:
    from kivy.lang.parser import Parser


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


def _kept(path: Path, text: str) -> Parser | None:
    """The parse of ``text`` (the file at ``path``) from the cache, None where it holds none that can be read."""
    from kivy.lang.parser import Parser

    try:
        parser = pickle.loads(cached_path(path, text).read_bytes())
    except Exception:  # none yet, or unreadable (a truncated file, a class Kivy no longer has): parse it
        return None
    return parser if isinstance(parser, Parser) else None


def _keep(path: Path, text: str, parser: Parser) -> None:
    """Keep the parse of ``text`` (the file at ``path``) in the cache, in place of its older texts'."""
    out = io.BytesIO()
    try:
        _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(parser)
    except (pickle.PicklingError, TypeError, AttributeError):  # a value it cannot keep: parsed each time
        return
    write_cached(cached_path(path, text), out.getvalue(), stale=f"{_kept_as(path)}*.pickle")


def parse(path: Path) -> Parser:
    """What Kivy's parser makes of the kv file at ``path``, from the cache where it holds it
    (its directives, such as ``#:import``, carried out as the parser does)."""
    from kivy.lang.parser import Parser

    text = path.read_text(encoding="utf8")
    parser = _kept(path, text)
    if parser is not None:
        parser.execute_directives()
        return parser
    parser = Parser(content=text, filename=str(path))
    _keep(path, text, parser)
    return parser


def load(path: Path) -> None:
    """As ``Builder.load_file(path, rulesonly=True)``, for a kv file of rules and dynamic classes
    (the app's kind: no root widget, no templates), with the parsed file from the cache."""
    from kivy.factory import Factory
    from kivy.lang import Builder

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


# -- Kivy's own style.kv ---------------------------------------------------------------------------
style_from_cache: bool | None = None
"""Whether Kivy's ``style.kv`` was read from the cache in this process (None: not through the cache)."""

_PARSED = ("rules", "templates", "root", "sourcecode", "directives", "dynamic_classes")
"""What :meth:`Parser.parse` fills in (the parser's slots but its file name)."""


def _style_path() -> str:
    """Kivy's own rules, the file ``kivy.lang.builder`` loads as it is imported."""
    return os.path.join(kivy.kivy_data_dir, "style.kv")


def _cached_parse(parse: Callable[[Parser, str], None]) -> Callable[[Parser, str], None]:
    """``Parser.parse`` that reads Kivy's ``style.kv`` from the cache (and keeps it there once parsed)."""

    def cached(parser: Parser, content: str) -> None:
        global style_from_cache
        if parser.filename != _style_path():
            return parse(parser, content)
        path = Path(parser.filename)
        kept = _kept(path, content)
        style_from_cache = kept is not None
        if kept is None:
            parse(parser, content)
            _keep(path, content, parser)
            return None
        for name in _PARSED:
            setattr(parser, name, getattr(kept, name))
        parser.execute_directives()
        return None

    cached.__wrapped__ = parse  # type: ignore[attr-defined]
    return cached


class _Loader(importlib.abc.Loader):
    """Loads ``kivy.lang.parser`` as its own loader does, then wraps its ``Parser.parse``."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        self.loader.exec_module(module)
        module.Parser.parse = _cached_parse(module.Parser.parse)


class _StyleFinder(importlib.abc.MetaPathFinder):
    """Finds ``kivy.lang.parser`` once, as the path finder does, with :class:`_Loader` as its loader."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != "kivy.lang.parser":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def cache_kivy_style() -> bool:
    """Have Kivy's own ``style.kv`` read from the cache when ``kivy.lang`` is imported; False (and nothing
    done) where it is imported already. The app's start calls it before Kivy's language is imported.

    >>> import kivy.lang  # imported already in this process
    >>> cache_kivy_style()
    False
    """
    if "kivy.lang.parser" in sys.modules or any(isinstance(f, _StyleFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _StyleFinder())
    return True

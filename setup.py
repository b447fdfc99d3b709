"""The build step of the wheel: each ``.po`` compiled to the ``.mo`` beside it (``companion.catalogue``).

The source tree never holds a ``.mo`` (``.gitignore``); an editable install
compiles each catalogue at first use instead.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        # the module alone: the package itself may not import before its dependencies are installed
        spec = importlib.util.spec_from_file_location("_catalogue", Path(__file__).parent / "companion" / "catalogue.py")
        assert spec is not None and spec.loader is not None
        catalogue = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogue)
        for package in ("companion", "hardware", "ui", "phones"):  # the engine's, the hardware's, the app's and the phones' catalogues
            if (Path(self.build_lib) / package).is_dir():
                catalogue.compile_package(Path(self.build_lib) / package)


setup(cmdclass={"build_py": BuildPyWithCatalogues})

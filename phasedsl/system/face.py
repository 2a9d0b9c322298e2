"""A package's face, loaded on first use: ``from phasedsl.design import balance_worlds``
imports the one module that defines it, not every module of the package (a ``check`` must
not pay for the simulator)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module


def lazy(package: str, face: dict[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package`` offering each name of ``face`` (name ->
    the module of the package that defines it; a module offered as itself maps to itself)."""

    def __getattr__(name: str) -> object:
        module = face.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        found = import_module(f"{package}.{module}")
        value = found if module == name else getattr(found, name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__

"""Name -> lazily imported class, with an install hint (like fsspec's ``known_implementations``).

Looking a name up imports nothing heavy: ``--translator baidu`` never imports torch, and
``sit --help`` imports no model library at all.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from . import hints
from .errors import ConfigError, MissingDependencyError

#: how to install what every torch/transformers component needs (sit.hints keeps every hint)
TORCH_INSTALL_HINT = hints.TORCH


@dataclass(frozen=True)
class Factory:
    """How to build a component again in another process (an engine's worker): the class, by its
    import path, and the keyword arguments it was created with, minus the cache and the progress
    bar, which stay with the driver. Picklable as long as the arguments are."""

    target: str  # "package.module:ClassName"
    kwargs: dict

    def build(self) -> Any:
        module_name, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module_name), attr)(**self.kwargs)


@dataclass(frozen=True)
class Entry:
    target: str  # "package.module:ClassName"
    hint: str = ""  # how to install what the class needs
    description: str = ""
    plugin: str = ""  # the distribution that registered it through an entry point ("" for sit's own)


class Registry:
    """A table of named, lazily imported implementations of one face (translators, parsers...).

    Other packages add implementations through the entry-point ``group`` (``sit.translators``,
    ``sit.relations``, ...), as fsspec's and llm's plugins do: they are read the first time a name
    is looked up, and nothing of theirs is imported until one of them is used. sit's own names
    win over a plugin's."""

    def __init__(self, kind: str, entries: dict[str, Entry] | None = None, group: str = ""):
        self.kind = kind
        self.group = group
        self._entries: dict[str, Entry] = dict(entries or {})
        self._plugins_read = not group

    def _read_plugins(self) -> None:
        """Add the entry points of :attr:`group` (once; an entry point is not imported)."""
        if self._plugins_read:
            return
        self._plugins_read = True
        from importlib.metadata import entry_points

        for ep in entry_points(group=self.group):
            if ep.name not in self._entries:
                dist = getattr(ep.dist, "name", "") or "a plugin"
                self._entries[ep.name] = Entry(ep.value, f"pip install {dist}", f"(plugin from {dist})", dist)

    def register(self, name: str, target: str | type, hint: str = "", description: str = "") -> None:
        """Add ``name``: a class, or ``"module:attr"`` imported when first used."""
        if isinstance(target, type):
            self._entries[name] = Entry(f"{target.__module__}:{target.__qualname__}", hint, description)
            self._loaded = getattr(self, "_loaded", {})
            self._loaded[name] = target
        else:
            self._entries[name] = Entry(target, hint, description)

    def unregister(self, name: str) -> None:
        """Remove ``name`` (one :meth:`register` added); a name not registered is left alone."""
        self._entries.pop(name, None)
        getattr(self, "_loaded", {}).pop(name, None)

    def names(self) -> list[str]:
        self._read_plugins()
        return sorted(self._entries)

    def __contains__(self, name: str) -> bool:
        self._read_plugins()
        return name in self._entries

    def entry(self, name: str) -> Entry:
        self._read_plugins()
        try:
            return self._entries[name]
        except KeyError:
            raise ConfigError(
                f"unknown {self.kind} {name!r}; choose one of: {', '.join(self.names())}"
            ) from None

    def get(self, name: str) -> Any:
        """Import and return the class registered under ``name``."""
        loaded = getattr(self, "_loaded", {})
        if name in loaded:
            return loaded[name]
        entry = self.entry(name)
        module_name, _, attr = entry.target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            hint = f"; install it with: {entry.hint}" if entry.hint else ""
            raise MissingDependencyError(
                f"the {self.kind} {name!r} needs a package that is not installed ({exc.name or exc}){hint}"
            ) from exc
        return getattr(module, attr)

    def create(self, name: str, **kwargs: Any) -> Any:
        """An instance of ``name``; it keeps its :class:`Factory` in ``factory`` so that an engine
        can rebuild it in a worker (see :func:`sit.batching.remote`)."""
        cls = self.get(name)
        obj = cls(**kwargs)
        rebuild = {k: v for k, v in kwargs.items() if k not in ("cache", "progress")}
        try:
            obj.factory = Factory(f"{cls.__module__}:{cls.__qualname__}", rebuild)
        except AttributeError:  # a class with __slots__ or a read-only attribute: stays in process
            pass
        return obj

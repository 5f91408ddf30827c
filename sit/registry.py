"""Name -> lazily imported class, with an install hint (like fsspec's ``known_implementations``).

Looking a name up imports nothing heavy: ``--translator baidu`` never imports torch, and
``sit --help`` imports no model library at all.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import sys
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from . import hints
from .errors import ConfigError, MissingDependencyError, SitError

log = logging.getLogger("sit")

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
    is looked up, and nothing of theirs is imported until one of them is used. ``$SIT_PLUGINS``, a
    comma list of distributions, allows only those (``""``: none), as llm's ``LLM_LOAD_PLUGINS``.
    A plugin that names one of sit's own implementations is refused with a warning; two plugins
    that name the same one are refused when it is used; :meth:`register` refuses a clash. What a
    name resolves to must be a class of the face (``base``, ``"module:Class"``, where given)."""

    def __init__(self, kind: str, entries: dict[str, Entry] | None = None, group: str = "", base: str = ""):
        self.kind = kind
        self.group = group
        self.base = base
        self._entries: dict[str, Entry] = dict(entries or {})
        self._loaded: dict[str, type] = {}
        self._clashes: dict[str, tuple[str, str]] = {}  # name -> the two plugins that both name it
        self._plugins_read = not group

    def _read_plugins(self) -> None:
        """Add the entry points of :attr:`group` the allow-list lets in (once; nothing imported)."""
        if self._plugins_read:
            return
        self._plugins_read = True
        allowed = plugins_allowed()
        for ep in self._entry_points():
            dist = getattr(ep.dist, "name", "") or "a plugin"
            if allowed is not None and dist not in allowed:
                continue
            old = self._entries.get(ep.name)
            if old is not None and not old.plugin:
                log.warning("the plugin %s names its %s %r, which is sit's own (%s); it is not used: rename it in "
                            "its entry points", dist, self.kind, ep.name, old.target)
            elif old is not None and old.target != ep.value:
                self._clashes[ep.name] = (f"{old.plugin} ({old.target})", f"{dist} ({ep.value})")
            else:
                self._entries[ep.name] = Entry(ep.value, f"pip install {dist}", f"(plugin from {dist})", dist)

    def _entry_points(self) -> list[Any]:
        """The entry points of :attr:`group`; where an installed distribution's entry_points.txt
        cannot be read (not UTF-8, not INI), those of the others, with a warning naming it."""
        from importlib.metadata import distributions

        try:
            return list(_installed_entry_points(tuple(sys.path)).select(group=self.group))
        except Exception:  # noqa: BLE001 - a damaged distribution's metadata may raise anything
            damaged = _unreadable_distributions()
            found, seen = [], set()
            for dist in distributions():
                if _where(dist) in damaged:
                    continue
                key = (dist.metadata["Name"] or "").lower().replace("-", "_")
                if key in seen:  # as entry_points: the first of a name on the path
                    continue
                seen.add(key)
                found += [ep for ep in dist.entry_points if ep.group == self.group]
            return found

    def register(self, name: str, target: str | type, hint: str = "", description: str = "") -> None:
        """Add ``name``: a class, or ``"module:attr"`` imported when first used. A name already
        registered to another target is a ConfigError naming both (the same target again is no change)."""
        path = f"{target.__module__}:{target.__qualname__}" if isinstance(target, type) else target
        old = self._entries.get(name)
        if old is not None and old.target != path:
            raise ConfigError(f"the {self.kind} {name!r} is registered twice: {old.target} and {path}; "
                              "register one of them under another name")
        self._entries[name] = Entry(path, hint, description)
        if isinstance(target, type):
            self._loaded[name] = target

    def unregister(self, name: str) -> None:
        """Remove ``name`` (one :meth:`register` added); a name not registered is left alone."""
        self._entries.pop(name, None)
        self._loaded.pop(name, None)

    def names(self, *, plugins: bool = True) -> list[str]:
        """The names registered (with ``plugins=False``, sit's own and those registered in this
        process, without the entry points' ones)."""
        self._read_plugins()
        return sorted(n for n, e in self._entries.items() if plugins or not e.plugin)

    def __contains__(self, name: str) -> bool:
        self._read_plugins()
        return name in self._entries

    def entry(self, name: str) -> Entry:
        self._read_plugins()
        if name in self._clashes:
            first, second = self._clashes[name]
            raise ConfigError(f"two plugins name the {self.kind} {name!r}: {first} and {second}; uninstall one, "
                              "or allow one with SIT_PLUGINS")
        try:
            return self._entries[name]
        except KeyError:
            raise ConfigError(
                f"unknown {self.kind} {name!r}; choose one of: {', '.join(self.names())}"
            ) from None

    def get(self, name: str) -> Any:
        """Import and return the class registered under ``name``; an entry that does not import,
        names nothing, or names something other than a class of the face is a one-line error."""
        if name in self._loaded:
            return self._loaded[name]
        entry = self.entry(name)
        where = f"the {self.kind} {name!r}" + (f" (plugin from {entry.plugin})" if entry.plugin else "")
        module_name, colon, attr = entry.target.partition(":")
        if not colon or not module_name or not attr:
            raise ConfigError(f"{where} names {entry.target!r}, not module:Class; fix its entry point")
        target = _resolve(module_name, attr, where, entry)
        if not isinstance(target, type):
            kind = type(target).__name__
            raise ConfigError(f"{where} names {entry.target}, {'an' if kind[0] in 'aeiou' else 'a'} {kind}, not a class; "
                              "fix its entry point")
        base = _import_path(self.base) if self.base else None
        if base is not None and not issubclass(target, base):
            raise ConfigError(f"{where} names {entry.target}, which is not a {self.kind} (a subclass of {self.base})")
        self._loaded[name] = target  # resolved once: a run asks for its relations' classes per finding
        return target

    def plugin_version(self, name: str) -> Optional[tuple[str, str]]:
        """(distribution, version) of the plugin that provides ``name``; None for sit's own."""
        entry = self.entry(name)
        if not entry.plugin:
            return None
        from importlib.metadata import PackageNotFoundError, version

        try:
            return entry.plugin, version(entry.plugin)
        except PackageNotFoundError:
            return entry.plugin, "?"

    def build(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """``name``'s class called with ``args`` and ``kwargs``; a plugin's class that raises
        anything but sit's own errors while it starts is a one-line ConfigError naming the plugin
        (sit's own classes raise what they raise)."""
        cls = self.get(name)
        entry = self._entries.get(name)
        if entry is None or not entry.plugin:
            return cls(*args, **kwargs)
        try:
            return cls(*args, **kwargs)
        except SitError:
            raise
        except Exception as exc:  # noqa: BLE001 - a plugin's __init__ may raise anything
            why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
            raise ConfigError(f"the {self.kind} {name!r} (plugin from {entry.plugin}) failed to start ({why}); "
                              f"fix or uninstall {entry.plugin}, or leave it out of SIT_PLUGINS") from exc

    def create(self, name: str, **kwargs: Any) -> Any:
        """An instance of ``name``; it keeps its :class:`Factory` in ``factory`` so that an engine
        can rebuild it in a worker (see :func:`sit.batching.remote`)."""
        cls = self.get(name)
        obj = self.build(name, **kwargs)
        rebuild = {k: v for k, v in kwargs.items() if k not in ("cache", "progress")}
        try:
            obj.factory = Factory(f"{cls.__module__}:{cls.__qualname__}", rebuild)
        except AttributeError:  # a class with __slots__ or a read-only attribute: stays in process
            pass
        return obj


@functools.lru_cache(maxsize=4)
def _installed_entry_points(path: tuple[str, ...]) -> Any:
    """Every entry point of the distributions on ``path`` (``sys.path``), read once a process for
    that path: each registry reading its own group read every distribution's entry points again
    (six registries, 30 ms of a cached run). What it raises (a damaged distribution) is not kept."""
    from importlib.metadata import entry_points

    return entry_points()


@functools.lru_cache(maxsize=1)
def _unreadable_distributions() -> frozenset[str]:
    """The folders of the installed distributions whose entry points cannot be read, each named
    in a warning (once a process: every registry reads them)."""
    from importlib.metadata import distributions

    damaged = set()
    for dist in distributions():
        try:
            dist.metadata["Name"], dist.entry_points
        except Exception as exc:  # noqa: BLE001 - what a damaged file makes the reader raise
            where = _where(dist)
            damaged.add(where)
            why = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
            log.warning("sit cannot read the entry points of %s (%s); its plugins are not used: reinstall or "
                        "uninstall it", where, why)
    return frozenset(damaged)


def _where(dist: Any) -> str:
    """An installed distribution as a warning names it: its name (where its metadata reads) in
    the folder that holds it."""
    try:
        name = dist.metadata["Name"] or "a distribution"
    except Exception:  # noqa: BLE001 - a damaged METADATA
        name = "a distribution"
    return f"{name} in {dist.locate_file('')}"


def plugins_allowed(env: Optional[Mapping[str, str]] = None) -> Optional[frozenset[str]]:
    """The distributions ``$SIT_PLUGINS`` allows (a comma list; ``""``: none), or None where it
    is not set (every installed plugin)."""
    value = (os.environ if env is None else env).get("SIT_PLUGINS")
    if value is None:
        return None
    return frozenset(n.strip() for n in value.split(",") if n.strip())


def _import_path(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _resolve(module_name: str, attr: str, where: str, entry: Entry) -> Any:
    """``module_name``'s ``attr``, imported; what goes wrong as one line naming ``where``."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        hint = f"; install it with: {entry.hint}" if entry.hint else ""
        raise MissingDependencyError(f"{where} needs a package that is not installed ({exc.name or exc}){hint}") from exc
    except Exception as exc:  # noqa: BLE001 - a plugin's module may raise anything while importing
        why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        fix = f"fix or uninstall {entry.plugin}, or leave it out of SIT_PLUGINS" if entry.plugin else "fix it"
        raise ConfigError(f"{where} failed to import {module_name} ({why}); {fix}") from exc
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ConfigError(f"{where} names {entry.target}, but {module_name} has no {attr!r}; fix its entry point") from None

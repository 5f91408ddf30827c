"""Options given as ``KEY=VALUE``: the one parser and the one check of their names, shared by
``--perturber-option``, ``--relation-option``, ``--translator-option`` and ``sit perturb --option``.

Which names a component takes is its own business (the keyword parameters of a perturber's or a
relation's constructors, :func:`accepted_options`; a translator's declared ``option_names``); an
option it does not take is one :class:`~sit.errors.ConfigError` listing the options it does take.
"""

from __future__ import annotations

import inspect
import json
from typing import Any, Iterable, Mapping, Sequence

from .errors import ConfigError

#: constructor parameters that are machinery, not options a user gives
MACHINERY = frozenset({"self", "cache", "progress", "nlp", "tagger"})


def parse_key_values(items: Iterable[str], flag: str = "--option") -> dict[str, Any]:
    """``["rate=0.2", 'protect=["EU"]', "name=x"]`` -> ``{"rate": 0.2, "protect": ["EU"], "name": "x"}``:
    values are JSON where they parse as JSON, else strings."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} takes KEY=VALUE, got {item!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def accepted_options(cls: type, machinery: frozenset = MACHINERY) -> list[str]:
    """The options class ``cls`` (a perturber, a relation) takes, in the order its constructors
    declare them, less the ``machinery`` parameters."""
    names: list[str] = []
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        params = inspect.signature(init).parameters.values()
        names += [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            break
    ignored = set(getattr(cls, "ignored_options", ()))
    return [n for n in dict.fromkeys(names) if n not in machinery and n not in ignored]


def check_known(given: Mapping[str, Any], accepted: Sequence[str], owner: str) -> None:
    """A ConfigError naming the keys of ``given`` that ``owner`` (e.g. "the deepl translator")
    does not take, and listing the ones it does."""
    unknown = [k for k in given if k not in accepted]
    if unknown:
        raise ConfigError(
            f"{owner} has no option {', '.join(map(repr, unknown))}; its options: {', '.join(accepted) or 'none'}"
        )

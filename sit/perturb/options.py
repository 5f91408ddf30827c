"""Perturber options: one parser of ``KEY=VALUE`` and one validator, for ``sit run
--perturber-option``, ``sit perturb --option`` (and its flags) and ``sit summarize``.

A perturber takes the keyword parameters of its constructors (through ``**options`` up its
classes), less the machinery (``cache``, ``progress``, objects such as ``nlp`` or ``tagger``) and
less :attr:`Perturber.ignored_options`, the inherited options it has no use for (``n`` for a
reordering). An option it does not take is an error naming the options it does take.
"""

from __future__ import annotations

import inspect
import json
from typing import Any, Iterable, Mapping, Optional

from ..errors import ConfigError

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


def perturber_options(
    name: str, given: Mapping[str, Any], defaults: Optional[Mapping[str, Any]] = None
) -> dict[str, Any]:
    """The options to create perturber ``name`` with: ``defaults`` (run-wide settings such as
    ``num_perturb`` or ``device``) where the perturber takes them, then ``given`` (what the user
    asked for), every one of which it must take (ConfigError listing its options otherwise)."""
    from . import PERTURBERS

    accepted = accepted_options(PERTURBERS.get(name))
    unknown = [k for k in given if k not in accepted]
    if unknown:
        raise ConfigError(
            f"the {name} perturber has no option {', '.join(map(repr, unknown))}; "
            f"its options: {', '.join(accepted) or 'none'}"
        )
    opts = {k: v for k, v in (defaults or {}).items() if k in accepted and v is not None}
    opts.update(given)
    return opts

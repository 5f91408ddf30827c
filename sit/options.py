"""Options given as ``KEY=VALUE``: the one parser and the one check of their names, shared by
``--perturber-option``, ``--relation-option``, ``--translator-option`` and ``sit perturb --option``.

Which names a component takes is its own business (the keyword parameters of a perturber's or a
relation's constructors, :func:`accepted_options`; a translator's declared ``option_names``); an
option it does not take is one :class:`~sit.errors.ConfigError` listing the options it does take.
Every value goes through :mod:`sit.validate` by the type of its declared default
(:func:`check_option`): ``per_slot=2.7``, ``per_slot=true`` or ``min_zipf=inf`` is refused, not
rounded or taken.
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


def declared_options(cls: type, machinery: frozenset = MACHINERY) -> dict[str, Any]:
    """The options class ``cls`` (a perturber, a relation) takes, with their defaults, in the order
    its constructors declare them (a subclass's default first), less the ``machinery`` parameters."""
    declared: dict[str, Any] = {}
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        params = inspect.signature(init).parameters.values()
        for p in params:
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
                declared.setdefault(p.name, None if p.default is p.empty else p.default)
        if not any(p.kind == p.VAR_KEYWORD for p in params):
            break
    ignored = set(getattr(cls, "ignored_options", ()))
    return {n: d for n, d in declared.items() if n not in machinery and n not in ignored}


def accepted_options(cls: type, machinery: frozenset = MACHINERY) -> list[str]:
    """The names of :func:`declared_options`."""
    return list(declared_options(cls, machinery))


def check_option(name: str, value: Any, default: Any, **rule: Any) -> Any:
    """``value`` of option ``name`` checked by the type of its ``default``: a bool takes true or
    false, an int a whole number, a float a finite number (with ``rule``: ``minimum``,
    ``maximum`` ... as :func:`sit.validate.check_number`), a text a text (a number is taken as its
    text); an option without a typed default takes any value."""
    from .validate import check_bool, check_number

    if value is None:
        return None
    if isinstance(default, bool):
        return check_bool(value, name)
    if isinstance(default, (int, float)):
        return check_number(value, name, integer=isinstance(default, int), **rule)
    if isinstance(default, str):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            raise ConfigError(f"{name} takes a text, got {value!r}")
    return value


def checked_options(given: Mapping[str, Any], declared: Mapping[str, Any], owner: str) -> dict[str, Any]:
    """``given`` with every key known to ``owner`` (:func:`check_known`) and every value checked
    against its declared default (:func:`check_option`)."""
    check_known(given, list(declared), owner)
    return {k: check_option(k, v, declared[k]) for k, v in given.items()}


def check_known(given: Mapping[str, Any], accepted: Sequence[str], owner: str) -> None:
    """A ConfigError naming the keys of ``given`` that ``owner`` (e.g. "the deepl translator")
    does not take, and listing the ones it does."""
    unknown = [k for k in given if k not in accepted]
    if unknown:
        raise ConfigError(
            f"{owner} has no option {', '.join(map(repr, unknown))}; its options: {', '.join(accepted) or 'none'}"
        )

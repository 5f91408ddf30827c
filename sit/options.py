"""Component options: one typed declaration (:class:`Option`) for translators, perturbers,
parsers, relations and judges, one parser of ``KEY=VALUE`` and one check, shared by
``--perturber-option``, ``--relation-option``, ``--translator-option``, ``--set`` and
``sit perturb --option`` (docs/plugins.md).

A component declares what it takes as a class attribute ``option_specs = (Option(...), ...)``
(``options`` is taken: it is the method that says which options change a component's output).
Declarations are read up the classes (a subclass's first); a keyword parameter of the
constructors that none declares is introspected, typed by its default (:func:`declared_options`):
the fallback for components that declare nothing (plugins of old). An option a component does
not take is one :class:`~sit.errors.ConfigError` listing the options it does take; every value
goes through :mod:`sit.validate` by its declared type (:meth:`Option.check`): ``per_slot=2.7``,
``per_slot=true`` or ``min_zipf=inf`` is refused, not rounded or taken.

An option declared ``run_wide`` is a setting of the whole run: ``sit run --set NAME=VALUE`` (or
the flag it declares, such as ``--distance``) sets it for every component of the run that
declares it (``RunConfig.options``); ``NAME`` is its :attr:`Option.key`.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence

from .errors import ConfigError

#: constructor parameters that are machinery, not options a user gives
MACHINERY = frozenset({"self", "cache", "progress", "nlp", "tagger"})


@dataclass(frozen=True)
class Option:
    """One option of a component: its ``name`` (the constructor keyword), ``type`` (``bool``,
    ``int``, ``float``, ``str``, or ``object`` for any value), ``default``, a ``help`` line, and
    its rule (``minimum``/``maximum`` for numbers, ``choices`` for texts). ``run_wide``: a setting
    of the whole run (``sit run --set KEY=VALUE``, :attr:`key`; ``flag``: the flag of ``sit run``
    made from this declaration that sets it too, such as ``--distance``), given to every component
    of the run that declares it; its ``default`` is then the run's default."""

    name: str
    type: type = object
    default: Any = None
    help: str = ""
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    choices: tuple = ()
    run_wide: bool = False
    flag: Optional[str] = None
    #: the run-wide name where it differs from :attr:`name` (the mlm perturber's ``model`` is
    #: the run's ``mlm_model``)
    setting: Optional[str] = None
    #: what a number's rule means, said where a value breaks it ("0 turns the check off")
    what: str = ""
    #: a number's rule: strictly above this (``--qps``, ``--timeout``)
    above: Optional[float] = None

    @property
    def key(self) -> str:
        """The name ``--set`` and ``RunConfig.options`` know it by."""
        return self.setting or self.name

    def check(self, value: Any, label: str = "") -> Any:
        """``value`` checked by this option's type and rule (a ConfigError naming ``label``, else
        the option's name); None passes (the default applies)."""
        from .validate import check_bool, check_number

        label = label or self.name
        if value is None:
            return None
        if self.type is bool:
            return check_bool(value, label)
        if self.type in (int, float):
            value = check_number(value, label, integer=self.type is int, minimum=self.minimum, above=self.above,
                                 maximum=self.maximum, what=self.what)
        elif self.type is str:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                raise ConfigError(f"{label} takes a text, got {value!r:.60}")
        if self.choices and value not in self.choices:
            raise ConfigError(f"unknown {label} {value!r:.60}; choose one of: {', '.join(map(str, self.choices))}")
        return value


def typed(name: str, default: Any) -> Option:
    """The :class:`Option` a constructor keyword declares by its default alone (introspection):
    typed by the default's type, any value where the default is None or of another type."""
    kind = type(default) if isinstance(default, (bool, int, float, str)) else object
    return Option(name, kind, default)


def option_specs(cls: type, machinery: frozenset = frozenset()) -> dict[str, Option]:
    """Name -> :class:`Option` of every option class ``cls`` takes: the keyword parameters of its
    constructors, each as its classes declare it (``option_specs``, a subclass's first) or else
    typed by its default (:func:`typed`), then those declared alone; less the ``machinery`` and
    ``ignored_options``."""
    declared: dict[str, Option] = {}
    for klass in cls.__mro__:
        for spec in klass.__dict__.get("option_specs", None) or ():
            declared.setdefault(spec.name, spec)
    # in the order the constructors take them (a subclass's first), then those only declared
    specs = {name: declared.get(name) or typed(name, default) for name, default in _introspected(cls).items()}
    specs.update({n: s for n, s in declared.items() if n not in specs})
    ignored = set(getattr(cls, "ignored_options", ())) | set(machinery) | set(MACHINERY)
    return {n: s for n, s in specs.items() if n not in ignored}


def run_wide(cls: type, machinery: frozenset = frozenset()) -> list[Option]:
    """The run-wide options class ``cls`` declares (:attr:`Option.run_wide`)."""
    return [s for s in option_specs(cls, machinery).values() if s.run_wide]


def check_given(given: Mapping[str, Any], specs: Mapping[str, Option], owner: str, label: str = "") -> dict[str, Any]:
    """``given`` with every key one of ``specs`` (:func:`check_known`, naming ``owner``) and every
    value checked by its :class:`Option` (an error names ``label`` and the key, such as
    ``--translator-option beam_size``)."""
    check_known(given, list(specs), owner)
    return {k: specs[k].check(v, f"{label}{k}") for k, v in given.items()}


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


def _introspected(cls: type) -> dict[str, Any]:
    """The keyword parameters of ``cls``'s constructors with their defaults (None where they have
    none), a subclass's first, up the classes while a constructor passes ``**options`` on."""
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
    return declared


def declared_options(cls: type, machinery: frozenset = MACHINERY) -> dict[str, Any]:
    """The options class ``cls`` (a perturber, a relation) takes, with their defaults
    (:func:`option_specs`: its declarations, then its constructors' other keyword parameters in
    the order they declare them), less the ``machinery`` parameters."""
    return {n: s.default for n, s in option_specs(cls, machinery).items()}


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
    return check_given(given, {n: typed(n, d) for n, d in declared.items()}, owner)


def check_known(given: Mapping[str, Any], accepted: Sequence[str], owner: str) -> None:
    """A ConfigError naming the keys of ``given`` that ``owner`` (e.g. "the deepl translator")
    does not take, and listing the ones it does."""
    unknown = [k for k in given if k not in accepted]
    if unknown:
        raise ConfigError(
            f"{owner} has no option {', '.join(map(repr, unknown))}; its options: {', '.join(accepted) or 'none'}"
        )


def named_options(cls: type) -> dict[str, Option]:
    """The options of a component that lists what a user may set (translators, judges, whose
    constructors take machinery too): the :class:`Option`\\ s its classes declare
    (``option_specs``), then the names of an ``option_names`` tuple of old, untyped."""
    specs: dict[str, Option] = {}
    for klass in cls.__mro__:
        for spec in klass.__dict__.get("option_specs", None) or ():
            specs.setdefault(spec.name, spec)
    for name in getattr(cls, "option_names", ()) or ():
        specs.setdefault(name, Option(name))
    return specs


def run_wide_of(classes: Iterable[type], machinery: frozenset = frozenset()) -> dict[str, Option]:
    """:attr:`Option.key` -> the first run-wide :class:`Option` one of ``classes`` declares."""
    found: dict[str, Option] = {}
    for cls in classes:
        for spec in run_wide(cls, machinery):
            found.setdefault(spec.key, spec)
    return found


def described(spec: Option) -> str:
    """One line of what option ``spec`` is, as ``sit list -v`` and ``sit run --help`` say it:
    ``name (type, default D; run-wide: --set KEY or FLAG): help``."""
    kind = spec.type.__name__ if spec.type is not object else "any"
    rule = [f"at least {spec.minimum:g}"] if spec.minimum is not None else []
    rule += [f"above {spec.above:g}"] if spec.above is not None else []
    rule += [f"at most {spec.maximum:g}"] if spec.maximum is not None else []
    rule += [f"one of {', '.join(map(str, spec.choices))}"] if spec.choices else []
    said = [kind, f"default {spec.default!r}", *rule]
    if spec.run_wide:
        said.append(f"run-wide: --set {spec.key}" + (f" or {spec.flag}" if spec.flag else ""))
    return f"{spec.name} ({'; '.join(said)})" + (f": {spec.help}" if spec.help else "")

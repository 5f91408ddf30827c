"""The one check of numeric (and true/false) options and settings: finite, of the right kind,
within range.

Library code calls :func:`check_number` where a value enters (a constructor, an entry point), so
the same rule holds for the command line, environment variables and Python callers; a bad value is
a :class:`~sit.errors.ConfigError` naming the option, before any work."""

from __future__ import annotations

import math
from typing import Optional

from .errors import ConfigError


def check_number(value, name: str, *, minimum: Optional[float] = None, above: Optional[float] = None,
                 maximum: Optional[float] = None, integer: bool = False, what: str = ""):
    """``value`` if it is a finite number (an integer where ``integer``) with ``value >= minimum``,
    ``value > above`` and ``value <= maximum``; else a ConfigError naming ``name``. Strings are
    parsed (environment variables, KEY=VALUE options); ``None`` passes through (the default applies)."""
    if value is None:
        return None
    kind = "an integer" if integer else "a finite number"
    rule = kind + (f" of at least {minimum:g}" if minimum is not None else "") + (
        f" above {above:g}" if above is not None else "") + (
        f" and at most {maximum:g}" if maximum is not None else "") + (f" ({what})" if what else "")
    try:
        if isinstance(value, bool):
            raise ValueError
        number = (int(value) if isinstance(value, int) else _int(value)) if integer else float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be {rule}, not {value!r}") from None
    if (not math.isfinite(number) or (minimum is not None and number < minimum)
            or (above is not None and number <= above) or (maximum is not None and number > maximum)):
        raise ConfigError(f"{name} must be {rule}, not {value!r}")
    return number


def check_bool(value, name: str):
    """``value`` if it is ``True``, ``False`` or ``None`` (the default applies); else a
    ConfigError naming ``name``."""
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{name} takes true or false, got {value!r}")
    return value


def names_list(value, name: str) -> tuple[str, ...]:
    """A comma list (``"a, b"``) or a list/tuple of names -> the names, stripped, each once, in the
    order given; a ConfigError naming ``name`` for any other type. Checking the names themselves is
    the caller's."""
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise ConfigError(f"{name} takes a comma list of names, got {value!r}")
    return tuple(dict.fromkeys(str(n).strip() for n in items if str(n).strip()))


def _int(value) -> int:
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError
        return int(value)
    return int(str(value).strip())

"""The one check of numeric (and true/false) options and settings: finite, of the right kind,
within range.

Library code calls :func:`check_number` where a value enters (a constructor, an entry point), so
the same rule holds for the command line, environment variables and Python callers; a bad value is
a :class:`~sit.errors.ConfigError` naming the option, before any work."""

from __future__ import annotations

import math
import re
from typing import Optional

from .errors import ConfigError

#: every number sit takes lies within this (a count, a size, seconds): nothing overflows a float,
#: a sleep or a socket timeout, and no loop runs 10**300 times
MAX_NUMBER = 1e9
#: the digits a number written as text may have (a 5000-digit integer is refused before int())
MAX_DIGITS = 40

#: ranges of the settings that have one beyond their caller's rule, by the setting's last word
#: (``--qps``, ``SIT_HTTP_BACKOFF``, ``wordnet: num_perturb``): (minimum, maximum, what)
RANGES: dict[str, tuple[Optional[float], float, str]] = {
    "timeout": (0.001, 86400.0, "seconds, at most a day"),
    "qps": (0.001, 100000.0, "requests per second, at least one every 1000 s"),
    "backoff": (0.0, 3600.0, "seconds, at most an hour"),
    "backoff_max": (0.0, 86400.0, "seconds, at most a day"),
    "max_retry_after": (0.0, 86400.0, "seconds, at most a day"),
    "max_retries": (0, 100, "retries"),
    "retries": (0, 100, "retries"),
    "concurrency": (1, 256, "requests in flight"),
    "workers": (1, 4096, "workers"),
    "jobs": (1, 1024, "processes"),
    "num_perturb": (1, 1000, "perturbations per sentence"),
    "batch_size": (1, 1_000_000, "items per batch"),
    "max_line_chars": (1, 1_000_000, "characters per line"),
    "batch_items": (2, 1000, "texts per request"),
    "max_tokens": (1, 1_000_000, "tokens"),
    "max_new_tokens": (1, 1_000_000, "tokens"),
    "num_beams": (1, 256, "beams"),
    "beam_size": (1, 256, "beams"),
}


def _setting(name: str) -> str:
    """The last word of a setting's name: ``--num-perturb`` -> ``num_perturb``,
    ``SIT_HTTP_BACKOFF`` -> ``backoff``, ``wordnet: num_perturb`` -> ``num_perturb``."""
    word = name.split()[-1].lstrip("-").lower().replace("-", "_") if name.strip() else ""
    return word[len("sit_http_"):] if word.startswith("sit_http_") else word


def check_number(value, name: str, *, minimum: Optional[float] = None, above: Optional[float] = None,
                 maximum: Optional[float] = None, integer: bool = False, what: str = ""):
    """``value`` if it is a finite number (an integer where ``integer``) with ``value >= minimum``,
    ``value > above`` and ``value <= maximum``; else a ConfigError naming ``name``. Strings are
    parsed (environment variables, KEY=VALUE options); ``None`` passes through (the default applies).

    The setting's range in :data:`RANGES` (by the last word of ``name``) tightens the caller's
    rule, and every number lies within ±:data:`MAX_NUMBER`, so that no value can overflow or make
    work unbounded."""
    if value is None:
        return None
    if isinstance(value, str) and len(value.strip()) > MAX_DIGITS:
        value = value.strip()[:MAX_DIGITS] + "..."  # shown cut, refused below
    kind = "an integer" if integer else "a finite number"
    rule = kind + (f" of at least {minimum:g}" if minimum is not None else "") + (
        f" above {above:g}" if above is not None else "") + (
        f" and at most {maximum:g}" if maximum is not None else "") + (f" ({what})" if what else "")
    try:
        if isinstance(value, bool) or (isinstance(value, str) and value.endswith("...")):
            raise ValueError
        if isinstance(value, int) and value.bit_length() > 128:
            raise ValueError  # a 5000-digit integer: not even shown whole
        number = (int(value) if isinstance(value, int) else _int(value)) if integer else float(value)
    except (TypeError, ValueError, OverflowError):
        shown = "an integer of many digits" if isinstance(value, int) and not isinstance(value, bool) else f"{value!r:.60}"
        raise ConfigError(f"{name} must be {rule}, not {shown}") from None
    if (not math.isfinite(number) or (minimum is not None and number < minimum)
            or (above is not None and number <= above) or (maximum is not None and number > maximum)):
        raise ConfigError(f"{name} must be {rule}, not {value!r:.60}")
    return _in_range(number, name, value)


def _in_range(number, name: str, given):
    """``number`` if it lies within its setting's :data:`RANGES` entry and ±:data:`MAX_NUMBER`."""
    low, high, why = RANGES.get(_setting(name), (None, MAX_NUMBER, ""))
    high = min(high, MAX_NUMBER)
    if low is not None and number < low:
        raise ConfigError(f"{name} must be at least {low:g} ({why}), not {given!r:.60}")
    if abs(number) > high:
        raise ConfigError(f"{name} must be at most {high:g}" + (f" ({why})" if why else "") + f", not {given!r:.60}")
    return number


def check_bool(value, name: str):
    """``value`` if it is ``True``, ``False`` or ``None`` (the default applies); else a
    ConfigError naming ``name``."""
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{name} takes true or false, got {value!r}")
    return value


_LANGUAGE = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*")


def check_language(value, name: str) -> Optional[str]:
    """``value`` if it is a language code (``es``, ``zh-Hans``, ``pt_BR``); ``None`` passes (the
    default applies). An empty code (``--target-lang=``), spaces or other characters are a
    ConfigError naming ``name``: an empty one would silently run the default language."""
    if value is None:
        return None
    if not isinstance(value, str) or not _LANGUAGE.fullmatch(value):
        shown = "empty" if value == "" else f"{str(value)[:40]!r}, not a language code"
        raise ConfigError(f"{name} is {shown}; give a code such as es or zh-Hans, or leave it out for the default")
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

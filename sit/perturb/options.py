"""Perturber options: the one parser of ``KEY=VALUE`` and validator (:mod:`sit.options`), for ``sit run
--perturber-option``, ``sit perturb --option`` (and its flags) and ``sit summarize``.

A perturber takes the options its classes declare (``option_specs``, :class:`sit.options.Option`)
and the other keyword parameters of its constructors (through ``**options`` up its classes),
less the machinery (``cache``, ``progress``, objects such as ``nlp`` or ``tagger``) and
less :attr:`Perturber.ignored_options`, the inherited options it has no use for (``n`` for a
reordering). An option it does not take is an error naming the options it does take.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ..options import MACHINERY, accepted_options, check_given, option_specs, parse_key_values

__all__ = ["MACHINERY", "accepted_options", "parse_key_values", "perturber_options"]


def perturber_options(
    name: str, given: Mapping[str, Any], defaults: Optional[Mapping[str, Any]] = None
) -> dict[str, Any]:
    """The options to create perturber ``name`` with: ``defaults`` (run-wide settings such as
    ``num_perturb`` or ``device``) where the perturber takes them, then ``given`` (what the user
    asked for), every one of which it must take (ConfigError listing its options otherwise)."""
    from . import PERTURBERS

    declared = option_specs(PERTURBERS.get(name))
    given = check_given(given, declared, f"the {name} perturber")
    opts = {k: v for k, v in (defaults or {}).items() if k in declared and v is not None}
    opts.update(given)
    return opts

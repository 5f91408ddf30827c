"""A re-run into the same ``--out`` is the same run: what ``auto`` chose the first time (the
perturber, the parser) is chosen again where it is still available, whatever came into the
caches since (a masked LM downloaded for another project, Stanza's models): the run's plan keeps
them (:func:`sit.plan.keep_auto_choices`); where it cannot, the refusal to write over the earlier
run names each field that differs.

* :func:`earlier_signature`: the signature of the run already in a directory, or None.
* :func:`differences`: what differs between two signatures, one ``field: then, now`` each (an
  option of a component's block by its dotted name).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from .records import RunSignature

def earlier_signature(out: Path) -> Optional[RunSignature]:
    """The signature of the run whose run.json is in ``out``; None where there is none or it cannot
    be read (the refusal to write over it says so, :func:`sit.rundir.check_same_run`)."""
    from .jsonio import loads

    try:
        return RunSignature.from_dict(loads((Path(out) / "run.json").read_bytes())["signature"])
    except Exception:  # no run, or a damaged one: nothing to keep
        return None


def differences(old: RunSignature, new: RunSignature) -> list[str]:
    """Each field (package versions aside) whose value differs: ``field: OLD there, NEW now``; in a
    component's options, each option that differs (``relations.sit.distance: relation there,
    head-relation now``, ``perturber_options.num_perturb: 10 there, 5 now``). A signature of old
    compares by its components' blocks (its fixed ``num_perturb`` and ``distance`` are theirs)."""
    a, b = old.to_dict(), new.to_dict()
    a.pop("versions", None)
    b.pop("versions", None)
    return [f"{key}: {_short(x)} there, {_short(y)} now" for key, x, y in _differing(a, b)]


def _differing(a: dict, b: dict, prefix: str = "") -> list[tuple[str, Any, Any]]:
    """(dotted key, value in ``a``, value in ``b``) of each leaf that differs, ``a``'s keys first."""
    out: list[tuple[str, Any, Any]] = []
    for key in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        if isinstance(x, dict) and isinstance(y, dict):
            out += _differing(x, y, f"{prefix}{key}.")
        else:
            out.append((f"{prefix}{key}", x, y))
    return out


def _short(value: Any, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."

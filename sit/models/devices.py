"""torch and the devices models run on: :func:`import_torch_transformers` (or an install hint),
:func:`resolve_device` and :func:`checked_device`, the one check of ``--device`` for every model
(torch's, and CTranslate2's through ``cuda_count``)."""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..errors import ConfigError, MissingDependencyError
from ..registry import TORCH_INSTALL_HINT


def import_torch_transformers(what: str, alternative: str = ""):
    """``(torch, transformers)``, or a :class:`MissingDependencyError` saying what ``what`` needs
    (and the ``alternative`` that needs neither). Where this imports transformers, it does so
    without SciPy (:data:`sit.models.imports.TRANSFORMERS_OPTIONAL`): transformers decides then, once
    a process, whether its losses import it."""
    from .imports import TRANSFORMERS_OPTIONAL, hidden_modules

    try:
        import torch

        with hidden_modules(TRANSFORMERS_OPTIONAL):
            import transformers
    except ImportError as exc:
        raise MissingDependencyError(
            f"{what} needs torch and transformers: {TORCH_INSTALL_HINT}"
            + (f" ({alternative})" if alternative else "")
        ) from exc
    return torch, transformers


AUTO_DEVICES = (None, "", "auto")


def _torch_cuda_count(what: str) -> Callable[[], int]:
    try:
        import torch
    except ImportError as exc:
        raise MissingDependencyError(f"{what}: torch is not installed ({TORCH_INSTALL_HINT})") from exc
    return lambda: torch.cuda.device_count() if torch.cuda.is_available() else 0


def _torch_has(torch, kind: str) -> bool:
    """Whether torch can run models on device type ``kind`` (mps, xpu ...) here; never on meta."""
    backend = getattr(torch.backends, kind, None) or getattr(torch, kind, None)
    return bool(getattr(backend, "is_available", lambda: False)())


def _torch_device(device: str, what: str) -> str:
    """``device`` as torch names it; a ConfigError if torch does not know it, or if it is neither
    cpu, cuda nor a device type this machine has (mps, xpu ...; never meta)."""
    import torch

    try:
        dev = str(torch.device(device))
    except (RuntimeError, TypeError, ValueError):
        raise ConfigError(
            f"--device {device!r} is not a torch device; use cpu, cuda, cuda:N or mps (or leave it out: "
            "cuda where available, else cpu)"
        ) from None
    kind = dev.partition(":")[0]
    if kind not in ("cpu", "cuda") and not _torch_has(torch, kind):
        raise ConfigError(f"--device {device}: {kind} is not available on this machine for {what}; use --device cpu")
    return dev


def resolve_device(device: Optional[str], what: str = "the models", *,
                   cuda_count: Optional[Callable[[], int]] = None) -> str:
    """The device ``what`` runs on: ``device`` checked, or (None, "" or "auto") cuda where
    available, else cpu. A device torch does not know, or one this machine lacks, is a
    :class:`ConfigError` in one line naming ``--device``, raised before any model loads.

    ``cuda_count`` counts the CUDA devices of a runtime other than torch (CTranslate2's); such a
    runtime runs on cpu, cuda and cuda:N only, and torch is not needed."""
    count = cuda_count or _torch_cuda_count(what)
    if device in AUTO_DEVICES:
        return "cuda" if count() > 0 else "cpu"
    dev = str(device).strip()
    if cuda_count is None:
        dev = _torch_device(dev, what)
    elif not re.fullmatch(r"(cpu|cuda)(:\d+)?", dev):
        raise ConfigError(f"--device {device!r}: {what} runs on cpu, cuda or cuda:N")
    kind, _, index = dev.partition(":")
    if kind == "cuda" and int(index or 0) >= count():
        raise ConfigError(
            f"--device {device}: this machine has {count()} usable CUDA device(s) for {what}; "
            "use --device cpu (or cuda:N with N below the count)"
        )
    return dev


def checked_device(device: Optional[str], what: str = "the models") -> Optional[str]:
    """``device`` checked now by :func:`resolve_device` where one is named, before any work; None
    where it is left to choose (resolved when the model loads, so that a run answered from the
    cache imports no torch, and an engine's worker chooses its own)."""
    return None if device in AUTO_DEVICES else resolve_device(device, what)

"""CTranslate2: a converted Marian, NLLB or M2M100 model run by ``ctranslate2.Translator``
(``translate_batch``), several times faster than transformers on a CPU.

``--model`` is the CTranslate2 model directory (``model.bin``). The tokenizer is the transformers
one: from the model directory when the conversion copied its files (``--copy_files``), else from
``--translator-option tokenizer=DIR_OR_ID`` (the model it was converted from). NLLB and M2M100
tokenizers are recognised and get their language codes (the target language as the decoder's
prefix); Marian takes none. Options: ``compute_type`` (int8 by default on a CPU, int8_float16 on
a GPU), ``beam_size`` (1), ``max_decoding_length`` (256), ``tokenizer``. ``--device`` cpu, cuda
or cuda:N (default cuda where CTranslate2 sees a GPU, else cpu).

A transformers model directory given as ``--model`` is refused before any work, with the
conversion command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ..options import Option
from ..models import hf
from .. import hints
from ..errors import ConfigError, ModelError
from ..validate import check_number
from .base import Translator
from .seq2seq import m2m100_code, nllb_code


def convert_hint(model: str) -> str:
    out = f"{Path(model).name or 'model'}-ct2"
    return (f"convert it first: {hints.CT2}, then `ct2-transformers-converter --model "
            f"{model} --output_dir {out} --quantization int8 --copy_files tokenizer_config.json` (add the "
            f"tokenizer's other files: sentencepiece models, vocab.json or tokenizer.json) and pass --model {out}")


class CTranslate2Translator(Translator):
    name = "ctranslate2"
    default_batch_size = 32
    option_specs = (Option("compute_type", str, None, "int8, int8_float16, float16... (default int8 on CPU)"),
                    Option("beam_size", int, 1, "beams of the search", minimum=1),
                    Option("max_decoding_length", int, 256, "the longest translation, in tokens", minimum=1),
                    Option("tokenizer", str, None, "the tokenizer's directory or hub id"))
    uses_gpu = True  # an engine gives its workers --gpus-per-worker

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, model: Optional[str] = None,
                 device: Optional[str] = None, compute_type: Optional[str] = None, beam_size: int = 1,
                 max_decoding_length: int = 256, tokenizer: Optional[str] = None, **kwargs):
        super().__init__(source_lang, target_lang, model=model, **kwargs)
        import ctranslate2

        self._ct2 = ctranslate2
        self.path = self._check_model(model)
        self.beam_size = check_number(beam_size, "--translator-option beam_size", minimum=1, integer=True)
        self.max_decoding_length = check_number(max_decoding_length, "--translator-option max_decoding_length",
                                                minimum=1, integer=True)
        self.ct2_device, self.device_index = self._device(device)
        self.compute_type = compute_type or ("int8" if self.ct2_device == "cpu" else "int8_float16")
        supported = ctranslate2.get_supported_compute_types(self.ct2_device, self.device_index)
        if self.compute_type not in supported | {"default", "auto"}:
            raise ConfigError(f"--translator-option compute_type={self.compute_type} is not supported on "
                              f"{self.ct2_device}; choose one of: {', '.join(sorted(supported))}")
        self.tokenizer_source = tokenizer or str(self.path)
        self._tokenizer = None
        self._translator = None
        self.translate_calls = 0

    # -- configuration -------------------------------------------------------------------------
    @staticmethod
    def _check_model(model: Optional[str]) -> Path:
        if not model:
            raise ConfigError("the ctranslate2 translator needs --model: a CTranslate2 model directory")
        path = Path(model).expanduser()
        if (path / "model.bin").is_file():
            return path
        if (path / "config.json").is_file():
            raise ConfigError(f"{model} is a transformers model, not a CTranslate2 model; {convert_hint(model)}")
        raise ModelError(f"{model} is not a CTranslate2 model directory (no model.bin); {convert_hint(model)}")

    def _device(self, device: Optional[str]) -> tuple[str, int]:
        """(device, index) for ``ctranslate2.Translator``, checked by :func:`sit.models.devices.resolve_device`
        against the CUDA devices CTranslate2 sees."""
        from ..models import resolve_device

        kind, _, index = resolve_device(device, "CTranslate2", cuda_count=self._ct2.get_cuda_device_count).partition(":")
        return kind, int(index or 0)

    def model_id(self) -> str:
        return str(self.model)

    def version(self) -> str:
        mtime = int((self.path / "model.bin").stat().st_mtime)
        return f"ctranslate2-{self._ct2.__version__}|mtime-{mtime}"

    def options(self) -> dict[str, Any]:
        return {"compute_type": self.compute_type, "beam_size": self.beam_size,
                "max_decoding_length": self.max_decoding_length}

    # -- the model -----------------------------------------------------------------------------
    def load(self):
        if self._translator is not None:
            return self._tokenizer, self._translator
        tokenizer = hf.load_tokenizer(self.tokenizer_source, failed=lambda exc: ModelError(
            f"cannot load the tokenizer of {self.model} from {self.tokenizer_source} ({type(exc).__name__}); pass "
            "--translator-option tokenizer=<the transformers model it was converted from>"))
        self._prefix = self._languages(tokenizer)
        self._translator = self._ct2.Translator(str(self.path), device=self.ct2_device, device_index=self.device_index,
                                                compute_type=self.compute_type)
        self._tokenizer = tokenizer
        return tokenizer, self._translator

    def _languages(self, tokenizer) -> Optional[str]:
        """Sets the tokenizer's source language; the target-language token (None for Marian)."""
        kind = type(tokenizer).__name__
        if kind.startswith("Nllb"):
            tokenizer.src_lang = nllb_code(self.source_lang)
            return nllb_code(self.target_lang)
        if kind.startswith("M2M100"):
            tokenizer.src_lang = m2m100_code(self.source_lang)
            return f"__{m2m100_code(self.target_lang)}__"
        return None

    def source_tokens(self, texts: list[str]) -> list[list[str]]:
        """The tokens CTranslate2 is given for ``texts``: those the transformers model is given,
        special tokens included (Marian's end with </s>; NLLB's and M2M100's start with the source
        language code)."""
        tokenizer, _ = self.load()
        return [tokenizer.convert_ids_to_tokens(tokenizer.encode(t)) for t in texts]

    def _translate_batch(self, texts: list[str]) -> list[str]:
        tokenizer, translator = self.load()
        source = self.source_tokens(texts)
        prefix = [[self._prefix]] * len(texts) if self._prefix else None
        results = translator.translate_batch(source, target_prefix=prefix, beam_size=self.beam_size,
                                             max_decoding_length=self.max_decoding_length)
        self.translate_calls += 1
        return [tokenizer.decode(tokenizer.convert_tokens_to_ids([t for t in r.hypotheses[0] if t != self._prefix]),
                                 skip_special_tokens=True).strip() for r in results]

    def close(self) -> None:
        self._translator = None
        self._tokenizer = None

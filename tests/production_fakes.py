"""Test translators for the production relations' recall (tests/test_production_relations_recall.py
and benchmarks/bench_recall.py): :class:`DictTranslator`, invariant by construction, and
:class:`FaultyTranslator`, which injects known faults into known texts. Registered by the callers
(``TRANSLATORS.register``), not by sit."""

from __future__ import annotations

import hashlib
import random
import re
from decimal import Decimal

from sit.translators.base import Translator

#: English -> Spanish, one word for one word (a few to two)
VOCAB = {
    "the": "el", "of": "de", "and": "y", "in": "en", "a": "un", "to": "a", "for": "para", "with": "con",
    "on": "en", "about": "sobre", "that": "que", "will": "va", "has": "tiene", "new": "nuevo",
    "government": "gobierno", "city": "ciudad", "bank": "banco", "company": "empresa", "price": "precio",
    "report": "informe", "budget": "presupuesto", "market": "mercado", "school": "escuela",
    "council": "consejo", "minister": "ministro", "president": "presidente", "hospital": "hospital",
    "workers": "trabajadores", "students": "estudiantes", "houses": "casas", "cars": "coches",
    "rose": "subió", "fell": "bajó", "said": "dijo", "approved": "aprobó", "rejected": "rechazó",
    "build": "construir", "close": "cerrar", "open": "abrir", "review": "revisar", "buy": "comprar",
    "percent": "por ciento", "dollars": "dólares", "monday": "lunes", "tuesday": "martes",
    "friday": "viernes", "local": "local", "national": "nacional", "small": "pequeño", "large": "grande",
    "old": "viejo", "public": "público", "visit": "visite", "read": "leer", "write": "escriba",
    "or": "o", "follow": "siga", "hello": "hola", "your": "su", "today": "hoy", "we": "nosotros",
    "plan": "plan", "this": "este", "year": "año", "more": "más", "than": "que", "spent": "gastó",
    "million": "millones", "news": "noticias", "details": "detalles", "see": "vea", "order": "pedido",
}
_PIECE = re.compile(r"(?P<number>(?<![\w.,])\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])\$?\d+(?:\.\d+)?(?![\w]))"
                    r"|(?P<word>(?<![\w@#{%/.`<])[A-Za-z]+(?![\w}@]))")
_KEEP = re.compile(r"https?://\S+?(?=[\s.]*(?:\s|$))|\S+@\S+\.\w+|[@#]\w+|\{\{\w+\}\}|\{\w+\}|%\(\w+\)d|%s|`[^`]+`|</?b>")


def _cased(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _number(text: str) -> str:
    from babel.numbers import format_decimal

    cur, digits = ("$", text[1:]) if text.startswith("$") else ("", text)
    decimals = len(digits.partition(".")[2])
    pattern = ("#,##0" if "," in digits else "0") + ("." + "0" * decimals if decimals else "")
    return cur + format_decimal(Decimal(digits.replace(",", "")), format=pattern, locale="es")


def clean_translation(text: str, invent: bool = False) -> str:
    """Word for word over :data:`VOCAB`, keeping tokens verbatim, numbers in Spanish format, case
    patterns and punctuation: invariant under every production relation by construction. With
    ``invent``, a lower-case word the vocabulary lacks gets a made-up Spanish-looking form (the
    word and ``o``) instead of standing as it was, as a real translator would translate it."""
    kept: list[str] = []

    def hide(m: re.Match) -> str:
        kept.append(m.group())
        return f"\0{len(kept) - 1}\0"

    def swap(m: re.Match) -> str:
        if m.group("number"):
            return _number(m.group("number"))
        word = m.group("word")
        if invent and word.islower() and word not in VOCAB:
            return word + "o"
        return _cased(VOCAB.get(word.lower(), word), word)

    hidden = _KEEP.sub(hide, text)
    out = _PIECE.sub(swap, hidden)
    return re.sub(r"\0(\d+)\0", lambda m: kept[int(m.group(1))], out)


class DictTranslator(Translator):
    """The clean test translator (:func:`clean_translation`), one text at a time."""

    name = "dict-test"
    default_batch_size = 32
    batch_independent = True

    def _translate_batch(self, texts: list[str]) -> list[str]:
        return [clean_translation(t) for t in texts]


FAULTS = ("number", "token", "loop", "untranslated", "case", "batch")
_EXTRA = ["hoy", "ayer", "ahora", "luego", "siempre", "nunca", "pronto", "tarde", "antes", "después",
          "aquí", "allí", "bien", "mal", "casi", "solo", "también", "todavía", "ya", "mucho"]


class FaultyTranslator(DictTranslator):
    """:class:`DictTranslator` with a fault injected into known texts (:attr:`faults`: text ->
    fault, set by :func:`corpus`): a number changed, a pass-through token dropped, a loop
    appended, the source returned untranslated, a word dropped where the text comes in another
    case, a word added that depends on the batch."""

    name = "faulty-test"
    faults: dict[str, str] = {}

    def _translate_batch(self, texts: list[str]) -> list[str]:
        return [self._one(t, texts) for t in texts]

    def _one(self, text: str, batch: list[str]) -> str:
        out = clean_translation(text)
        fault = self.faults.get(text)
        if fault is None:
            cased = self.faults.get(_original_case.get(text.lower(), ""))
            return " ".join(out.split()[:-1]) + "." if cased == "case" else out
        if fault == "batch":
            pick = int(hashlib.sha256("\n".join(batch).encode()).hexdigest(), 16) % len(_EXTRA)
            return out.rstrip(".") + " " + _EXTRA[pick] + "."
        return injected(text, out, fault)


_original_case: dict[str, str] = {}

TEMPLATES = (
    ("number", "The {noun} of the {adj} {place} rose {num} percent on {day}."),
    ("number", "The {place} council said the {adj} budget has {big} dollars for {plural}."),
    ("token", "Visit {url} to read the {adj} report about the {noun}."),
    ("token", "Hello {placeholder}, your {noun} has {num} new details today."),
    ("token", "Write to {email} or follow {handle} for the {adj} news."),
    ("quote", '"We will review the {noun}," the {noun} said on {day}.'),
    ("number", "The {noun} spent {money} million on {adj} {plural} this year."),
)
WORDS = {"noun": ["government", "bank", "company", "price", "market", "school", "minister", "president", "hospital"],
         "adj": ["new", "local", "national", "small", "large", "old", "public"],
         "place": ["city", "bank", "school"], "day": ["Monday", "Tuesday", "Friday"],
         "plural": ["workers", "students", "houses", "cars"],
         "url": ["https://example.org/news", "https://example.com/plan?year=1", "http://www.example.net/order"],
         "placeholder": ["{name}", "%s", "%(count)d", "{{user}}"],
         "email": ["press@example.org", "desk@example.com"], "handle": ["@citydesk", "@newsroom"]}


def corpus(n: int = 200, per_fault: int = 20, seed: int = 7) -> tuple[list[str], dict[str, str]]:
    """``n`` distinct sentences from :data:`TEMPLATES`, and the faults of ``per_fault`` of them per
    fault type (text -> fault; numbers into sentences with numbers, tokens into sentences with
    tokens), disjoint. Sets :attr:`FaultyTranslator.faults`."""
    rng = random.Random(seed)
    texts: list[str] = []
    kinds: dict[str, str] = {}
    while len(texts) < n:
        kind, template = rng.choice(TEMPLATES)
        fill = {k: rng.choice(v) for k, v in WORDS.items()}
        text = template.format(num=f"{rng.randint(1, 40)}.{rng.randint(1, 9)}", big=f"{rng.randint(2, 900)},{rng.randint(100, 999)}",
                               money=f"${rng.randint(2, 99)}", **fill)
        if text not in kinds:
            texts.append(text)
            kinds[text] = kind
    faults: dict[str, str] = {}
    free = list(texts)
    rng.shuffle(free)
    for fault in FAULTS:
        want = fault if fault in ("token", "number") else None
        chosen = [t for t in free if want is None or kinds[t] == want]
        for t in chosen[:per_fault]:
            faults[t] = fault
            free.remove(t)
    FaultyTranslator.faults = faults
    _original_case.clear()
    _original_case.update({t.lower(): t for t in faults})
    return texts, faults


#: which relation, and which of its kinds, finds each fault
FINDS = {"number": ("numbers", {"missing", "format", "changed"}), "token": ("passthrough", {"missing"}),
         "loop": ("length", {"loop"}), "untranslated": ("language", {"untranslated", "wrong_language"}),
         "case": ("case", {"upper", "lower", "title"}), "batch": ("batch", {"changed"})}
PRODUCTION = ("numbers", "passthrough", "case", "punctuation", "length", "language", "batch")


def run_recall(translator: str, texts: list[str], tmp) -> list:
    """Run the seven production relations over ``texts`` with the registered ``translator``; the
    issues found."""
    from pathlib import Path

    from sit.pipeline import RunConfig, run

    tmp = Path(tmp)
    source = tmp / "recall.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    config = RunConfig(input=str(source), translator=translator, target_lang="es", relations=PRODUCTION,
                       out=str(tmp / f"run-{translator}"), cache_dir=str(tmp / "cache"), progress=False,
                       report_formats=("text",), jobs=1)
    return run(config).issues


def recall(issues: list, faults: dict[str, str]) -> dict[str, tuple[int, int]]:
    """Per fault type: (texts whose fault the relation meant for it found, texts injected)."""
    out = {}
    for fault, (relation, kinds) in FINDS.items():
        injected = [t for t, f in faults.items() if f == fault]
        found = {i.pair.original for i in issues if i.relation == relation and i.kind in kinds}
        out[fault] = (sum(1 for t in injected if t in found), len(injected))
    return out


def false_alarms(issues: list, texts: list[str]) -> tuple[int, int, dict[str, int]]:
    """On the clean translator: (sentences with any finding, sentences, findings per group)."""
    flagged = {i.pair.original for i in issues} & set(texts)
    groups: dict[str, int] = {}
    for i in issues:
        groups[i.group] = groups.get(i.group, 0) + 1
    return len(flagged), len(texts), groups


#: the faults :class:`AnyFaultTranslator` injects, and the checks (relation, kinds) that name each
ANY_FAULTS = {"number": ("numbers", {"missing", "format", "changed"}), "token": ("passthrough", {"missing"}),
              "loop": ("length", {"loop"}), "untranslated": ("language", {"untranslated", "wrong_language", "copied"})}
#: the single-translation checks of a run (issue 33): what the clean translator must not set off
SINGLE = ("numbers", "passthrough", "language", "length", "punctuation")


def fault_of(text: str, rate: float = 0.15):
    """The fault :class:`AnyFaultTranslator` injects into ``text`` (None for most): ``rate`` of all
    texts by their hash, the fault drawn among those that change its translation (a number changed
    where it has one, a pass-through token dropped where it has one, a loop, the source returned)."""
    h = int(hashlib.sha256(text.encode()).hexdigest(), 16)
    if h % 10000 >= rate * 10000:
        return None
    clean = clean_translation(text, invent=True)
    fits = {"number": bool(re.search(r"\d", clean)), "token": bool(_KEEP.search(clean)), "loop": True,
            "untranslated": clean != text}
    chosen = [f for f in ANY_FAULTS if fits[f]]
    return chosen[(h // 10000) % len(chosen)]


def with_fault(text: str, fault) -> str:
    """The clean translation of ``text`` (unknown words invented) with ``fault`` injected."""
    return injected(text, clean_translation(text, invent=True), fault)


def injected(text: str, out: str, fault) -> str:
    """``out``, the translation of ``text``, with ``fault`` injected (as it is for no known fault)."""
    if fault == "number":
        return re.sub(r"\d(?=\D*$)", lambda m: str((int(m.group()) + 1) % 10), out, count=1)
    if fault == "token":
        return _KEEP.sub("", out, count=1)
    if fault == "loop":
        return out + " la casa la casa la casa la casa la casa"
    if fault == "untranslated":
        return text
    return out


class InventingTranslator(DictTranslator):
    """The clean translator over any text: :func:`clean_translation` with unknown words invented."""

    name = "inventing-test"

    def _translate_batch(self, texts: list[str]) -> list[str]:
        return [with_fault(t, None) for t in texts]


class AnyFaultTranslator(DictTranslator):
    """An independent faulty translator: :class:`InventingTranslator` with a fault injected into
    15% of whatever text it is asked (:func:`fault_of`), the variants of every relation included."""

    name = "anyfault-test"

    def _translate_batch(self, texts: list[str]) -> list[str]:
        return [with_fault(t, fault_of(t)) for t in texts]


def run_all(translator: str, texts: list[str], tmp, relations=("all",)):
    """``--relation all`` (WordNet substitutes) over ``texts`` with the registered ``translator``:
    (issues, {text: translation} of every text the run translated, but the probes that only their
    relation's check reads: ``Relation.probes``)."""
    import json
    from pathlib import Path

    from sit.pipeline import RunConfig, run

    tmp = Path(tmp)
    source = tmp / "all.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    config = RunConfig(input=str(source), translator=translator, target_lang="es", relations=tuple(relations),
                       perturber="wordnet", out=str(tmp / f"all-{translator}"), cache_dir=str(tmp / "cache"),
                       progress=False, report_formats=("text",), jobs=1)
    result = run(config)
    rows = [json.loads(line) for line in (result.run_dir / "translations.jsonl").read_text().splitlines()]
    # a probe (sit's phrase alone) is read by its relation's check only, by design no text of the run
    return result.issues, {r["text"]: r["translation"] for r in rows
                           if r["translation"] is not None and r.get("role") != "probe"}


def named_recall(issues: list, asked) -> dict[str, tuple[int, int]]:
    """Per fault type: (texts with that fault that a finding of the check meant for it names, texts
    with that fault among those the run had translated, ``asked``)."""
    from sit.relations.every import named_texts

    out = {}
    for fault, (relation, kinds) in ANY_FAULTS.items():
        injected = [t for t in asked if fault_of(t) == fault]
        named = set().union(*[named_texts(i) for i in issues if i.relation == relation and i.kind in kinds] or [set()])
        out[fault] = (sum(1 for t in injected if t in named), len(injected))
    return out


def named_share(issues: list, asked) -> tuple[int, int, dict[str, int]]:
    """On a clean translator: (texts a single-translation finding names, texts translated,
    findings per group of those checks)."""
    from sit.relations.every import named_texts

    single = [i for i in issues if i.relation in SINGLE]
    named = set().union(*[named_texts(i) for i in single] or [set()]) & set(asked)
    groups: dict[str, int] = {}
    for i in single:
        groups[i.group] = groups.get(i.group, 0) + 1
    return len(named), len(asked), groups

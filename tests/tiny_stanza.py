"""Tiny Stanza pipelines (tokenize, pos, lemma, depparse, and the word-vector pretrain the tagger
and the parser need) the tests build offline, for Chinese (zh-hans) and Spanish (es).

Each model is trained for a few steps by Stanza's own trainers (``stanza.models.tokenizer``,
``tagger``, ``lemmatizer``, ``parser``: the ``main`` entry points its training scripts call) on a
handful of silver sentences, so that the files are exactly what Stanza writes and
``stanza.Pipeline`` loads them. The parses are written by hand (Chinese) or by spaCy's Spanish
pipeline (silver); the models memorise them well enough to produce a dependency tree, not to be
good parsers. :func:`stanza_resources` describes them the way Stanza's ``resources.json`` does.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import shutil
from pathlib import Path

PROCESSORS = ("tokenize", "pos", "lemma", "depparse")
PACKAGE = "tiny"  # the package name of every tiny model ("default" names it in resources.json)
STANZA_LANG = {"zh": "zh-hans", "es": "es"}

# Chinese sentences (the tiny MarianMT's targets among them), parsed by hand in UD's scheme.
_ZH = [
    ("总统 会见 了 部长 。", "NOUN VERB AUX NOUN PUNCT", "2 0 2 2 2", "nsubj root aux obj punct"),
    ("银行 提高 了 利率 。", "NOUN VERB AUX NOUN PUNCT", "2 0 2 2 2", "nsubj root aux obj punct"),
    ("公司 开 了 一 家 新 工厂 。", "NOUN VERB AUX NUM NOUN ADJ NOUN PUNCT", "2 0 2 5 7 7 2 2",
     "nsubj root aux nummod clf amod obj punct"),
    ("参议员 批评 了 州长 。", "NOUN VERB AUX NOUN PUNCT", "2 0 2 2 2", "nsubj root aux obj punct"),
    ("政府 在 北京 宣布 新 政策 。", "NOUN ADP PROPN VERB ADJ NOUN PUNCT", "4 3 4 0 6 4 4",
     "nsubj case obl root amod obj punct"),
    ("我们 在 北京 开会 。", "PRON ADP PROPN VERB PUNCT", "4 3 4 0 4", "nsubj case obl root punct"),
]

# Spanish sentences for spaCy's pipeline to parse (silver); the first is the tests' own.
_ES = [
    "El presidente se reunió con el embajador.",
    "El presidente cumplió el ministro.",
    "La empresa abrió una fábrica nueva.",
    "El senador criticó el gobernador.",
    "El banco subió las tasas de interés.",
    "Las acciones cayeron después del informe.",
    "El gobierno anunció una política nueva en la capital.",
    "La ministra visitó el hospital con los médicos.",
]


def _conllu_zh() -> list[list[tuple]]:
    sents = []
    for words, upos, heads, rels in _ZH:
        sents.append([(w, w, u, u, int(h), r) for w, u, h, r in
                      zip(words.split(), upos.split(), heads.split(), rels.split())])
    return sents


def _conllu_es() -> list[list[tuple]]:
    from sit.models import load_spacy

    nlp = load_spacy("es")
    sents = []
    for doc in nlp.pipe(_ES):
        rows = []
        for t in doc:
            head = 0 if t.head.i == t.i else t.head.i - doc[0].i + 1
            rows.append((t.text, t.lemma_ or t.text.lower(), t.pos_ or "X", t.tag_ or t.pos_ or "X", head,
                         "root" if head == 0 else (t.dep_.lower() or "dep")))
        sents.append(rows)
    return sents


def _write_conllu(path: Path, sents: list[list[tuple]], joiner: str) -> None:
    out = []
    for rows in sents:
        out.append("# text = " + joiner.join(r[0] for r in rows))
        for i, (form, lemma, upos, xpos, head, rel) in enumerate(rows, start=1):
            misc = "SpaceAfter=No" if joiner == "" or (i < len(rows) and rows[i][2] == "PUNCT") else "_"
            out.append(f"{i}\t{form}\t{lemma}\t{upos}\t{xpos}\t_\t{head}\t{rel}\t_\t{misc}")
        out.append("")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _write_tokenizer_data(txt: Path, labels: Path, sents: list[list[tuple]], joiner: str) -> None:
    """Stanza's tokenizer training data: the raw text, and one label a character (1 ends a token,
    2 ends a sentence, 0 otherwise)."""
    text, marks = [], []
    for rows in sents:
        for i, row in enumerate(rows):
            form = row[0]
            text.append(form)
            marks.append("0" * (len(form) - 1) + ("2" if i == len(rows) - 1 else "1"))
            sep = "" if joiner == "" or (i + 1 < len(rows) and rows[i + 1][2] == "PUNCT") else " "
            if i == len(rows) - 1:
                sep = "" if joiner == "" else " "
            text.append(sep)
            marks.append("0" * len(sep))
    txt.write_text("".join(text) + "\n\n", encoding="utf-8")
    labels.write_text("".join(marks) + "\n\n", encoding="utf-8")


def _pretrain(out: Path, sents: list[list[tuple]], dim: int = 16, seed: int = 0) -> Path:
    from stanza.models.common.pretrain import Pretrain

    rng = random.Random(seed)
    words = sorted({r[0] for rows in sents for r in rows} | {r[0].lower() for rows in sents for r in rows})
    vec = out / "vectors.txt"
    vec.write_text(f"{len(words)} {dim}\n" + "".join(
        w + " " + " ".join(f"{rng.uniform(-1, 1):.4f}" for _ in range(dim)) + "\n" for w in words), encoding="utf-8")
    pt = out / "pretrain.pt"
    Pretrain(str(pt), str(vec)).load()  # reads the vectors and writes Stanza's .pt
    return pt


_SMALL = ["--word_emb_dim", "16", "--char_emb_dim", "8", "--char_hidden_dim", "16", "--tag_emb_dim", "8",
          "--hidden_dim", "32", "--deep_biaff_hidden_dim", "16", "--transformed_dim", "16", "--num_layers", "1",
          "--dropout", "0", "--word_dropout", "0", "--seed", "0"]


def _train(work: Path, lang: str, sents: list[list[tuple]], joiner: str, steps: int,
           tokenizer_steps: int) -> dict[str, Path]:
    from stanza.models import lemmatizer, parser, tagger, tokenizer

    short = lang.replace("-", "_") + "_tiny"
    conllu = work / "train.conllu"
    _write_conllu(conllu, sents, joiner)
    pt = _pretrain(work, sents)
    common = ["--train_file", str(conllu), "--eval_file", str(conllu), "--output_file", str(work / "pred.conllu"),
              "--shorthand", short, "--save_dir", str(work)]
    tagger.main(common + ["--wordvec_pretrain_file", str(pt), "--save_name", "pos.pt", "--max_steps", str(steps),
                          "--eval_interval", str(steps), "--batch_size", "500", "--lang", lang, "--composite_deep_biaff_hidden_dim",
                          "8", "--lr", "0.02"] + _SMALL)
    parser.main(common + ["--wordvec_pretrain_file", str(pt), "--save_name", "depparse.pt", "--max_steps",
                          str(steps), "--eval_interval", str(steps), "--batch_size", "500", "--deep_biaff_output_dim",
                          "8", "--optim", "adam", "--lr", "0.02", "--augment_nopunct", "0.0", "--lang", lang] + _SMALL)
    lemmatizer.main(common + ["--save_name", "lemma.pt", "--num_epoch", "1", "--hidden_dim", "16", "--emb_dim", "8",
                              "--pos_dim", "8", "--batch_size", "50"])
    txt, labels = work / "train.txt", work / "train.labels"
    _write_tokenizer_data(txt, labels, sents, joiner)
    (work / "mwt.json").write_text("[]", encoding="utf-8")  # no multi-word tokens
    tokenizer.main(["--txt_file", str(txt), "--label_file", str(labels), "--dev_txt_file", str(txt),
                    "--dev_label_file", str(labels), "--mwt_json_file", str(work / "mwt.json"), "--lang", lang, "--shorthand", short, "--save_dir", str(work),
                    "--save_name", "tokenize.pt", "--steps", str(tokenizer_steps), "--eval_steps", str(tokenizer_steps),
                    "--lr0", "0.01",
                    "--emb_dim", "8", "--hidden_dim", "16", "--batch_size", "8", "--max_seqlen", "60",
                    "--seed", "0"])
    return {"tokenize": work / "tokenize.pt", "pos": work / "pos.pt", "lemma": work / "lemma.pt",
            "depparse": work / "depparse.pt", "pretrain": pt}


def build_tiny_stanza(out: Path, lang: str, *, steps: int = 60) -> dict[str, Path]:
    """Train the tiny pipeline of ``lang`` ("zh" or "es") in ``out``; returns its model files by
    processor (and ``pretrain``)."""
    import torch

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    level = logging.getLogger("stanza").level
    logging.getLogger("stanza").setLevel(logging.ERROR)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # models this small gain nothing from threads, and lose much on a busy machine
    try:
        if lang == "zh":  # sit gives Stanza jieba's words: the tokenizer only has to load
            return _train(out, STANZA_LANG[lang], _conllu_zh(), "", steps, tokenizer_steps=10)
        return _train(out, STANZA_LANG[lang], _conllu_es(), " ", steps, tokenizer_steps=5 * steps)
    finally:
        torch.set_num_threads(threads)
        logging.getLogger("stanza").setLevel(level)


def md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def stanza_resources(models: dict[str, dict[str, Path]], url: str) -> dict:
    """A ``resources.json`` (Stanza's format) for the tiny pipelines ``models`` (Stanza language
    code -> processor -> file), whose files download from ``url`` (Stanza's template with
    ``{lang}``, ``{resources_version}`` and ``{filename}``)."""
    res: dict = {"url": url}
    for code, files in models.items():
        lang: dict = {"lang_name": code, "packages": {"default": {p: PACKAGE for p in PROCESSORS}},
                      "default_processors": {p: PACKAGE for p in PROCESSORS}}
        for proc in PROCESSORS:
            entry: dict = {"md5": md5(files[proc])}
            if proc in ("pos", "depparse"):
                entry["dependencies"] = [{"model": "pretrain", "package": PACKAGE}]
            lang[proc] = {PACKAGE: entry}
        lang["pretrain"] = {PACKAGE: {"md5": md5(files["pretrain"])}}
        res[code] = lang
    if "zh-hans" in models:
        res["zh"] = {"alias": "zh-hans"}
    return res


def install(models: dict[str, dict[str, Path]], target: Path) -> Path:
    """The tiny pipelines laid out as ``stanza.download`` leaves them in ``target`` (a Stanza
    resources directory): ``resources.json`` and ``<lang>/<processor>/<package>.pt``."""
    target.mkdir(parents=True, exist_ok=True)
    for code, files in models.items():
        for proc, path in files.items():
            dest = target / code / proc / f"{PACKAGE}.pt"
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    (target / "resources.json").write_text(json.dumps(stanza_resources(models, "file:///nowhere/{lang}/{filename}")),
                                           encoding="utf-8")
    return target

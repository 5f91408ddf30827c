"""Memory that follows the work, not the input (issue 36): the sit relation compares its cases a
window at a time, and the trees parsed beside the perturber are read back from the parser's cache
instead of being held. Real Apertium, the real Spanish spaCy pipeline, a real cache."""

import json
import random

import pytest
from conftest import requires_apertium

from sit.cache import Cache

SENTENCES = [
    "The senator criticized the governor over the new budget proposal.",
    "The angry voters rejected the tax plan in the election.",
    "The president met the foreign minister at the embassy.",
    "Local officials praised the new hospital in the city.",
    "Shares of the company fell sharply after the earnings report.",
    "The court rejected the appeal of the former mayor on Monday.",
    "Farmers protested against the new rules on water use.",
    "The central bank raised interest rates for the third time this year.",
]


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    """Character-swap pairs of SENTENCES (five per sentence) and Apertium's translation of every text."""
    from conftest import have_apertium_pair

    if not have_apertium_pair():
        pytest.skip("Apertium eng-spa is not installed")
    from sit.perturb import PERTURBERS
    from sit.translators import get_translator

    pairs = PERTURBERS.create("character_swap", num_perturb=5).perturb(SENTENCES, random.Random(0))
    pairs = [p for p in pairs if p.perturbed != p.original]
    texts = list(dict.fromkeys(t for p in pairs for t in (p.original, p.perturbed)))
    cache = Cache(tmp_path_factory.mktemp("cache"))
    translation = dict(zip(texts, get_translator("apertium", target_lang="es", cache=cache).translate(texts)))
    return pairs, translation, cache


def sit_check(pairs, translation, cache, window, monkeypatch, top_k=2):
    import sit.relations.sit as sit_relation
    from sit.parse import get_parser
    from sit.relations import RunContext, create_relation

    monkeypatch.setattr(sit_relation, "WINDOW", window)
    ctx = RunContext(cache, "en", "es", top_k=top_k, make_perturber=lambda: (None, ""),
                     make_parser=lambda: (get_parser("spacy", "es", cache=cache), "spacy", ""))
    return create_relation("sit", ctx, {}).check(pairs, translation)


@requires_apertium
@pytest.mark.parametrize("window", [1, 3, 7])
def test_the_sit_check_in_windows_finds_what_one_pass_finds(translated, window, monkeypatch):
    # windows that cut sentences anywhere (1, 3, 7 cases) against one window over every case: the
    # same issues with the same ranks and TEAPOT scores, the same counts and TEAPOT's summary
    pairs, translation, cache = translated
    whole = sit_check(pairs, translation, cache, len(pairs), monkeypatch)
    parts = sit_check(pairs, translation, cache, window, monkeypatch)
    assert len(pairs) > 3 * window and whole.issues  # several windows, and something to find
    assert [i.to_dict() for i in parts.issues] == [i.to_dict() for i in whole.issues]
    assert parts.counts == whole.counts and parts.extra == whole.extra
    assert whole.extra["teapot"]["n"] == whole.counts.compared > 0
    assert max(i.rank for i in whole.issues) == 2  # top-k per sentence applied


@requires_apertium
def test_early_trees_are_read_back_from_the_parsers_cache(translated):
    from sit.parse import get_parser
    from sit.parse.base import EarlyTrees

    _, translation, cache = translated
    texts = list(dict.fromkeys(translation.values()))[:6]
    parser = get_parser("spacy", "es", cache=cache)
    early = EarlyTrees(parser)
    early.add(texts, parser.parse(texts))
    assert early.held == {} and set(early) == set(texts) and len(early) == 6  # texts held, not trees
    fresh = get_parser("spacy", "es", cache=None)
    assert [early[t] for t in texts] == fresh.parse(texts)
    assert early.many(texts[::-1]) == dict(zip(texts, fresh.parse(texts)))  # one read of the cache
    assert "not parsed" not in early
    with pytest.raises(KeyError):
        early["not parsed"]
    without = EarlyTrees(fresh)  # a parser without a cache: the trees themselves are held
    without.add(texts[:2], fresh.parse(texts[:2]))
    assert list(without.held) == texts[:2] and without[texts[0]] == early[texts[0]]


@requires_apertium
def test_a_tree_the_cache_does_not_give_is_parsed_again(tmp_path):
    from sit.parse import get_parser
    from sit.parse.base import EarlyTrees

    parser = get_parser("spacy", "es", cache=Cache(tmp_path))
    other = get_parser("spacy", "es", cache=None)
    text = "El senador criticó al gobernador."
    early = EarlyTrees(parser)
    early.add([text], other.parse([text]))  # said parsed, but not through this parser's cache
    assert parser.computed == 0
    assert early[text] == other.parse([text])[0]
    assert parser.computed == 1  # parsed again, and now in the cache
    assert early[text] == other.parse([text])[0] and parser.computed == 1


@requires_apertium
def test_what_the_cache_holds_is_not_read_early_and_counts_as_its_hits(tmp_path):
    # a re-run: the early parse finds every translation in the parser's cache and reads none of
    # them (the check stage reads each window's once); they count as the parser's cache hits
    from sit.parse import get_parser
    from sit.parse.base import EarlyTrees

    cache = Cache(tmp_path)
    texts = ["El senador criticó al gobernador.", "Los votantes rechazaron el plan.", "La ciudad abrió un hospital."]
    first = get_parser("spacy", "es", cache=cache)
    trees = first.parse(texts)
    assert cache.store("parses", first.signature()).keys_in([*texts, "otra cosa"]) == set(texts)
    again = get_parser("spacy", "es", cache=cache)
    early = EarlyTrees(again, hold=2)  # past two trees: read back from the cache
    early.parse([*texts, "Otra frase nueva."])
    assert (again.cache_hits, again.computed) == (3, 1) and early.held == {}
    assert early.many(texts) == dict(zip(texts, trees))
    held = EarlyTrees(get_parser("spacy", "es", cache=cache))  # a few hundred sentences: held, read once
    held.parse(texts)
    assert list(held.held) == texts and held.parser.cache_hits == 3 and held[texts[0]] == trees[0]


# --------------------------------------------------------------------------- the run directory's writers


def test_rows_reach_the_disk_while_later_rows_are_still_being_made(tmp_path, monkeypatch):
    # the JSONL writer writes a batch as it fills: the temporary file beside the target already
    # holds the first rows when the rows after them are asked for, and the file is the rows' lines
    import json

    import sit.rundir as rundir

    monkeypatch.setattr(rundir, "CHUNK", 100)
    target = tmp_path / "pairs.jsonl"
    seen_on_disk = []

    def rows():
        for i in range(40):
            temporary = [p for p in tmp_path.iterdir() if p.name.startswith(".pairs.jsonl.")]
            seen_on_disk.append(sum(p.stat().st_size for p in temporary))
            yield {"id": i, "text": f"sentence número {i} " * 1000}  # rows larger than a file's buffer

    rundir.write_jsonl_atomic(target, rows())
    assert seen_on_disk[0] == 0 and seen_on_disk[-1] > 0  # written while the rows were made
    lines = target.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [{"id": i, "text": f"sentence número {i} " * 1000}
                                                    for i in range(40)]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_rows_that_fail_half_way_leave_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    import sit.rundir as rundir

    monkeypatch.setattr(rundir, "CHUNK", 10)
    target = tmp_path / "issues.jsonl"
    target.write_text('{"old": 1}\n', encoding="utf-8")

    def rows():
        for i in range(20):
            if i == 15:
                raise RuntimeError("the check failed")
            yield {"id": i}

    with pytest.raises(RuntimeError):
        rundir.write_jsonl_atomic(target, rows())
    assert target.read_text(encoding="utf-8") == '{"old": 1}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["issues.jsonl"]


@pytest.mark.parametrize("chunk", [1, 64, 1 << 20])
def test_streamed_rows_are_redacted_as_the_whole_file_is(tmp_path, monkeypatch, chunk):
    # a secret (and a URL's password) in rows written a batch at a time is masked as
    # write_bytes_atomic masks the same text written at once, whatever the batch size
    import json

    import sit.rundir as rundir
    from sit import redact

    monkeypatch.setattr(rundir, "CHUNK", chunk)
    rows = [{"text": "plain words"}, {"text": "the key sk-live-7f3a9c2b1e is here"},
            {"text": "see https://user:hunter2pass@example.org/x?api_key=abc123 now"}, {"text": "más"}]
    with redact.scope(redact.Redactor(["sk-live-7f3a9c2b1e"])):
        rundir.write_jsonl_atomic(tmp_path / "streamed.jsonl", rows)
        rundir.write_bytes_atomic(tmp_path / "whole.jsonl",
                                  "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))
    streamed = (tmp_path / "streamed.jsonl").read_bytes()
    assert streamed == (tmp_path / "whole.jsonl").read_bytes()
    assert b"sk-live" not in streamed and b"hunter2" not in streamed and b"abc123" not in streamed
    assert "más".encode("utf-8") in streamed


def test_a_text_written_in_pieces_is_the_text_as_write_bytes_writes_it(tmp_path, monkeypatch):
    # a report made in pieces (each piece redacted alone, encoded a slice at a time) is the
    # file its whole text gives, with and without a known secret
    import sit.rundir as rundir
    from sit import redact

    monkeypatch.setattr(rundir, "CHUNK", 7)
    pieces = ["línea uno\n", "https://u:secretpw@host/a?token=zzz\n", "end ✓ secretpw\n"] * 5
    for redactor in (redact.Redactor(), redact.Redactor(["secretpw"])):
        with redact.scope(redactor):
            rundir.write_parts_atomic(tmp_path / "pieces.txt", iter(pieces))
            rundir.write_bytes_atomic(tmp_path / "whole.txt", "".join(pieces).encode("utf-8"))
        written = (tmp_path / "pieces.txt").read_bytes()
        assert written == (tmp_path / "whole.txt").read_bytes()
        assert b"u:secretpw@" not in written and b"zzz" not in written
        assert (b"secretpw" in written) is not bool(redactor)  # a known secret is masked everywhere


def test_the_html_page_in_pieces_is_the_page(tmp_path):
    # the HTML writer's pieces (its findings' data a sentence at a time) make the page render()
    # gives, and more than one piece per flagged sentence's data
    from sample_runs import sample_issues, write_sample_run

    from sit.formats import writer
    from sit.report import render
    from sit.report.html import embed_json, embed_json_parts
    from sit.rundir import load_run

    run = load_run(write_sample_run(tmp_path / "run", sample_issues(5, 2, seed=4)))
    parts = list(writer("html", "report").report_parts(run, None))
    assert "".join(parts) == render(run, "html")
    assert len(parts) >= 5
    view = {"a": 1, "sentences": [{"t": "<b>&</b>"}, {"t": "dos\u2028"}], "z": [None]}
    assert "".join(embed_json_parts(view)) == embed_json(view)
    assert "".join(embed_json_parts({**view, "sentences": []})) == embed_json({**view, "sentences": []})
    # the clusters too (thousands in a large run): one piece each, wherever the key stands
    view = {"clusters": [{"c": "</script>"}, {"c": 2}], **view}
    pieces = list(embed_json_parts(view))
    assert "".join(pieces) == embed_json(view)
    assert '{"c":"\\u003c/script\\u003e"}' in pieces and ',{"c":2}' in pieces


def test_the_html_pages_cluster_rows_are_written_a_few_hundred_at_a_time():
    # issue 46: a cached run of 5,000 sentences has some 9,000 clusters; their rows were one
    # string, copied four times over as the header was joined (max RSS 148 MB against 58 at 500)
    from sit.report.html import ROWS_AT_ONCE, _clusters

    rows = [{"example": {"perturbed": f"s{n} <i>", "perturbed_translation": "t"}, "precision": None,
             "cluster_id": f"c{n}", "rank": n + 1, "title": f"bug {n}", "findings": 2, "sentences": 1,
             "groups": ["sit"]} for n in range(2 * ROWS_AT_ONCE + 50)]
    pieces = list(_clusters(rows))
    per_piece = [p.count("<tr data-cluster=") for p in pieces]
    assert sum(per_piece) == len(rows) and max(per_piece) <= ROWS_AT_ONCE, per_piece
    page = "".join(pieces)
    assert page.count('id="more-clusters" hidden') == 1 and page.endswith("</tbody></table></section>")
    assert "s3 &lt;i&gt;" in page and page.index('data-cluster="c9"') < page.index("b-more-clusters") \
        < page.index('data-cluster="c10"')


def test_reports_of_a_run_whose_translations_stay_on_disk_are_those_of_the_loaded_run(tmp_path):
    # the pipeline hands the reports its findings and leaves translations.jsonl on disk
    # (translations=None): a sentence whose finding lacks its translation reads it from the file,
    # and every format renders as from the whole run directory loaded
    from dataclasses import replace

    from sample_runs import sample_issues, write_sample_run

    from sit.report import render
    from sit.rundir import RunData, load_run

    issues = sample_issues(6, 2, seed=3)
    root = write_sample_run(tmp_path / "run", issues)
    loaded = load_run(root)
    lacking = [replace(i, original_translation=None) if i.pair.source_id % 2 else i for i in loaded.issues]
    whole = replace(loaded, issues=lacking)
    on_disk = RunData(root, loaded.meta, lacking, [], None)
    assert any(i.original_translation is None for i in lacking)
    assert {i.pair.source_id: on_disk.source_translation(i.pair.source_id) for i in lacking} == \
        {i.pair.source_id: whole.source_translation(i.pair.source_id) for i in lacking}
    assert all(on_disk.source_translation(i.pair.source_id) for i in lacking)
    for fmt in ("text", "html", "markdown", "jsonl"):
        assert render(on_disk, fmt) == render(whole, fmt)


@requires_apertium
def test_the_report_sit_report_renders_from_the_run_directory_is_the_one_the_run_wrote(tmp_path):
    # the run writes its records, lets go of them and renders its reports; `sit report` on the
    # directory afterwards renders the same report.txt (report.html differs only in its timings)
    from conftest import have_apertium_pair

    if not have_apertium_pair():
        pytest.skip("Apertium eng-spa is not installed")
    from sit.pipeline import RunConfig, run
    from sit.report import write_reports

    source = tmp_path / "in.txt"
    source.write_text("".join(s + "\n" for s in SENTENCES[:4]), encoding="utf-8")
    out = tmp_path / "run"
    run(RunConfig(input=str(source), translator="apertium", relations=("sit",), perturber="character_swap",
                  cache_dir=str(tmp_path / "cache"), out=str(out), progress=False))
    written = (out / "report.txt").read_bytes()
    assert b"character_swap" in written
    write_reports(out, formats=("text",))
    assert (out / "report.txt").read_bytes() == written


def test_cached_values_are_read_a_chunk_at_a_time_and_all_found(tmp_path, monkeypatch):
    # more keys than a chunk: every cached value comes back (in order), the rest is computed once
    import sit.batching as batching
    from sit.batching import BatchJob, BatchStats, cached_batches

    store = Cache(tmp_path).store("translations", {"name": "chunks"})
    store.put_many((f"text {n}", f"texto {n}") for n in range(0, 10, 2))
    monkeypatch.setattr(batching, "READ_CHUNK", 3)
    computed, told = [], []
    job = BatchJob(compute=lambda batch: computed.extend(batch) or [f"nuevo {k}" for k in batch],
                   mismatch=lambda *a: AssertionError(a), stats=BatchStats(), store=store, batch_size=4,
                   on_batch=lambda keys, values: told.append(keys))
    keys = [f"text {n}" for n in range(10)] + ["text 0"]
    found = cached_batches(keys, job)
    assert [found[f"text {n}"] for n in range(0, 10, 2)] == [f"texto {n}" for n in range(0, 10, 2)]
    assert computed == [f"text {n}" for n in range(1, 10, 2)] and job.stats.cache_hits == 5
    assert told[0] == [f"text {n}" for n in range(0, 10, 2)]  # the hits first, in the keys' order
    assert store.get_many([f"text {n}" for n in range(10)]) == {f"text {n}": found[f"text {n}"] for n in range(10)}


def test_the_texts_origins_are_made_only_when_a_check_reads_them():
    from sit.relations import RunContext
    from sit.relations.every import Origin

    ctx, made = RunContext(None, "en", "es"), []
    ctx.origins_from(lambda: made.append(1) or {"A text.": Origin(3)})
    assert made == []  # nothing made before a relation asks
    assert ctx.origins["A text."].source_id == 3 and ctx.origins["A text."].source_id == 3
    assert made == [1]  # made once
    ctx.origins = {"Other.": Origin(1)}  # set as sit check sets it
    assert list(ctx.origins) == ["Other."]
    ctx.release()
    assert ctx.origins == {} and made == [1]


def test_the_reports_list_clusters_read_back_from_a_temporary_file_as_when_held(tmp_path, monkeypatch):
    # issue 46: a cached run of 5,000 sentences kept its 9,125 clusters and their rows for the
    # reports (max RSS 92 MB against 54 at 500); past ClusterRows.HOLD rows they are now written
    # to a temporary file and read back as listed, and every report is the same to the byte
    from sample_runs import sample_issues, write_sample_run

    from sit.report import render, write_reports
    from sit.report.clusterrows import ClusterRows
    from sit.rundir import load_run

    root = write_sample_run(tmp_path / "run", sample_issues(8, 3, seed=5))
    first = json.loads((root / "clusters.jsonl").read_text(encoding="utf-8").splitlines()[1])
    (root / "cluster-marks.jsonl").write_text(json.dumps({"cluster_id": first["cluster_id"], "label": "bug"}) + "\n",
                                              encoding="utf-8")
    held = {fmt: render(load_run(root), fmt) for fmt in ("text", "html", "markdown", "jsonl")}
    clusters_file = (root / "clusters.jsonl").read_bytes()
    monkeypatch.setattr(ClusterRows, "HOLD", 1)
    run = load_run(root)
    assert {fmt: render(run, fmt) for fmt in held} == held
    assert "[marked bug]" in held["text"] and held["html"].count('aria-pressed="true">bug<') == 1
    rows = run.derived["cluster_rows"]
    assert len(rows) >= 3 and rows._held is None and "clusters" not in run.derived
    assert [r["cluster_id"] for r in rows] == rows.ids and rows[-1]["rank"] == len(rows)
    listings = iter(rows), iter(rows)  # two listings at once: each reads every row
    assert [(a["cluster_id"], b["cluster_id"]) for a, b in zip(*listings)] == [(c, c) for c in rows.ids]
    assert sum(r["findings"] for r in rows) == rows.findings == len(run.issues)
    write_reports(root)
    assert (root / "clusters.jsonl").read_bytes() == clusters_file
    assert (root / "report.txt").read_text(encoding="utf-8").startswith(held["text"])  # then the marks' precision


def test_the_pages_words_and_bug_filter_are_written_a_few_hundred_rows_a_piece():
    # issue 46: a 5,000-sentence character_swap run names some 9,700 words and has 9,125
    # clusters; the words table, the bug filter and the page's data of the words were one string
    # each (with the rows above, max RSS 76 -> 67 MB at 5,000 sentences against 54 at 500)
    from sit.report.html import ROWS_AT_ONCE, _toolbar, _words, embed_json, embed_json_parts

    n = 2 * ROWS_AT_ONCE + 7
    words = [{"group": "sit", "word": f"w{k}<", "side": "substitute", "count": 1, "sources": [k]} for k in range(n)]
    pieces = list(_words(words))
    per_piece = [p.count("<tr><td>") for p in pieces]
    assert sum(per_piece) == n and max(per_piece) <= ROWS_AT_ONCE and "w5&lt;" in "".join(pieces)
    clusters = [{"cluster_id": f"c{k}", "rank": k + 1, "title": "t", "findings": 1} for k in range(n)]
    pieces = list(_toolbar({"relations": [], "groups": [], "clusters": clusters}))
    per_piece = [p.count('<option value="c') for p in pieces]
    assert sum(per_piece) == n and max(per_piece) <= ROWS_AT_ONCE
    view = {"words": words, "sentences": [], "clusters": clusters}
    pieces = list(embed_json_parts(view))
    assert "".join(pieces) == embed_json(view) and max(p.count('"word"') for p in pieces) == 1

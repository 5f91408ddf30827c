"""Benchmark: render the reports of a run with 10,000 issues; print render times and file sizes.

    python benchmarks/bench_report.py [--issues 10000] [--out DIR] [--browser]

``--browser`` also opens report.html in headless Chromium (Playwright, /usr/bin/chromium) and
prints the time until the first rows are on screen and the time a filter takes.
Not a test: it asserts nothing and prints figures to compare across changes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from sit.formats import writer
from sit.report import render
from sit.rundir import load_run, write_text_atomic

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the synthetic runs are a test fixture
from sample_runs import sample_issues, write_sample_run  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--issues", type=int, default=10_000)
    ap.add_argument("--per-sentence", type=int, default=4)
    ap.add_argument("--out", type=Path, default=None, help="run directory to write (default: a temporary one)")
    ap.add_argument("--browser", action="store_true", help="also time the page in headless Chromium")
    args = ap.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="sit-bench-report-"))
    t0 = time.perf_counter()
    write_sample_run(out, sample_issues(args.issues // args.per_sentence, args.per_sentence, seed=0))
    t1 = time.perf_counter()
    run = load_run(out)
    t2 = time.perf_counter()
    print(f"run dir {out}: {len(run.issues):,} issues; generated in {t1 - t0:.2f} s, loaded in {t2 - t1:.2f} s")
    for fmt in ("html", "text", "markdown", "jsonl"):
        start = time.perf_counter()
        text = render(run, fmt)
        elapsed = time.perf_counter() - start
        path = out / writer(fmt, "report").report_file
        write_text_atomic(path, text)
        print(f"{fmt:>8}: rendered in {elapsed:.2f} s, {path.stat().st_size / 1e6:.2f} MB ({path.name})")
    if args.browser:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"])
            page = browser.new_page()
            start = time.perf_counter()
            page.goto((out / "report.html").resolve().as_uri())
            page.wait_for_selector("#list .sent")
            loaded = time.perf_counter() - start
            before = page.inner_text("#status")
            page.fill("#f-min", "6")
            start = time.perf_counter()
            page.dispatch_event("#f-min", "change")  # applies the filter at once (typing waits 200 ms)
            page.wait_for_function("s => document.getElementById('status').textContent !== s", arg=before)
            filtered = time.perf_counter() - start
            print(f" browser: first rows after {loaded:.2f} s; minimum-distance filter applied in {filtered:.2f} s "
                  f"({page.inner_text('#status')})")
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

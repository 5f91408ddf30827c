"""Outputs that cannot be written are refused in one line before any work (issue 11, fault 4).

The tests run as root too, where a read-only directory does not stop a write: the unwritable
places used are a path under a regular file, a file where a directory is needed (and the reverse),
and /proc, which refuses new files to everyone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import requires_apertium

from sit.cli import main
from sample_runs import sample_issues, write_sample_run


def _unwritable(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    a_dir = tmp_path / "a-dir"
    a_dir.mkdir()
    return {"under-a-file": a_file / "sub" / "out", "in-proc": Path("/proc/sit-cannot-write-here/out"),
            "a-file": a_file, "a-dir": a_dir}


def _one_error(capsys, *names: str) -> str:
    captured = capsys.readouterr()
    err = captured.err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("sit: error:")]
    assert len(lines) == 1, err
    assert any(n in lines[0] for n in names), lines[0]
    return lines[0]


@pytest.fixture
def corpus(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("The bank raised interest rates.\nThe senator rejected the plan.\n")
    return f


@requires_apertium
@pytest.mark.parametrize("where", ["under-a-file", "in-proc", "a-file"])
def test_sit_run_checks_its_run_directory_before_any_work(tmp_path, corpus, capsys, where):
    out = _unwritable(tmp_path)[where]
    code = main(["run", "--input", str(corpus), "--perturber", "wordnet", "--num-perturb", "2", "--cache-dir",
                 str(tmp_path / "cache"), "--out", str(out), "--no-progress"])
    assert code == 4
    _one_error(capsys, "--out")
    assert not (tmp_path / "cache").exists()  # nothing was translated or cached


@pytest.mark.parametrize("option", ["--output", "--records"])
@pytest.mark.parametrize("where", ["under-a-file", "in-proc", "a-dir"])
def test_sit_perturb_checks_its_outputs_before_any_work(tmp_path, corpus, capsys, option, where):
    bad = _unwritable(tmp_path)[where]
    args = {"--output": str(tmp_path / "ok.txt"), "--records": str(tmp_path / "ok.jsonl")}
    args[option] = str(bad)
    code = main(["perturb", "--input", str(corpus), "--perturber", "char_swap", "--output", args["--output"],
                 "--records", args["--records"], "--cache-dir", str(tmp_path / "cache")])
    assert code == 4
    _one_error(capsys, option)
    assert not (tmp_path / "ok.txt").exists() and not (tmp_path / "ok.jsonl").exists()


def test_a_dash_is_refused_not_written_as_a_file_named_dash(tmp_path, corpus, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["perturb", "--input", str(corpus), "--perturber", "char_swap", "--output", "-",
                 "--cache-dir", str(tmp_path / "cache")])
    assert code == 4
    assert "not standard output" in _one_error(capsys, "--output")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


@pytest.mark.parametrize("where", ["under-a-file", "in-proc", "a-dir"])
def test_sit_report_checks_its_output_before_rendering(tmp_path, capsys, where):
    run_dir = write_sample_run(tmp_path / "run", sample_issues(3, 2, seed=1))
    code = main(["report", str(run_dir), "-f", "markdown", "-o", str(_unwritable(tmp_path)[where])])
    assert code == 4
    _one_error(capsys, "--output")


@pytest.mark.parametrize("option", ["--output", "--report"])
@pytest.mark.parametrize("where", ["under-a-file", "in-proc", "a-dir"])
def test_sit_summarize_checks_its_outputs_before_any_work(tmp_path, capsys, option, where):
    code = main(["summarize", "--input", "lead_docs", "--size", "2", "--perturber", "char_swap", "--no-cache",
                 "--no-progress", option, str(_unwritable(tmp_path)[where])])
    assert code == 4
    _one_error(capsys, option)
    assert capsys.readouterr().out == ""  # no report printed: no work was done


def test_an_output_that_fails_while_writing_is_one_line_not_a_traceback(tmp_path, capsys, monkeypatch):
    """Whatever the checks miss (a disk that fills up), OSError becomes one line."""
    import sit.rundir

    run_dir = write_sample_run(tmp_path / "run", sample_issues(3, 2, seed=1))

    def full(path, chunks):
        raise OSError(28, "No space left on device", str(path))

    # every atomic writer (whole bytes, or a report written a piece at a time) goes through it
    monkeypatch.setattr(sit.rundir, "_write_atomic", full)
    assert main(["report", str(run_dir), "-f", "text", "-o", str(tmp_path / "r.txt")]) == 4
    line = _one_error(capsys, "No space left on device")
    assert str(tmp_path / "r.txt") in line
    assert json.loads((run_dir / "run.json").read_text())  # the run directory is untouched

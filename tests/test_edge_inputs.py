"""Bad input at sit's edges (issue 49): a cases file, plugins, --baseline options, a damaged cache
page, and the redactor; each a one-line error (or, for the redactor, nothing masked that is not
the secret), never a traceback."""

from __future__ import annotations

import json

import pytest

from sit.cli import main
from sit.errors import InputError
from sit.regression import load_cases

#: one case as `sit export` wrote it from `sit check` (numbers, a missing number)
CASE = {"case_id": "d5e2330d262ea6be", "relation": "numbers", "source_id": 1,
        "source": "The bank rose 4.5 percent on Monday.", "variant": "The bank rose 4.5 percent on Monday.",
        "edit": {"position": 0, "before": "", "after": "", "perturber": "numbers", "char_start": -1, "char_end": -1,
                 "level": "sentence", "note": "original", "zipf": None, "similarity": None, "lm_fall": None,
                 "change": ""},
        "relation_options": {}, "translations": {"source": "El banco subió un 4,6 por ciento el lunes.",
                                                 "variant": "El banco subió un 4,6 por ciento el lunes."}}


def _one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "error:" in lines[0], err
    return lines[0]


@pytest.mark.parametrize("change, says", [
    ({"source_id": 2**70}, "`source_id` is not a line number"),
    ({"source_id": -7}, "`source_id` is not a line number"),
    ({"relation_options": ["x"]}, "`relation_options` is not an object"),
    ({"source": "word " * 1000}, "the source has 5,000 characters, over the limit of 2,000: raise it with --max-line-chars"),
])
def test_a_bad_case_is_one_line_naming_its_line(tmp_path, capsys, change, says):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE) + "\n" + json.dumps({**CASE, **change}) + "\n", encoding="utf-8")
    assert main(["run", "--cases", str(path), "--out", str(tmp_path / "o")]) == 2
    line = _one_error(capsys)
    assert f"{path}:2" in line and says in line, line


def test_a_lone_surrogate_in_a_case_is_refused(tmp_path, capsys):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE).replace('"The bank', '"\\ud800The bank', 1) + "\n", encoding="utf-8")
    assert main(["run", "--cases", str(path), "--out", str(tmp_path / "o")]) == 2
    assert "lone surrogate" in _one_error(capsys)


def test_a_good_case_loads_and_the_limit_can_be_raised(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE) + "\n" + json.dumps({**CASE, "source_id": 0}) + "\n", encoding="utf-8")
    assert load_cases(path).ids == [0, 1]
    path.write_text(json.dumps({**CASE, "source": "word " * 1000}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="over the limit of 2,000"):
        load_cases(path)
    assert load_cases(path, max_chars=6000).texts == ["word " * 1000]

"""The readers of ``sit check`` and ``sit run`` at their edges (issue 49): FIFOs, NUL bytes,
declared charsets, byte-order marks and lines too long; each a one-line error naming the line,
or the file read as it says it is."""

from __future__ import annotations

import os
import threading

import pytest

from sit.check.files import read_segments
from sit.cli import main
from sit.errors import InputError

PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={}\\n"\n\n'


def _po(tmp_path, charset: str, body: bytes, name="a.po"):
    path = tmp_path / name
    path.write_bytes(PO_HEAD.format(charset).encode("ascii") + body)
    return path


@pytest.mark.parametrize("name", ["a.po", "a.xlf", "a.tmx", "a.tsv", "a.jsonl"])
def test_a_fifo_is_refused_not_read_for_ever(tmp_path, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    said: list[str] = []

    def read():
        try:
            read_segments(fifo)
        except Exception as exc:  # noqa: BLE001 - what the reader raised is the point
            said.append(f"{type(exc).__name__}: {exc}")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=20)
    if reader.is_alive():  # free the hung reader (a writer that closes at once), then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"reading a FIFO named {name} hung")
    assert said and said[0].startswith("InputError") and "is a FIFO, not a file" in said[0], said


@pytest.mark.parametrize("name, data, line", [
    ("a.txt", b"One.\nT\x00wo.\n", 2),
    ("a.tsv", b"One.\tUno.\nTwo.\tD\x00os.\n", 2),
    ("a.po", PO_HEAD.format("UTF-8").encode() + b'msgid "One"\nmsgstr "U\x00no"\n', 6),
])
def test_a_nul_byte_is_refused_naming_its_line(tmp_path, name, data, line):
    if name.endswith(".po"):
        pytest.importorskip("translate.storage")
    path = tmp_path / name
    path.write_bytes(data)
    other = None
    if name.endswith(".txt"):
        other = tmp_path / "mt.txt"
        other.write_text("Uno.\nDos.\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"line {line} holds a NUL byte"):
        read_segments(path, other)


def test_a_po_file_is_read_in_the_charset_it_declares(tmp_path):
    pytest.importorskip("translate.storage")
    path = _po(tmp_path, "ISO-8859-1", 'msgid "The café opens."\nmsgstr "El café abre."\n'.encode("latin-1"))
    [segment] = read_segments(path)
    assert (segment.line, segment.source, segment.translation) == (5, "The café opens.", "El café abre.")


def test_a_latin1_byte_in_a_utf8_po_file_is_named_by_its_line(tmp_path):
    pytest.importorskip("translate.storage")
    path = _po(tmp_path, "UTF-8", b'msgid "One"\nmsgstr "Uno"\n\nmsgid "The caf\xe9"\nmsgstr "El caf\xe9"\n')
    with pytest.raises(InputError, match=r"line 8 is not valid UTF-8"):
        read_segments(path)


def test_a_byte_order_mark_is_taken_in_jsonl_as_in_the_other_formats(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"source": "One.", "translation": "Uno."}\n')
    assert [(s.line, s.source) for s in read_segments(path)] == [(1, "One.")]
    tsv = tmp_path / "a.tsv"
    tsv.write_bytes(b"\xef\xbb\xbfOne.\tUno.\n")
    assert [(s.line, s.source) for s in read_segments(tsv)] == [(1, "One.")]


def test_a_line_over_the_limit_is_one_line_saying_how_to_raise_it(tmp_path, capsys):
    path = tmp_path / "a.tsv"
    path.write_text("One.\tUno.\n" + "word " * 5000 + "\tpalabra\n", encoding="utf-8")
    code = main(["check", "--source", str(path), "--target-lang", "es", "--out", str(tmp_path / "out"),
                 "--max-line-chars", "10000", "--checks", "numbers"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "line 2: the source has 25,000 characters, over the limit of 10,000" in err and "--max-line-chars" in err
    assert main(["check", "--source", str(path), "--target-lang", "es", "--out", str(tmp_path / "out"),
                 "--max-line-chars", "30000", "--checks", "numbers"]) == 0


# -- the numbers check reads a long line in linear time ------------------------------------------
def test_the_numbers_index_finds_what_the_whole_number_pattern_finds():
    """find() looks a form up among the places that begin with its digits (linear in the line);
    it must count what the pattern it replaced counts, on random texts of digits, separators,
    spaces of three widths, percent signs and letters."""
    import random
    import re

    from sit.textcheck.numbers import _numbers_in, _percent_gaps, find

    rng = random.Random(49)
    alphabet = "0123456789" * 3 + ".,  \u00a0\u202f%%ab-$"
    forms = ["1", "12", "1.2", "1,2", "1 000", "12 %", "-1", "1.000", "0", "2,5", "1 1", "$1"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        plain = text.translate(str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " "}))
        for form in forms:
            # a number also starts right after an abbreviation's period (German "Unbek.11"): a letter, then "."
            before = r"(?:(?<![\d.,])|(?<=[^\W\d_]\.))" if form[0].isdigit() else r"(?<![\d.,])"
            expected = len(re.findall(rf"{before}{re.escape(form)}(?!\d|[.,]\d)", plain))
            assert find(form, text) == expected, (text, form)
            gaps = {m.group(1) for m in re.finditer(rf"(?<![\d.,]){re.escape(form)}( ?)%", plain)}
            assert _percent_gaps(_numbers_in(text), form) == gaps, (text, form)


def test_sit_judge_refuses_a_line_over_its_limit_before_loading_a_model(tmp_path, capsys):
    long = "word " * 5000
    for name, text in (("s", "The bank rose."), ("a", long), ("b", "El banco subió.")):
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    args = ["judge", "--source", str(tmp_path / "s.txt"), "--a", str(tmp_path / "a.txt"), "--b", str(tmp_path / "b.txt"),
            "--no-cache", "-o", str(tmp_path / "out.jsonl"), "--max-line-chars", "10000"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "line 1 has 25,000 characters, over the limit of 10,000" in err, err
    assert "--max-line-chars" in err and not (tmp_path / "out.jsonl").exists()


def test_a_tsv_field_over_the_csv_reader_s_limit_is_one_line(tmp_path):
    path = tmp_path / "a.tsv"
    path.write_text("One.\tUno.\n" + "word " * 28_000 + "\tpalabra\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2: field larger than field limit .*give the file as JSONL"):
        read_segments(path, max_chars=200_000)


def _sparse(path, mib=300):
    with open(path, "wb") as fh:
        fh.truncate(mib * 1024 * 1024)  # no disk used
    return str(path)


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("name", ["big.txt", "big.po", "big.xlf"])
def test_a_file_over_the_size_sit_check_reads_whole_is_one_line_before_it_is_read(tmp_path, capsys, name):
    """Issue 49: every reader bounds what it takes: a 300 MiB file is refused by its size, saying
    what to do (aligned text, and the formats translate-toolkit reads whole)."""
    big = _sparse(tmp_path / name)
    given = ["--translation", big] if name.endswith(".txt") else []
    assert main(["check", "--source", big, *given, "--target-lang", "es", "--out", str(tmp_path / "out")]) == 2
    assert "314,572,800 bytes, over the 268,435,456 sit reads whole; split it" in _one_line(capsys)


def test_an_input_over_the_size_sit_run_reads_whole_is_one_line_before_it_is_read(tmp_path, capsys):
    big = _sparse(tmp_path / "big.txt")
    assert main(["run", "--input", big, "--translator", "apertium", "--out", str(tmp_path / "run")]) == 2
    assert "314,572,800 bytes, over the 268,435,456 sit reads whole; split it" in _one_line(capsys)

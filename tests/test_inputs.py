import pytest

from sit.errors import ConfigError, InputError
from sit.inputs import dataset_names, read_sentences


def test_bundled_datasets_have_about_100_sentences():
    assert {"politics", "business"} <= set(dataset_names())
    for name in ("politics", "business"):
        s = read_sentences(dataset=name)
        assert 90 <= len(s.texts) <= 150 and s.ids[0] == 1


def test_unknown_dataset_lists_valid_ones():
    with pytest.raises(ConfigError, match="choose one of: business, news, politics"):
        read_sentences(dataset="sports")


@pytest.mark.parametrize(
    "data, error",
    [
        (b"", "has no sentences"),
        (b"\n  \n\n", "has no sentences"),
        (b"Fine line.\nCaf\xe9 au lait.\n", "line 2 is not valid UTF-8"),
        (b"ok\n" + b"x" * 2001 + b"\n", "line 2 has 2001 characters, over the limit of 2000"),
    ],
)
def test_bad_files_get_clear_errors(tmp_path, data, error):
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    with pytest.raises(InputError, match=error):
        read_sentences(path=f)


def test_empty_lines_are_skipped_but_numbering_kept(tmp_path):
    f = tmp_path / "in.txt"
    f.write_bytes("\ufeffFirst one.\n\n  Third one.  \r\n".encode("utf-8"))
    s = read_sentences(path=f)
    assert s.texts == ("First one.", "Third one.") and s.ids == (1, 3) and s.skipped_empty == 1


def test_missing_file():
    with pytest.raises(InputError, match="does not exist"):
        read_sentences(path="nope.txt")

"""Readers and cleaning: every line ends up kept or counted under one reason."""

import io
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fanyi.data.build.corpus import (
    Cleaner,
    MalformedLineError,
    Record,
    length_units,
    read_aligned,
    read_lines,
    read_tsv,
)
from fanyi.data.build.spool import deduplicated, read_pair, sharing_a_side, spool, text_hash
from fanyi.text.lang import Normalizer

COLUMNS = {"en": 0, "zh": 1}


def _cleaner(**kwargs) -> Cleaner:
    return Cleaner(Normalizer("zh"), Normalizer("en"), **kwargs)


def clean(records, cleaner, strict=False, workers=1):
    """Kept pairs and the report, as prepare cleans an input: spooled, then de-duplicated."""
    with tempfile.TemporaryDirectory() as folder:
        spooled = spool(records, cleaner, Path(folder) / "spool", strict, workers)
        keep = deduplicated(spooled, cleaner.dedup)
        return [read_pair(line) for line in spooled.lines(keep)], spooled.report


def _records(*pairs) -> list[Record]:
    return [Record(f"mem:{i}", pair) for i, pair in enumerate(pairs, start=1)]


def test_tsv_reader_takes_chosen_columns_in_direction_order(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text("Hi.\t嗨。\tattribution\nRun.\t跑。\tx\n", encoding="utf-8")
    records = list(read_tsv(path, COLUMNS, ("zh", "en"), num_columns=3))
    assert [r.sides for r in records] == [("嗨。", "Hi."), ("跑。", "Run.")]
    assert records[1].origin == f"{path}:2"
    assert [r.sides for r in read_tsv(path, COLUMNS, ("en", "zh"), limit=1)] == [("Hi.", "嗨。")]


def test_tsv_reader_reports_malformed_lines_with_file_and_line(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_bytes(b"a\tb\tc\nonly one column\nbad \xff\tb\tc\na\tb\tc\td\n")
    records = list(read_tsv(path, COLUMNS, ("zh", "en"), num_columns=3))
    assert [r.problem for r in records] == [
        "",
        "malformed_columns",
        "invalid_utf8",
        "malformed_columns",
    ]
    assert records[1].origin == f"{path}:2" and "1 columns, expected 3" in records[1].detail
    assert records[2].origin == f"{path}:3" and "byte 4" in records[2].detail
    # Without num_columns, extra columns are fine and only missing ones are malformed.
    loose = list(read_tsv(path, COLUMNS, ("zh", "en")))
    assert [r.problem for r in loose] == ["", "malformed_columns", "invalid_utf8", ""]


def test_aligned_reader_pairs_line_i_and_names_the_bad_file(tmp_path):
    (tmp_path / "t.de").write_bytes(b"Hallo\nZwei\n")
    (tmp_path / "t.en").write_bytes(b"Hello\n\xc3\n")
    records = list(read_aligned(tmp_path / "t.de", tmp_path / "t.en"))
    assert records[0].sides == ("Hallo", "Hello")
    assert records[1].problem == "invalid_utf8" and records[1].origin == f"{tmp_path}/t.en:2"


def test_aligned_reader_refuses_files_of_different_lengths(tmp_path):
    (tmp_path / "t.de").write_text("a\nb\n")
    (tmp_path / "t.en").write_text("a\n")
    with pytest.raises(ValueError, match="not aligned"):
        list(read_aligned(tmp_path / "t.de", tmp_path / "t.en"))


def test_read_lines_strips_line_breaks():
    assert list(read_lines(io.StringIO("你好\r\nHi\n\nlast"))) == ["你好", "Hi", "", "last"]


def test_length_units_count_han_characters_and_words():
    assert length_units("We try.") == 2
    assert length_units("我们来试试。") == 6
    assert length_units("汤姆 likes 猫") == 4
    assert length_units("   ") == 0


@pytest.mark.parametrize(
    ("pair", "reason", "kwargs"),
    [
        (("你好。", "   "), "empty", {}),
        (("好", "Good."), "too_short", {"min_len": 2}),
        (("你" * 11, "word " * 11), "too_long", {"max_len": 10}),
        (("你" * 10, "One."), "length_ratio", {"max_ratio": 9.0}),
    ],
)
def test_each_filter_is_counted_under_its_reason(pair, reason, kwargs):
    pairs, report = clean(_records(("你好。", "Hello there."), pair), _cleaner(**kwargs))
    assert pairs == [("你好。", "Hello there.")]
    assert report.dropped == {reason: 1} and report.kept == 1 and report.input_lines == 2


def test_duplicates_are_found_after_normalisation():
    records = _records(("湯姆。", "Tom."), ("汤姆。", "Tom. "), ("汤姆。", "Tom!"))
    pairs, report = clean(records, _cleaner())
    assert pairs == [("汤姆。", "Tom."), ("汤姆。", "Tom!")]
    assert report.dropped == {"duplicate": 1}
    assert report.changed == {"t2s.zh": 1, "whitespace.en": 1}
    assert len(clean(records, _cleaner(dedup=False))[0]) == 3


def test_malformed_records_are_counted_quoted_or_fatal_in_strict_mode():
    records = [
        Record("f.tsv:1", ("你好。", "Hi.")),
        Record("f.tsv:2", None, "malformed_columns", "1 columns, expected 3"),
    ]
    pairs, report = clean(records, _cleaner())
    assert pairs == [("你好。", "Hi.")]
    assert report.to_dict()["dropped"] == {"malformed_columns": 1}
    assert report.malformed == ["f.tsv:2: 1 columns, expected 3"]
    with pytest.raises(MalformedLineError, match=r"f\.tsv:2"):
        clean(records, _cleaner(), strict=True)


_side = st.text(alphabet="你好汤姆。，  ab.!\u3000Ｔ", max_size=12)


@given(st.lists(st.one_of(st.tuples(_side, _side), st.none()), max_size=40))
def test_report_counts_add_up_to_the_input_lines(items):
    records = [
        Record(f"m:{i}", item, "" if item else "invalid_utf8") for i, item in enumerate(items)
    ]
    pairs, report = clean(records, _cleaner(max_len=6, max_ratio=3.0))
    assert report.input_lines == len(items)
    assert report.kept == len(pairs) == report.input_lines - sum(report.dropped.values())


def test_pairs_sharing_either_side_with_held_out_pairs_are_found():
    def hashes(pairs):
        return np.array([[0, text_hash(a), text_hash(b)] for a, b in pairs], dtype=np.uint64)

    train = hashes([("a", "x"), ("b", "y"), ("c", "z")])
    assert sharing_a_side(train, hashes([("a", "q"), ("r", "z")])).tolist() == [True, False, True]


def test_workers_clean_chunks_into_the_same_pairs_and_report(monkeypatch):
    monkeypatch.setattr("fanyi.data.build.spool.CHUNK_RECORDS", 3)
    sides = [("湯姆。", "Tom."), ("汤姆。", "Tom. "), ("", "x"), ("你好。", "Hi.")] * 10
    records = _records(*sides) + [Record(f"m:{i}", None, "invalid_utf8", "x") for i in range(30)]
    one, two = clean(records, _cleaner()), clean(records, _cleaner(), workers=2)
    assert one[0] == two[0] == [("汤姆。", "Tom."), ("你好。", "Hi.")]
    assert one[1].to_dict() == two[1].to_dict() and len(one[1].malformed) == 20
    assert one[1].dropped == {"duplicate": 28, "empty": 10, "invalid_utf8": 30}

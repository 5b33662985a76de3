"""Gettext catalogues → pairs: only real translations into Chinese, markup rendered, paragraphs
cut into sentence pairs where both sides agree, and every dropped entry counted by reason."""

from pathlib import Path

from fanyi.data.build.po import PoReport, aligned_sentences, po_pairs

CATALOGUE = Path(__file__).resolve().parents[2] / "fixtures" / "sources" / "library.po"


def test_a_catalogue_gives_its_translations_and_a_report():
    report = PoReport()
    pairs = list(po_pairs(CATALOGUE.read_text(encoding="utf-8"), report))
    assert pairs == [
        ("Reading files", "读取文件"),
        ("The open function returns a file object.", "函数 open 返回一个 文件对象。"),
        ("Call read to get the whole text.", "调用 read 可以得到全部文本。"),
        (
            "Use with so that the file is closed, even when an error occurs:",
            "请使用 with，这样即使出错，文件也会被关闭:",
        ),
        (
            "Files are buffered. A small write may stay in memory for a while. Flush it when "
            "it must reach the disk.",
            "文件是有缓冲的，小的写入可能在内存里停留一阵子，必须写到磁盘时请刷新它。",
        ),
        ("The mode is 'r' by default.", "模式默认为 'r'。"),
        ("Give 'w' to write.", "写入时请给出 'w'。"),
    ]
    assert report.to_dict() == {
        "entries": 11,
        "kept": 5,
        "sentence_pairs": 4,
        "dropped": {
            "obsolete": 1,
            "fuzzy": 1,
            "untranslated": 2,
            "code_only": 1,
            "not_chinese": 1,
        },
    }


def test_a_paragraph_is_cut_only_where_both_sides_have_as_many_sentences():
    assert aligned_sentences("One. Two.", "一。二。") == [("One.", "一。"), ("Two.", "二。")]
    assert aligned_sentences("One. Two.", "一，二。") == [("One. Two.", "一，二。")]
    assert aligned_sentences("e.g. this one.", "例如这个。") == [("e.g. this one.", "例如这个。")]

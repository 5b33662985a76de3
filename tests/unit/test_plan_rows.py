"""The rows of one batch's searches (``translate/plan.py``): a source that the text transforms
read otherwise where it is held (``Rows.again``) is read so only by a held search."""

from fanyi.translate.plan import Rows


def test_a_subset_held_reads_each_source_as_read_where_held():
    rows = Rows(
        [[1, 2], [3, 4], [5, 6]], ["en", "en", "zh"], None, [[], [[[7]]], []], [[], [9], []]
    )
    held = rows.subset([1, 2])
    assert held.sources == [[9], [5, 6]]  # the second row as read where held, the third as is
    assert held.targets == ["en", "zh"] and held.constraints == [[[[7]]], []]
    free = rows.subset([1, 2], held=False)
    assert free.sources == [[3, 4], [5, 6]] and free.constraints is None


def test_rows_without_a_second_reading_keep_their_sources():
    rows = Rows([[1, 2], [3, 4]], ["en", "en"])
    assert rows.subset([1]).sources == [[3, 4]]

"""reST inline markup rendered as Sphinx shows it, and entries with no prose told apart."""

import pytest

from fanyi.data.build.markup import is_code_only, plain_text


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (":func:`open` returns a :class:`~io.TextIOWrapper`.", "open returns a TextIOWrapper."),
        ("See :ref:`the tutorial <tut-intro>` first.", "See the tutorial first."),
        (":py:meth:`!str.join` joins.", "str.join joins."),
        ("Use ``with`` here.", "Use with here."),
        ("Read `the docs <https://docs.python.org>`_ or `PEP 8`_.", "Read the docs or PEP 8."),
        ("A *very* **strong** claim.", "A very strong claim."),
        ("Multiply 2 * 3 * 4 here.", "Multiply 2 * 3 * 4 here."),
        ("The |version| release[#]_.", "The version release."),
        ("For example::", "For example:"),
        ("::", ""),
        ("代码如下::", "代码如下:"),
        ("一个 :term:`文件对象 <file object>`。", "一个 文件对象。"),
        ("a\\ b and \\*x\\*", "ab and *x*"),
        ("  spread\n  over   lines ", "spread over lines"),
    ],
)
def test_markup_is_rendered_as_the_page_shows_it(source, shown):
    assert plain_text(source) == shown


@pytest.mark.parametrize(
    ("source", "code_only"),
    [
        (":func:`abs`", True),
        ("``x < y <= z``", True),
        ("**A**", True),
        (":meth:`~object.__eq__`, :meth:`~object.__lt__`", True),
        ("``x`` is true", False),
        ("Return :const:`True`.", False),
    ],
)
def test_entries_without_prose_are_code_only(source, code_only):
    assert is_code_only(source) is code_only

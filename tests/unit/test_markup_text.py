"""reST inline markup rendered as Sphinx shows it, and entries with no prose told apart."""

import pytest

from fanyi.text.markup import is_code_only, mend, plain_text, render


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


def test_render_keeps_each_span_with_what_it_shows():
    rendered = render("Use :func:`~os.path.join` or ``a\\*b``, see `docs <https://x.org>`_ [1]_::")
    assert rendered.shown == "Use join or a*b, see docs:"
    assert rendered.spans == [
        (":func:`~os.path.join`", "join"),
        ("``a\\*b``", "a*b"),
        ("`docs <https://x.org>`_", "docs"),
        ("[1]_", ""),
    ]
    assert rendered.literal_block


@pytest.mark.parametrize(
    ("source", "translation", "mended", "held"),
    [
        (  # spans set apart from Han characters by a space, not from punctuation
            "Return ``True`` if :func:`abs` fails.",
            "如果:func:`abs`失败，返回``True``。",
            "如果 :func:`abs` 失败，返回 ``True``。",
            2,
        ),
        (  # the longest span first; a span not held as written is left as it is
            "Call ``os.path.join`` then :func:`~os.path.join`, *twice*.",
            "先调用``os.path.join``，再调用:func:`~os.path.join`两次。",
            "先调用 ``os.path.join``，再调用 :func:`~os.path.join` 两次。",
            2,
        ),
        (  # the same literal twice; spans side by side set apart
            "Use ``a`` or ``a``, ``b`` ``c``.",
            "用``a``或``a``，``b````c``。",
            "用 ``a`` 或 ``a``，``b`` ``c``。",
            4,
        ),
        (  # a literal block's :: where the translation ends with a colon, or without one
            "For example::",
            "例如：",
            "例如::",
            0,
        ),
        ("For example::", "例如", "例如::", 0),
        (  # a role left without its content: its name taken out
            "Return an :term:`asynchronous iterator` for :func:`aiter`.",
            "返回一个 :term:asynchronous 迭代器，用于:func:`aiter`。",
            "返回一个 asynchronous 迭代器，用于 :func:`aiter`。",
            1,
        ),
    ],
)
def test_mend_makes_a_translation_of_marked_up_text_valid_rest(source, translation, mended, held):
    assert mend(translation, render(source)) == (mended, held)

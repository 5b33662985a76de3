"""Inline code in backticks (`os.path.join()`, ``--verbose``): read without the backticks,
given them back where the translation holds the code as written.

The training text of the documentation sources had its markup stripped (``data/build``), so the
model has seldom seen a backtick and writes one as an opening quote that never closes ("Use
`os.path.join()` …" → 使用 "os.path.join() …, and `--verbose` → “-verbose”), where the bare
code it copies. So a translator hands the model the code without its backticks (``unquote``) and
puts them back around the first place the translation holds that code unchanged (``requote``);
code the translation does not hold as written stays as the model wrote it.
"""

from __future__ import annotations

import re

from .transform import Context, Held, Option, Transform

# one or more backticks, the code (on one line, no backtick), as many backticks again; a span
# whose code is blank is none (``_spans`` leaves it out). No nested repeats: a line with a stray
# backtick is read in linear time
SPAN = re.compile(r"(?<!`)(`+)(?!`)([^`\n]+?)\1(?!`)")


WORD = re.compile(r"[A-Za-z0-9_]")


def _spans(text: str) -> list[re.Match[str]]:
    return [match for match in SPAN.finditer(text) if match.group(2).strip()]


def code_spans(text: str) -> list[str]:
    """The spans of inline code in ``text``, backticks included, in order."""
    return [match.group() for match in _spans(text)]


def code_of(span: str) -> str:
    """The code of a span (``code_spans``' ``"`os.path.join()`"`` → ``"os.path.join()"``)."""
    match = SPAN.fullmatch(span)
    return match.group(2) if match else span


def unquote(text: str) -> str:
    """``text`` with each span of inline code written without its backticks."""
    return SPAN.sub(lambda m: m.group(2) if m.group(2).strip() else m.group(), text)


def requote(translation: str, spans: list[str]) -> str:
    """``translation`` with the backticks of each of the source's ``spans`` put back around the
    first place it holds that span's code as written and not already quoted (each span once, in
    order; code that begins or ends with a letter, digit or underscore only as a whole word).
    A span the translation already holds with its backticks counts as put back."""
    for n, span in enumerate(spans):
        if translation.count(span) > spans[:n].count(span):
            continue
        code = span.strip("`")
        before = r"(?<![A-Za-z0-9_`])" if WORD.match(code[0]) else r"(?<!`)"
        after = r"(?![A-Za-z0-9_`])" if WORD.match(code[-1]) else r"(?!`)"
        pattern = before + re.escape(code) + after
        as_written = span.replace("\\", "\\\\")  # a replacement reads backslashes as escapes
        translation = re.sub(pattern, as_written, translation, count=1)
    return translation


# A sentence with more inline code spans than this is mostly code (a literal block read as one
# line), and held to them all the constrained search writes them first, in a heap: on the dev
# splits of python-docs and django-docs, 2 gained into Chinese and cost nothing into English,
# 4 and more cost up to 2 BLEU into English (docs/text.md, "Inline code")
MOST_CODE_HELD = 2


class Code(Transform):
    """``keep_code``: inline code read without its backticks and given them back where a
    translation copies it; ``hold_code``: a translation that misses a span's code is searched
    again, held to it (a sentence of at most ``MOST_CODE_HELD`` spans)."""

    name = "code"
    options = (
        Option(
            "keep_code", True, "`code` read without its backticks, given them back where copied"
        ),
        Option("hold_code", True, "with keep_code, `code` copied as written (a held search)"),
    )

    def read(self, text: str, context: Context) -> tuple[str, list[str]]:
        if not context.options.keep_code:
            return text, []
        return unquote(text), code_spans(text)

    def held(self, sentence: str, memo: list[str], context: Context) -> Held:
        if not context.options.hold_code:
            return []
        code = [
            read for read in (context.later(code_of(span)) for span in memo) if read in sentence
        ]
        return [(c, c) for c in code] if len(code) <= MOST_CODE_HELD else []

    def kept(self, memo: list[str]) -> list[str]:
        return memo

    def write_back(self, translation: str, memo: list[str], context: Context) -> str:
        return requote(translation, memo)

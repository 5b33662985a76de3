"""Normalise text as fanyi does before it translates, without fanyi: shipped beside every export
as ``preprocess.py`` (``tests/unit/interop/test_preprocess.py`` checks it against
``fanyi.text.lang.Normalizer``).

NFKC everywhere, except that Han-script (Chinese) text keeps its full-width punctuation
(，？！：（）…); runs of whitespace and zero-width characters become one space; Chinese is then
converted Traditional → Simplified with OpenCC's ``t2s`` tables (``pip install opencc``).

    from preprocess import normalise
    normalise("這本書很有意思。", "zh")     # '这本书很有意思。'

or ``python preprocess.py zh < raw.txt > normalised.txt``.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

# Full-width ASCII punctuation (U+FF01-FF0F, FF1A-FF20, FF3B-FF40, FF5B-FF60) and the ellipsis.
CJK_PUNCTUATION = "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\u2026"
FOLDABLE_RUN = re.compile(f"[^{CJK_PUNCTUATION}]+")
SPACES = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff]+")
CHINESE = "zh"


def normalise(text: str, lang: str, nfkc: bool = True, t2s: bool = True) -> str:
    """``text`` (in language ``lang``) as fanyi reads it."""
    if nfkc and not text.isascii():
        if lang == CHINESE:
            text = FOLDABLE_RUN.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
        else:
            text = unicodedata.normalize("NFKC", text)
    text = SPACES.sub(" ", text).strip()
    if t2s and lang == CHINESE:
        text = _t2s().convert(text)
    return text


@functools.cache
def _t2s():  # -> opencc.OpenCC
    """OpenCC's Traditional → Simplified converter, made once: reading its tables takes 4 ms."""
    import opencc

    return opencc.OpenCC("t2s")


if __name__ == "__main__":
    for line in sys.stdin:
        print(normalise(line, sys.argv[1]))

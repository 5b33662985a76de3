"""Text normalisation: Unicode NFKC, whitespace, Traditional → Simplified Chinese.

The same :class:`Normalizer` cleans the training corpus and, later, the translator's input, so
both see one spelling of every character.

NFKC folds full-width digits and Latin letters (``１２ＡＢ`` → ``12AB``) everywhere. On Chinese
sides it deliberately *keeps* full-width punctuation (``，？！：（）`` …) and ``…``: they are the
correct Chinese punctuation, and plain NFKC would turn ``，`` into ``,``. Elsewhere NFKC applies
in full. SentencePiece then runs with its ``identity`` rule, so decoding gives back exactly
this cleaned text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import opencc

CHINESE = "zh"
# Full-width ASCII punctuation (U+FF01-FF0F, FF1A-FF20, FF3B-FF40, FF5B-FF60) and the ellipsis.
_CJK_PUNCTUATION = "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\u2026"
_FOLDABLE_RUN = re.compile(f"[^{_CJK_PUNCTUATION}]+")
# Unicode whitespace, plus zero-width characters and the BOM that NFKC leaves in place.
_SPACES = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff]+")


def nfkc(text: str, keep_cjk_punctuation: bool = False) -> str:
    """NFKC, optionally leaving full-width punctuation untouched."""
    if text.isascii():
        return text
    if not keep_cjk_punctuation:
        return unicodedata.normalize("NFKC", text)
    return _FOLDABLE_RUN.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def squeeze_whitespace(text: str) -> str:
    """Runs of any whitespace (and zero-width characters) → one space; no leading/trailing."""
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=4)
def _converter(config: str) -> opencc.OpenCC:
    """An OpenCC converter; ``t2s`` ships with the ``opencc`` package and needs no network."""
    return opencc.OpenCC(config)


def to_simplified(text: str, config: str = "t2s") -> str:
    """Traditional → Simplified Chinese with OpenCC (character and phrase tables)."""
    return _converter(config).convert(text)


@dataclass(frozen=True)
class Normalizer:
    """The cleaning of one language's text; ``apply`` also says which steps changed it."""

    lang: str
    nfkc: bool = True
    t2s: bool = True

    def __call__(self, text: str) -> str:
        return self.apply(text)[0]

    def apply(self, text: str) -> tuple[str, list[str]]:
        """(normalised text, names of the steps that changed it: nfkc, whitespace, t2s)."""
        changed = []
        steps = [
            ("nfkc", self._nfkc, self.nfkc),
            ("whitespace", squeeze_whitespace, True),
            ("t2s", to_simplified, self.t2s and self.lang == CHINESE),
        ]
        for name, step, enabled in steps:
            if enabled:
                new = step(text)
                if new != text:
                    changed.append(name)
                    text = new
        return text, changed

    def _nfkc(self, text: str) -> str:
        return nfkc(text, keep_cjk_punctuation=self.lang == CHINESE)

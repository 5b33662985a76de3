"""The registered transforms run over one text: read in order before the model, asked in order
what a sentence's translation must hold, and written back in reverse order into a translation."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .lang import split_sentences
from .registry import transforms
from .transform import Context, Transform

Memos = tuple[tuple[Transform, Any], ...]  # each transform that read the text, with its memo


@dataclass(frozen=True)
class Reading:
    """A text as the model reads it (before it is cut into sentences), the memo of each
    transform that read it, and the context they read it in."""

    text: str
    memos: Memos
    context: Context

    def sentences(self) -> list[str]:
        """The text as read, cut into sentences (with ``split_sentences``), as the transforms
        have the model read them."""
        text, source = self.text, self.context.source
        split = self.context.options.split_sentences
        sentences = split_sentences(text, source) if split else [text] if text else []
        for transform, _ in self.memos:
            sentences = transform.read_sentences(sentences, self.context)
        return sentences

    def held(self, sentence: str) -> list[str]:
        """The phrases a translation of ``sentence`` (one of the text's, as read) must hold:
        each transform's, in order, on the sentence without the spans found before it."""
        found: list[str] = []
        for i, (transform, memo) in enumerate(self.memos):
            later = functools.partial(_reread, self.memos[i + 1 :], self.context)
            pairs = transform.held(sentence, memo, dataclasses.replace(self.context, later=later))
            found += [phrase for _, phrase in pairs]
            sentence = functools.reduce(lambda text, p: text.replace(p[0], " "), pairs, sentence)
        return found

    def written_back(self, translation: str) -> str:
        """``translation`` with every memo written back, the last reader's first."""
        kept = [span for transform, memo in self.memos for span in transform.kept(memo)]
        context = dataclasses.replace(self.context, kept=kept)
        for transform, memo in reversed(self.memos):
            translation = transform.write_back(translation, memo, context)
        return translation

    def unplaced(self, translation: str) -> list[tuple[str, str]]:
        """What the transforms asked of the text's ``translation`` (written back) and it
        misses: (source phrase, target phrase) pairs, each transform's in order."""
        return [
            pair
            for transform, memo in self.memos
            for pair in transform.unplaced(translation, memo, self.context)
        ]


def read(text: str, context: Context, prefixed: bool = False) -> Reading:
    """``text`` read by every registered transform in order (``prefixed``: its translation
    starts with a user's target prefix, which those ``with_prefix`` False leave alone)."""
    memos = []
    for transform in transforms():
        if prefixed and not transform.with_prefix:
            continue
        text, memo = transform.read(text, context)
        memos.append((transform, memo))
    return Reading(text, tuple(memos), context)


def _reread(memos: Sequence[tuple[Transform, Any]], context: Context, text: str) -> str:
    """``text`` as the transforms of ``memos`` read it, their memos dropped."""
    for transform, _ in memos:
        text, _ = transform.read(text, context)
    return text

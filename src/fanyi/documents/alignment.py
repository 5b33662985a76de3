"""Which words of a translation came from which words of its source, read from the model's
cross-attention: where a wrap goes when its words' own translation is nowhere in the sentence's.

Each piece the model read or wrote is found in its text (a character span); each target piece is
linked to the source piece it attends to most, and each source piece to the target piece that
attends to it most (the last layer, heads averaged: ``attention=True``). A wrap goes around the
target words linked to its source words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch import Tensor

    from ..translate.translation import Translation

Span = tuple[int, int]  # start, end: characters of a text
Link = tuple[int, int, int, int]  # a target span, then the source span it came from

_BYTE = re.compile(r"<0x([0-9A-Fa-f]{2})>")  # SentencePiece's byte fallback
_SLACK = 8  # characters a piece may lie past the last one found (spaces, a changed character)
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Aligned:
    """A text's translation, and links between its words and the source's (``forward``: each
    target piece to its source piece; ``backward``: each source piece to its target piece).

    Each link is the piece's most attended one; a link both ways is the surest."""

    text: str
    forward: tuple[Link, ...] = ()
    backward: tuple[Link, ...] = ()

    def targets(self, start: int, end: int) -> list[Span]:
        """The target spans linked to the source's characters ``start:end`` both ways (the
        surest), else by the target's links, else by the source's."""
        forward = {(a, b) for a, b, s, e in self.forward if s < end and start < e}
        backward = {(a, b) for a, b, s, e in self.backward if s < end and start < e}
        return sorted((forward & backward) or forward or backward)

    def place(self, start: int, end: int, taken: list[Span]) -> Span | None:
        """Where the source's characters ``start:end`` are in the translation, outside the spans
        ``taken``: of the stretches between taken spans, the one with most linked characters,
        from its first linked word to its last, Latin words whole; None where none is linked."""
        free = [span for span in self.targets(start, end) if not overlaps(span, taken)]
        if not free:
            return None
        groups: list[list[Span]] = [[free[0]]]
        for span in free[1:]:
            if any(groups[-1][-1][1] <= s < span[0] for s, _ in taken):
                groups.append([])
            groups[-1].append(span)
        best = max(groups, key=lambda group: sum(b - a for a, b in group))
        return _words(self.text, best[0][0], max(b for _, b in best))


def aligned(translation: Translation) -> Aligned | None:
    """The links of ``translation`` (of one text, decoded with ``attention=True``), or None where
    it has no attention map."""
    candidates = getattr(translation, "candidates", None)  # a stand-in may give only its text
    if getattr(translation, "error", None) is not None or not candidates:
        return None
    best = candidates[0]
    if best.attention is None or not best.tokens:
        return None
    source = _spans(translation.source_tokens, translation.source)
    target = _spans(best.tokens, best.text)
    weights = best.attention.float()
    # a batch pads its sources: padding is masked, so that no row attends to it at all
    weights = weights[:, (weights > 0).any(0)] if weights.shape[1] > len(source) else weights
    if tuple(weights.shape) != (len(target), len(source)):
        return None
    return Aligned(best.text, *_links(weights, target, source))


def _links(weights: Tensor, target: list[Span | None], source: list[Span | None]) -> tuple:
    """Each found target piece's span with its most attended found source piece's, and each found
    source piece's with the found target piece that attends to it most."""
    rows = [i for i, span in enumerate(target) if span is not None]
    columns = [j for j, span in enumerate(source) if span is not None]
    if not rows or not columns:
        return (), ()
    found = weights[rows][:, columns]  # found target pieces x found source pieces
    forward = [
        (*target[rows[i]], *source[columns[j]])  # type: ignore[misc]
        for i, j in enumerate(found.argmax(1).tolist())
    ]
    backward = [
        (*target[rows[i]], *source[columns[j]])  # type: ignore[misc]
        for j, i in enumerate(found.argmax(0).tolist())
    ]
    return tuple(forward), tuple(backward)


def _spans(pieces: list[str], text: str) -> list[Span | None]:
    """Where each of ``pieces`` lies in ``text``, in order (None: a language tag, the end, a
    piece the text does not hold as written); bytes of one character share its span."""
    out: list[Span | None] = []
    folded = text.lower() if len(text.lower()) == len(text) else text
    at, i = 0, 0
    while i < len(pieces):
        run = i
        while run < len(pieces) and _BYTE.fullmatch(pieces[run]):
            run += 1
        if run > i:  # a run of bytes: the characters they spell
            spelled = bytes(int(_BYTE.fullmatch(p).group(1), 16) for p in pieces[i:run])  # type: ignore[union-attr]
            words, count = spelled.decode("utf-8", "ignore"), run - i
        else:
            words, count = pieces[i].replace("\u2581", "").strip(), 1
        found = folded.find(words.lower(), at, at + len(words) + _SLACK) if words else -1
        if pieces[i] == "</s>" or found < 0:
            out += [None] * count
        else:
            out += [(found, found + len(words))] * count
            at = found + len(words)
        i += count
    return out


def overlaps(span: Span, taken: list[Span]) -> bool:
    """Whether ``span`` shares a character with one of the spans ``taken``."""
    return any(span[0] < end and start < span[1] for start, end in taken)


def _words(text: str, start: int, end: int) -> Span:
    """``start:end`` grown to whole Latin words (a piece may be part of one), spaces trimmed."""
    while start > 0 and _letter(text[start - 1]) and _letter(text[start]):
        start -= 1
    while end < len(text) and _letter(text[end - 1]) and _letter(text[end]):
        end += 1
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _letter(character: str) -> bool:
    return character.isalnum() and not _HAN.match(character)

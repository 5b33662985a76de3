"""A segment's translation written with its markup, from the model's translations of its texts.

Whole first: the model translates a part as one text (its held spans as inline code, which the
translator copies), and its wraps' words on their own; each held span is put back where the
translation holds its code, and each wrap around the place the translation holds the wrap's own
translation (or its words as written: a name copied), else around the words the model's
alignment links to the wrap's words (``alignment.py``). Where one cannot be placed, the part is
written piece by piece instead: each run of words translated on its own, the markup between them
as written. Nothing of the markup is ever lost; only the fluency of such a part suffers.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .alignment import Aligned, Span, overlaps
from .segment import Held, Piece, Text, Wrap, has_words, plain, trimmed

Table = dict[str, "str | None"]  # a text the model read → its translation (None: it failed)
Links = dict[str, Aligned]  # a text the model read → its translation with its alignment
Escape = Callable[[str], str]  # words made safe to write in the format (markup escaped)

_SLOT = 0xF0000  # a placed span waits in a private-use plane until the words are escaped
_SLOTS = re.compile("[\U000f0000-\U000ffffd]")
_ENDS = " \t\"'“”‘’「」.。!！?？,，;；:："  # what a text's translation alone may add at its ends
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SPACE = re.compile(r"\s+")
# markup a text ends or starts with: tags, and the private-use characters formats mark runs with
_MARKUP_END = re.compile(r"(?:<[^<>]*>|[\ue000-\uf8ff])*\Z")
_MARKUP_START = re.compile(r"\A(?:<[^<>]*>|[\ue000-\uf8ff])*")
# opening tags and opening run markers (word.py: formatting from U+E000, links from U+E800): a
# space between two words goes before them
_OPENING_END = re.compile(r"(?:<[^/<>][^<>]*>|[\ue000-\ue3ff\ue800-\uebfe])*\Z")


def compose(
    pieces: tuple[Piece, ...], table: Table, escape: Escape, links: Links | None = None
) -> str | None:
    """``pieces`` translated whole, their markup placed; None where something cannot be
    (``links``: the alignments of some texts' translations, for the wraps a text search misses)."""
    lead, items, trail = _peeled(pieces, escape)
    if not has_words(items):
        return lead + written(items, escape) + trail
    if len(items) == 1 and isinstance(items[0], Wrap):
        inner = compose(items[0].inner, table, escape, links)
        return None if inner is None else f"{lead}{items[0].open}{inner}{items[0].close}{trail}"
    whole = table.get(plain(items))
    if whole is None or _SLOTS.search(whole):  # a private-use character of its own: piecewise
        return None
    found = (links or {}).get(plain(items))
    spans = _spans(items, whole, table, found if found and found.text == whole else None)
    marked = [(s, e, _markup(p, whole[s:e], table, escape, links)) for p, s, e in spans or []]
    if spans is None or any(m is None for _, _, m in marked):
        return None
    slotted, at = [], 0
    for n, (start, end, _) in sorted(enumerate(marked), key=lambda item: item[1][0]):
        slotted += [whole[at:start], chr(_SLOT + n)]
        at = end
    text = escape("".join([*slotted, whole[at:]]))
    return lead + _SLOTS.sub(lambda m: marked[ord(m.group()) - _SLOT][2] or "", text) + trail


def _spans(
    items: tuple[Piece, ...], whole: str, table: Table, found: Aligned | None
) -> list[tuple[Held | Wrap, int, int]] | None:
    """Where each held span and wrap of ``items`` goes in their translation ``whole``: where it
    holds their text (longest first), else, for a wrap, on the words ``found`` links to its
    source words; None where one has no place."""
    placed: list[tuple[Held | Wrap, int, int]] = []
    missed: list[tuple[Wrap, Span]] = []
    for piece, source in sorted(_placed(items), key=lambda p: -len(_search(p[0], table)[0])):
        near = source[0] / max(len(plain(items)), 1)
        at = _place(whole, piece, table, near, [(s, e) for _, s, e in placed])
        if at is not None:
            placed.append((piece, *at))
        elif isinstance(piece, Wrap) and found is not None:
            missed.append((piece, source))
        else:
            return None
    for wrap, (start, end) in missed:
        taken = [(s, e) for _, s, e in placed]
        at = found.place(start, end, taken)  # type: ignore[union-attr]
        if at is None or at[0] >= at[1] or overlaps(at, taken):
            return None
        placed.append((wrap, *at))
    return placed


def piecewise(pieces: tuple[Piece, ...], table: Table, escape: Escape, to: str) -> str | None:
    """``pieces`` translated run by run, the markup between the runs written as it was."""
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, Text):
            if not has_words((piece,)):
                out.append(escape(piece.text))
                continue
            found = table.get(_SPACE.sub(" ", piece.text).strip())
            if found is None:
                return None
            lead, _, trail = trimmed((piece,))
            if to.lower().startswith("zh"):  # Chinese sets no space beside its own characters
                lead = "" if _HAN.match(found[:1]) else lead
                trail = "" if _HAN.match(found[-1:]) else trail
            out.append(lead + escape(found) + trail)
        elif isinstance(piece, Wrap):
            inner = compose(piece.inner, table, escape)
            inner = inner if inner is not None else piecewise(piece.inner, table, escape, to)
            if inner is None:
                return None
            out.append(piece.open + inner + piece.close)
        else:
            out.append(piece.raw)
    return joined(out, to)


def written(pieces: tuple[Piece, ...], escape: Escape) -> str:
    """``pieces`` written as they are, untranslated (their words escaped)."""
    out = []
    for piece in pieces:
        if isinstance(piece, Text):
            out.append(escape(piece.text))
        elif isinstance(piece, Wrap):
            out.append(piece.open + written(piece.inner, escape) + piece.close)
        else:
            out.append(piece.raw)
    return "".join(out)


def joined(texts: list[str], to: str) -> str:
    """``texts`` run together: into English a space where two words would touch (before the
    markup between them), into Chinese none between two Han characters."""
    out, chinese = "", to.lower().startswith("zh")
    for text in texts:
        if out and text:
            at = _OPENING_END.search(out).start()  # type: ignore[union-attr]  # always matches
            before, after = _MARKUP_END.sub("", out)[-1:], _MARKUP_START.sub("", text)[:1]
            if not chinese and before.isalnum() and after.isalnum():
                out = out[:at] + " " + out[at:]
            elif chinese and out[-1] == " " and _HAN.match(text[:1]) and _HAN.search(out[-2:]):
                out = out.rstrip(" ")
        out += text
    return out


def _peeled(pieces: tuple[Piece, ...], escape: Escape) -> tuple[str, tuple[Piece, ...], str]:
    """What ``pieces`` start and end with that stays where it is (whitespace, markup that shows
    no words: an image, a lone tag), written, and the pieces between."""
    lead, items, trail = trimmed(pieces)
    start, end = 0, len(items)
    while start < end and isinstance(items[start], Held) and not items[start].shown:  # type: ignore[union-attr]
        start += 1
    while end > start and isinstance(items[end - 1], Held) and not items[end - 1].shown:  # type: ignore[union-attr]
        end -= 1
    if (start, end) == (0, len(items)):
        return lead, items, trail
    inner_lead, middle, inner_trail = trimmed(items[start:end])
    before = lead + written(items[:start], escape) + inner_lead
    return before, middle, inner_trail + written(items[end:], escape) + trail


def _placed(items: tuple[Piece, ...]) -> list[tuple[Held | Wrap, Span]]:
    """The pieces to place, each with the characters of the source's text it shows (the same
    words twice: each wrap goes around the place nearest its own)."""
    found: list[tuple[Held | Wrap, Span]] = []
    for i, piece in enumerate(items):
        if isinstance(piece, (Held, Wrap)):
            end = len(plain(items[: i + 1]))
            found.append((piece, (max(end - len(plain((piece,))), 0), end)))
    return found


def _search(piece: Held | Wrap, table: Table) -> list[str]:
    """What ``piece`` looks like in the translation, best first."""
    if isinstance(piece, Held):
        return [f"`{piece.shown}`", piece.shown] if piece.shown else [""]
    words = plain(piece.inner)
    ends = "".join(c for c in _ENDS if not (words.startswith(c) or words.endswith(c)))
    alone = (table.get(words) or "").strip(ends)  # what the words do not end with themselves
    return [text for text in (alone, words) if text] or [""]


def _place(
    whole: str, piece: Held | Wrap, table: Table, near: float, taken: list[Span]
) -> Span | None:
    """Where the translation ``whole`` holds ``piece`` (a wrap's words in any case), outside the
    spans ``taken``: of its matches, the one nearest the fraction ``near`` of it; None where
    there is none."""
    folded = whole.lower() if len(whole.lower()) == len(whole) else whole
    for text in _search(piece, table):
        for haystack, needle in ((whole, text), (folded, text.lower())):
            if not needle or len(needle) != len(text):
                continue
            starts = [
                m.start()
                for m in re.finditer(f"(?={re.escape(needle)})", haystack)
                if not any(
                    m.start() < end and start < m.start() + len(text) for start, end in taken
                )
            ]
            if starts:
                at = min(starts, key=lambda start: abs(start / max(len(whole), 1) - near))
                return at, at + len(text)
    return None


def _markup(
    piece: Held | Wrap, found: str, table: Table, escape: Escape, links: Links | None
) -> str | None:
    """What replaces ``piece``'s place (``found``: the words there): held markup as written; a
    wrap (or wraps, one inside the other) around those words, or, where its words have markup of
    their own, around their own translation with it placed."""
    if isinstance(piece, Held):
        return piece.raw
    opens, closes, inner = "", "", piece
    while True:
        opens, closes = opens + inner.open, inner.close + closes
        if len(inner.inner) != 1 or not isinstance(inner.inner[0], Wrap):
            break
        inner = inner.inner[0]
    if all(isinstance(p, Text) for p in inner.inner):
        return opens + escape(found) + closes
    words = compose(piece.inner, table, escape, links)
    return None if words is None else piece.open + words + piece.close

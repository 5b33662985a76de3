"""What a model reads for a text: normalised as its training data, cut into sentences, each
tagged ``<2xx>`` when the model translates both ways, and in pieces that fit its positions."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from ..data.vocab import BOS, EOS, PAD, UNK
from ..decode.constraints import Spellings
from ..decode.long_input import TooLong, fitting, too_long
from ..decode.options import SearchOptions
from ..filenames import TRUECASE_FILE
from ..sections import Checkpoint
from ..text.code_spans import code_of, code_spans, unquote
from ..text.dates import dates_to_hold
from ..text.lang import (
    LATIN_SCRIPT,
    Languages,
    Normalizer,
    add_tag,
    foreign_to,
    in_other_script,
    script_of,
    split_sentences,
)
from ..text.links import links
from ..text.list_markers import NO_MARKER, Marker, list_marker
from ..text.numerals import grouped_numbers, numbers_to_hold, set_apart, ungroup, whole
from ..text.recase import read_headlines, read_lowercase
from .pending import Pending
from .translation import unicode_problem

WORD_START = "\u2581"  # SentencePiece's mark of a word's start
RUN_ON = "，"  # a character a phrase may follow without a space, to spell it run on
BYTE_PIECE = re.compile("<0x[0-9A-F]{2}>")  # SentencePiece's byte fallback


class Reading(NamedTuple):
    """A text as the model reads it, before it is cut into sentences, and what the translation
    writes back as the source wrote it (``Pending.written_back``)."""

    text: str
    numbers: list[str]  # in groups of three digits ("1,400,000")
    code: list[str]  # inline code, backticks included
    marker: Marker = NO_MARKER  # the list marker the text starts with


class Held(NamedTuple):
    """What a translation is held to, besides its source: a target prefix it starts with, and
    phrases it holds (``constraints.py``): the user's (``phrases``), each sentence's addresses
    (``links``), its numbers that a translation keeps as digits (``numbers``), between
    Chinese and English its dates as the target writes them (``dates``), and with
    ``hold_code`` the code of its inline code spans (``code``: as the model reads it, filled in
    by ``prepare``)."""

    prefix: str | None = None
    phrases: Sequence[str] = ()
    links: bool = False
    numbers: bool = False
    dates: bool = False
    hold_code: bool = False
    code: Sequence[str] = ()


NOTHING_HELD = Held()
# A sentence with more inline code spans than this is mostly code (a literal block read as one
# line), and held to them all the constrained search writes them first, in a heap: on the dev
# splits of python-docs and django-docs, 2 gained into Chinese and cost nothing into English,
# 4 and more cost up to 2 BLEU into English (docs/decoding.md, "Inline code in backticks")
MOST_CODE_HELD = 2


class SourceText:
    """A model directory's text settings: languages, normalisation, vocabularies, special ids."""

    def __init__(self, checkpoint: Checkpoint) -> None:
        self.checkpoint = checkpoint
        data = checkpoint.data
        self.languages = Languages(data.src_lang, data.tgt_lang, data.bidirectional)
        self.src_vocab, self.tgt_vocab = checkpoint.vocabularies()
        self.model = checkpoint.model  # special ids, max_len
        self.tags = {lang: self.ids("", lang)[:-1] for lang in self.languages.targets}
        self._foreign: dict[str, list[int]] = {}
        self._other_script: dict[str, list[int]] = {}
        own = checkpoint.path / TRUECASE_FILE  # else an ensemble's first member's
        self.lowercase = read_lowercase(
            own if own.is_file() else checkpoint.model_dirs[0] / own.name
        )

    def foreign(self, to: str) -> list[int]:
        """The target ids whose pieces are foreign to the script of ``to`` (``lang.foreign_to``):
        those ``target_script_only`` suppresses. Listed once per language."""
        if to not in self._foreign:
            vocab = self.tgt_vocab
            self._foreign[to] = [
                i for i in range(len(vocab)) if foreign_to(to, vocab.id_to_piece(i))
            ]
        return self._foreign[to]

    def other_script(self, to: str) -> list[int]:
        """The target ids whose pieces are in the other language's script for ``to``
        (``lang.in_other_script``): those ``script_penalty`` penalises. Listed once per
        language; the special pieces (``</s>``, tags) and the byte pieces (``<0xE4>``: a rare
        character spelt in bytes) never."""
        if to not in self._other_script:
            vocab = self.tgt_vocab
            special = {PAD, UNK, BOS, EOS, *vocab.tags}
            pieces = map(vocab.id_to_piece, range(len(vocab)))
            self._other_script[to] = [
                i
                for i, p in enumerate(pieces)
                if p not in special and not BYTE_PIECE.fullmatch(p) and in_other_script(to, p)
            ]
        return self._other_script[to]

    def ids(self, text: str, to: str) -> list[int]:
        """The ids the model reads for ``text`` (one sentence) into ``to``: tag, pieces, EOS."""
        if problem := unicode_problem(text):
            raise ValueError(problem)
        if self.checkpoint.data.lang_tags:
            text = add_tag(text, to)
        return [*self.src_vocab.encode(text), self.model.eos_id]

    def normalized(self, text: str, to: str) -> str:
        """``text`` normalised as the source side of the training data, for a translation into
        ``to``."""
        data = self.checkpoint.data
        return Normalizer(self.languages.source_of(to), nfkc=data.nfkc, t2s=data.t2s)(text)

    def reading(self, text: str, to: str, options: SearchOptions) -> Reading:
        """``text`` as the model reads it (normalised as the source side of the training data;
        with ``keep_list_markers``, without the list marker it starts with, ``list_markers.py``;
        with ``keep_code``, inline code without its backticks, ``code_spans.py``; with
        ``keep_numbers``, numbers as plain digits set apart from Han characters,
        ``numerals.py``), and what its translation writes back."""
        text = self.normalized(text, to)
        marker, text = list_marker(text) if options.keep_list_markers else (NO_MARKER, text)
        code = code_spans(text) if options.keep_code else []
        text = unquote(text) if options.keep_code else text
        numbers = grouped_numbers(text) if options.keep_numbers else []
        text = set_apart(ungroup(text)) if options.keep_numbers else text
        return Reading(text, numbers, code, marker)

    def sentences(self, text: str, to: str, options: SearchOptions) -> list[str]:
        """``text`` as the model reads it (``reading``), cut into sentences
        (``split_sentences``); with ``recase_headlines``, sentences in Title Case or in capitals
        in sentence case (a Latin-script source, where the model has a truecase.txt)."""
        return self._cut(self.reading(text, to, options).text, to, options)

    def _cut(self, read: str, to: str, options: SearchOptions) -> list[str]:
        source_lang = self.languages.source_of(to)
        split = options.split_sentences
        sentences = split_sentences(read, source_lang) if split else [read] if read else []
        if not options.recase_headlines or script_of(source_lang) != LATIN_SCRIPT:
            return sentences
        return read_headlines(sentences, self.lowercase)

    def prepare(
        self, text: str, to: str | None, options: SearchOptions, held: Held = NOTHING_HELD
    ) -> Pending:
        """``text`` on its way: its target (a ``to`` this model does not translate into raises),
        its pieces, target prefix and constraints (``held``), or why it will not be
        translated."""
        lang = self.languages.target_of(text, to)
        error, forced = unicode_problem(text), []
        pieces: list[list[int]] = []
        phrases: list[list[Spellings]] = []
        if held.prefix:  # the translation starts with the user's prefix, not a marker
            options = dataclasses.replace(options, keep_list_markers=False)
        read = Reading("", [], []) if error else self.reading(text, lang, options)
        if held.hold_code:
            held = held._replace(code=[self.read_code(span, options) for span in read.code])
        try:
            if not error:
                pieces, phrases = self._held(read.text, lang, options, held)
        except TooLong as long:
            error = str(long)
        except ValueError as bad:  # constraints that cannot hold
            error = f"constraints: {bad}"
        try:
            forced = self.target_prefix(held.prefix, lang)
        except ValueError as bad:  # a prefix that cannot start a translation
            error = error or f"target prefix: {bad}"
        written = (read.numbers, read.code, phrases, read.marker, options.chinese_script)
        return Pending(text, lang, pieces, [None] * len(pieces), error, forced, *written)

    def target_ids(self, text: str, to: str) -> list[int]:
        """The target ids of ``text`` in a translation into ``to``: normalised as the target
        side of the training data, no EOS; a ValueError for a special token or too many."""
        if problem := unicode_problem(text):
            raise ValueError(problem)
        data, model = self.checkpoint.data, self.model
        ids = self.tgt_vocab.encode(Normalizer(to, nfkc=data.nfkc, t2s=data.t2s)(text))
        special = {*self.tgt_vocab.tags.values(), model.bos_id, model.eos_id, model.pad_id}
        if special & set(ids):
            raise ValueError("it may not hold a language tag or special token")
        if len(ids) > model.max_len - 1:
            most = model.max_len - 1
            raise ValueError(f"it has {len(ids)} tokens; the model writes at most {most}")
        return ids

    def target_prefix(self, prefix: str | None, to: str) -> list[int]:
        """The target ids a translation into ``to`` must start with (none for None or "")."""
        return self.target_ids(prefix, to) if prefix else []

    def read_code(self, span: str, options: SearchOptions) -> str:
        """The code of an inline code ``span`` as the model reads it (``reading``)."""
        code = code_of(span)
        return set_apart(ungroup(code)) if options.keep_numbers else code

    def _held_in(self, sentence: str, to: str, held: Held) -> list[str]:
        """The code (``held.code``: as read), addresses (``held.links``), dates (``held.dates``:
        between Chinese and English, as the target writes them, ``dates.py``) and numbers
        (``held.numbers``) of ``sentence``; a number inside code, an address or a date is held
        by it."""
        code = [c for c in held.code if c in sentence]
        code = code if len(code) <= MOST_CODE_HELD else []
        sentence = functools.reduce(lambda text, c: text.replace(c, " "), code, sentence)
        addresses = links(sentence) if held.links else []
        source = self.languages.source_of(to)
        dates = dates_to_hold(sentence, source, to) if held.dates else []
        found = [*code, *addresses, *(date for _, date in dates)]
        if not held.numbers:
            return found
        spans = [*addresses, *(span for span, _ in dates)]
        outside = functools.reduce(lambda text, a: text.replace(a, " "), spans, sentence)
        return [*found, *numbers_to_hold(outside, source)]

    def holds(self, tokens: list[int], phrases: list[Spellings]) -> bool:
        """Whether the translation ``tokens`` holds every one of ``phrases`` as text, however
        it spelt them in pieces."""
        text = self.tgt_vocab.decode(tokens)
        return all(whole(self.tgt_vocab.decode(forms[0]).strip(), text) for forms in phrases)

    def constraint(self, phrase: str, to: str) -> Spellings:
        """The ways a translation into ``to`` may spell ``phrase`` in target ids: as a word of
        its own, and run on after a character (where SentencePiece marks no word start)."""
        phrase = phrase.strip()
        ids = self.target_ids(phrase, to)
        if ids and self.tgt_vocab.id_to_piece(ids[0]) == WORD_START:
            ids = ids[1:]  # a lone ▁ before a character: running text has none
        if not ids:
            raise ValueError(f"{phrase!r} holds no text")
        after = self.target_ids(RUN_ON + phrase, to)
        run_on = next(
            (after[n:] for n in range(1, 3) if self.tgt_vocab.decode(after[:n]) == RUN_ON), None
        )
        return [ids] if run_on in (None, [], ids) else [ids, run_on]

    def pieces(self, text: str, to: str, options: SearchOptions) -> list[list[int]]:
        """The ids of each sentence of ``text``, in pieces that fit the model (``TooLong`` for a
        sentence that does not, with ``long_input: error``); none when it is not Unicode."""
        if unicode_problem(text):
            return []
        return self._pieces(self.reading(text, to, options).text, to, options)

    def _pieces(self, read: str, to: str, options: SearchOptions) -> list[list[int]]:
        return self._held(read, to, options, NOTHING_HELD)[0]

    def _held(
        self, read: str, to: str, options: SearchOptions, held: Held
    ) -> tuple[list[list[int]], list[list[Spellings]]]:
        """The pieces of ``read`` and the constraints of each: the user's phrases (a text of
        one sentence, one piece), and the addresses and numbers of its sentence (a sentence in
        one piece)."""
        sentences, phrases = self._cut(read, to, options), list(held.phrases)
        if phrases and len(sentences) > 1:
            raise ValueError(f"they hold for one sentence; this text has {len(sentences)}")
        pieces: list[list[int]] = []
        constraints: list[list[Spellings]] = []
        for sentence in sentences:
            fit = self.fitting(sentence, to, options)
            if phrases and len(fit) > 1:
                raise ValueError("the sentence is too long to hold them: it is cut in pieces")
            mine = [self.constraint(p, to) for p in phrases]
            found = self._found(sentence, to, held) if len(fit) == 1 else []
            pieces += fit
            constraints += [mine + found] + [[] for _ in fit[1:]]
        return pieces, constraints

    def _found(self, sentence: str, to: str, held: Held) -> list[Spellings]:
        """The addresses, dates and numbers of ``sentence`` as constraints, leaving out one that
        cannot be spelt, and all where they would fill more than half the model's positions (a
        table of figures): a text is not lost to constraints it did not ask for."""
        found = []
        for phrase in self._held_in(sentence, to, held):
            try:
                found.append(self.constraint(phrase, to))
            except ValueError:
                continue
        most = self.model.max_len // 2
        return found if sum(max(map(len, forms)) for forms in found) <= most else []

    def fitting(self, sentence: str, to: str, options: SearchOptions) -> list[list[int]]:
        """The ids of ``sentence``, cut (``long_input: split``) into near-equal pieces that each
        fit the model with the tag and EOS when they do not fit whole."""
        ids, max_len = self.ids(sentence, to), self.model.max_len
        if len(ids) <= max_len:
            return [ids]
        if options.long_input == "error":
            raise too_long(len(ids), max_len)
        tag, eos = self.tags[to], self.model.eos_id
        return [[*tag, *p, eos] for p in fitting(ids[len(tag) : -1], max_len - len(tag) - 1)]

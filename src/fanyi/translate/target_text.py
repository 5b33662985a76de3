"""The target side of a model's text: a target prefix and the phrases a translation holds as
target ids, and the target pieces a language's script rules out or penalises."""

from __future__ import annotations

import functools
import re

import torch

from ..data.vocab import BOS, EOS, PAD, UNK, Vocab
from ..decode.constraints import Spellings, WholeWords
from ..decode.options import SearchOptions
from ..sections import Checkpoint
from ..text.lang import Normalizer, foreign_to, in_other_script
from ..text.numerals import whole
from ..text.transform import ALTERNATIVES
from .translation import unicode_problem

WORD_START = "\u2581"  # SentencePiece's mark of a word's start
RUN_ON = "，"  # a character a phrase may follow without a space, to spell it run on
BYTE_PIECE = re.compile("<0x[0-9A-F]{2}>")  # SentencePiece's byte fallback
# a phrase's last character, and the pieces that would run on from it: after a Latin word a
# letter or a digit, after a number a digit
_WORD_ENDS = {"word": re.compile(r"[A-Za-z\u00c0-\u024f]"), "number": re.compile(r"[0-9]")}
_CONTINUING = {"word": re.compile(r"[0-9A-Za-z\u00c0-\u024f]"), "number": re.compile(r"[0-9]")}


class TargetText:
    """A model directory's target vocabulary, normalisation and special ids."""

    def __init__(self, checkpoint: Checkpoint, vocab: Vocab) -> None:
        self.checkpoint, self.model, self.vocab = checkpoint, checkpoint.model, vocab
        self._foreign: dict[str, list[int]] = {}
        self._other_script: dict[str, list[int]] = {}
        # the pieces that continue a word, as ids and as a set
        self._continuing: dict[str, tuple[torch.Tensor, frozenset[int]]] = {}

    def foreign(self, to: str) -> list[int]:
        """The target ids whose pieces are foreign to the script of ``to`` (``lang.foreign_to``):
        those ``target_script_only`` suppresses. Listed once per language."""
        if to not in self._foreign:
            pieces = map(self.vocab.id_to_piece, range(len(self.vocab)))
            self._foreign[to] = [i for i, p in enumerate(pieces) if foreign_to(to, p)]
        return self._foreign[to]

    def other_script(self, to: str) -> list[int]:
        """The target ids whose pieces are in the other language's script for ``to``
        (``lang.in_other_script``): those ``script_penalty`` penalises. Listed once per
        language; the special pieces (``</s>``, tags) and the byte pieces (``<0xE4>``: a rare
        character spelt in bytes) never."""
        if to not in self._other_script:
            special = {PAD, UNK, BOS, EOS, *self.vocab.tags}
            pieces = map(self.vocab.id_to_piece, range(len(self.vocab)))
            self._other_script[to] = [
                i
                for i, p in enumerate(pieces)
                if p not in special and not BYTE_PIECE.fullmatch(p) and in_other_script(to, p)
            ]
        return self._other_script[to]

    def ids(self, text: str, to: str) -> list[int]:
        """The target ids of ``text`` in a translation into ``to``: normalised as the target
        side of the training data, no EOS; a ValueError for a special token or too many."""
        if problem := unicode_problem(text):
            raise ValueError(problem)
        model = self.model
        data = self.checkpoint.data
        ids = self.vocab.encode(Normalizer(to, nfkc=data.nfkc, t2s=data.t2s)(text))
        special = {*self.vocab.tags.values(), model.bos_id, model.eos_id, model.pad_id}
        if special & set(ids):
            raise ValueError("it may not hold a language tag or special token")
        if len(ids) > model.max_len - 1:
            most = model.max_len - 1
            raise ValueError(f"it has {len(ids)} tokens; the model writes at most {most}")
        return ids

    def prefix(self, prefix: str | None, to: str) -> list[int]:
        """The target ids a translation into ``to`` must start with (none for None or "")."""
        return self.ids(prefix, to) if prefix else []

    def constraint(self, phrase: str, to: str) -> Spellings:
        """The ways a translation into ``to`` may spell ``phrase`` in target ids: as a word of
        its own, and run on after a character (where SentencePiece marks no word start)."""
        phrase = phrase.strip()
        ids = self.ids(phrase, to)
        if ids and self.vocab.id_to_piece(ids[0]) == WORD_START:
            ids = ids[1:]  # a lone ▁ before a character: running text has none
        if not ids:
            raise ValueError(f"{phrase!r} holds no text")
        after = self.ids(RUN_ON + phrase, to)
        run_on = next(
            (after[n:] for n in range(1, 3) if self.vocab.decode(after[:n]) == RUN_ON), None
        )
        return [ids] if run_on in (None, [], ids) else [ids, run_on]

    def check(self, options: SearchOptions) -> None:
        """Refuse ``options`` this model cannot decode by."""
        if options.reranks and not self.checkpoint.data.bidirectional:
            raise ValueError("rerank_backward needs a model that translates both ways")
        size, eos = len(self.vocab), self.model.eos_id
        if any(i >= size or i == eos for i in [*options.suppress_ids, *options.penalized_ids]):
            raise ValueError(
                f"suppress_ids and penalized_ids must be ids of the target vocabulary (< {size}), "
                "not EOS"
            )

    def held(self, phrases: list[str], to: str) -> list[Spellings]:
        """The phrases the text transforms hold (``phrases``) as constraints, leaving out one
        that cannot be spelt, and all where they would fill more than half the model's
        positions (a table of figures): a text is not lost to constraints it did not ask for."""
        found = []
        for phrase in phrases:  # a phrase's forms (ALTERNATIVES between them): its spellings
            try:
                forms = [self.constraint(form, to) for form in phrase.split(ALTERNATIVES)]
                found.append(self._whole_words([ids for form in forms for ids in form]))
            except ValueError:
                continue
        most = self.model.max_len // 2
        return found if sum(max(map(len, forms)) for forms in found) <= most else []

    def _whole_words(self, spellings: Spellings) -> Spellings:
        """``spellings`` as ``WholeWords`` where each ends a Latin word (no letter nor digit
        after it: "Li Weiwei" for "Li Wei") or each a number (no digit after it; "21st" stays);
        one that runs on after a character is not begun after a letter or digit ("toExit")."""
        ends = {self.vocab.decode(ids)[-1:] for ids in spellings}
        kind = next((k for k, end in _WORD_ENDS.items() if all(end.match(e) for e in ends)), None)
        if kind is None:
            return spellings
        if kind not in self._continuing:
            pieces = map(self.vocab.id_to_piece, range(len(self.vocab)))
            ids = [i for i, piece in enumerate(pieces) if _CONTINUING[kind].match(piece)]
            self._continuing[kind] = (torch.tensor(ids, dtype=torch.long), frozenset(ids))
        continuing, runs_on = self._continuing[kind]
        run_on = frozenset(ids[0] for ids in spellings) & runs_on
        return WholeWords(spellings, continuing, self._ending, run_on)

    @functools.cached_property
    def _ending(self) -> frozenset[int]:
        """The target pieces that end a word (a letter or digit last): nothing runs on after
        them."""
        pieces = map(self.vocab.id_to_piece, range(len(self.vocab)))
        word = _CONTINUING["word"]
        return frozenset(i for i, piece in enumerate(pieces) if word.match(piece[-1:]))

    def holds(self, tokens: list[int], phrases: list[Spellings]) -> bool:
        """Whether the translation ``tokens`` holds every one of ``phrases`` as text, in one of
        its forms, however it spelt them in pieces: a number as a whole number, Latin words as whole words
        (``numerals.whole``)."""
        text = self.vocab.decode(tokens)
        return all(
            any(whole(self.vocab.decode(form).strip(), text) for form in forms) for forms in phrases
        )

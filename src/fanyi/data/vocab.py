"""SentencePiece vocabularies: loading, special ids and target-language tags.

Every model is trained (:func:`fanyi.data.build.subword.train_sentencepiece`) with the same
fixed special ids (pad 0, unk 1, bos 2, eos 3; ``pad`` agrees with ``ModelConfig.pad_id``),
``byte_fallback`` (a character outside the vocabulary is spelled as UTF-8 byte pieces instead of
``⁇``) and the ``identity`` normalisation rule: our own :class:`fanyi.text.lang.Normalizer` already
ran, and SentencePiece's default rule would rewrite the text again (``，`` → ``,``), so
decode(encode(text)) would no longer give the cleaned text back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import sentencepiece as spm

from ..inputs import VOCABULARY_BYTES, read_bytes, read_json
from ..text.lang import is_tag, lang_tag, split_tag

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<s>", "</s>"
_MARIAN_CODE = re.compile(r">>.*?<<")


class Vocab:
    """A trained SentencePiece model: text ↔ ids, with a leading ``<2xx>`` tag kept whole.

    ``piece_ids`` (piece → id) gives the model's own ids when they are not SentencePiece's: a
    MarianMT model reads pieces of two SentencePiece models (source, target) through one shared
    table, its ``vocab.json``. As Hugging Face's MarianTokenizer does, a leading ``>>xx<<`` (a
    multilingual model's target language) is one piece, pieces missing from the table are
    ``<unk>``, and decoding drops ``<pad>``, ``</s>`` and ``<unk>``.
    """

    def __init__(self, model_file: str | Path, piece_ids: Mapping[str, int] | None = None) -> None:
        self.path = Path(model_file)
        if not self.path.exists():
            raise FileNotFoundError(f"{model_file}: SentencePiece model not found")
        proto = read_bytes(self.path, VOCABULARY_BYTES)  # a regular file of bounded size
        try:
            self.sp = spm.SentencePieceProcessor(model_proto=proto)
        except (OSError, RuntimeError) as error:
            reason = str(error).splitlines()[0]
            raise ValueError(f"{model_file}: not a SentencePiece model ({reason})") from None
        if not self.sp.get_piece_size():  # an empty file reads as a model of no pieces
            raise ValueError(f"{model_file}: not a SentencePiece model (no pieces)")
        self.table = dict(piece_ids) if piece_ids is not None else None
        if self.table is None:
            specials = (self.sp.pad_id(), self.sp.unk_id(), self.sp.bos_id(), self.sp.eos_id())
            if specials != (PAD_ID, UNK_ID, BOS_ID, EOS_ID):
                raise ValueError(f"{model_file}: special ids {specials}, expected (0, 1, 2, 3)")
        else:
            missing = [piece for piece in (PAD, UNK, EOS) if piece not in self.table]
            if missing:
                raise ValueError(f"the piece table of {model_file} lacks {', '.join(missing)}")
            self._by_id = {i: piece for piece, i in self.table.items()}  # the last name of an id
            self._dropped = {self.table[PAD], self.table[UNK], self.table[EOS]}
        self.tags = {
            self.id_to_piece(i): i for i in range(len(self)) if is_tag(self.id_to_piece(i))
        }

    def id_to_piece(self, i: int) -> str:
        return self.sp.id_to_piece(int(i)) if self.table is None else self._by_id.get(int(i), UNK)

    def piece_to_id(self, piece: str) -> int:
        if self.table is None:
            return self.sp.piece_to_id(piece)
        return self.table.get(piece, self.table[UNK])

    def __len__(self) -> int:
        if self.table is None:
            return self.sp.get_piece_size()
        return max(self.table.values()) + 1

    def encode(self, text: str, alpha: float = 0.0) -> list[int]:
        """Ids of ``text`` (no bos/eos); a leading ``<2xx> `` tag becomes its single id.

        ``alpha`` > 0 samples a segmentation from the unigram model's distribution over all of
        them, P(x)^α normalised (Kudo 2018, §3.2; smaller α: more varied), instead of the best
        one; SentencePiece's generator (``spm.set_random_generator_seed``) draws it."""
        tag, rest = split_tag(text)
        if tag is None:
            return self._encode(text, alpha)
        if tag not in self.tags:
            raise ValueError(f"tag {tag} is not in the vocabulary {self.path}")
        return [self.tags[tag], *self._encode(rest, alpha)]

    def _encode(self, text: str, alpha: float) -> list[int]:
        if self.table is None:
            return self._pieces(text, int, alpha)
        code = _MARIAN_CODE.match(text)  # ">>fra<< …": a multilingual OPUS-MT model's target
        head = [self.piece_to_id(code.group())] if code else []
        pieces = self._pieces(text[code.end() :] if code else text, str, alpha)
        return head + [self.piece_to_id(piece) for piece in pieces]

    def _pieces(self, text: str, out_type: type, alpha: float) -> Any:
        """SentencePiece's ids (``int``) or pieces (``str``): the best, or sampled (α > 0)."""
        if not alpha:
            return self.sp.encode(text, out_type=out_type)
        return self.sp.encode(
            text, out_type=out_type, enable_sampling=True, alpha=alpha, nbest_size=-1
        )

    def encode_batch(self, texts: Iterable[str]) -> list[list[int]]:
        return [self.encode(text) for text in texts]

    def decode(self, ids: Sequence[int]) -> str:
        """Text of ``ids``; pad, bos and eos are skipped."""
        if self.table is None:
            return self.sp.decode([int(i) for i in ids])
        pieces = [self.id_to_piece(i) for i in ids if int(i) not in self._dropped]
        # The table may give pieces this model does not know (the other side's): they come out
        # as they are, their ▁ then read as a space, as MarianTokenizer reads them.
        return self.sp.decode(pieces).replace("▁", " ").strip()

    def pieces(self, text: str) -> list[str]:
        return [self.id_to_piece(i) for i in self.encode(text)]

    def tag_id(self, lang: str) -> int:
        return self.tags[lang_tag(lang)]


def model_vocabularies(directory: Path, section: Mapping[str, Any]) -> tuple[Vocab, Vocab]:
    """Source and target vocabularies of a model directory, from its config's ``vocab`` section:
    ``src_model``, ``tgt_model`` and, when the model's ids are not SentencePiece's, ``ids`` (a
    JSON piece → id table)."""
    table = section.get("ids")
    ids = read_json(directory / table) if table else None
    if ids is not None and not isinstance(ids, dict):
        raise ValueError(f"{directory / str(table)}: expected a JSON object of piece → id")
    source = Vocab(directory / section["src_model"], ids)
    joint = section["src_model"] == section["tgt_model"]
    return source, source if joint else Vocab(directory / section["tgt_model"], ids)

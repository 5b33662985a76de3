"""Where a translation looked: every layer's and head's cross-attention over a text translated as
one sequence (``fanyi plot-attention``)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from .translation import AttentionMaps

if TYPE_CHECKING:
    from .translator import Translator


def cross_attention(translator: Translator, text: str, to: str | None = None) -> AttentionMaps:
    """Translate ``text`` as one sequence, then every layer's and head's attention over it."""
    options = dataclasses.replace(translator.options, long_input="error")
    (translation,) = translator.translate([text], to, options, split_sentences=False)
    if translation.error is not None or not translation.source_tokens:
        raise ValueError(translation.error or "nothing to translate: the text is empty")
    lang, pieces, model = translation.to, translation.candidates[0].tokens, translator.text
    whole = translator.text_options.replace(split_sentences=False)
    source = model.ids(model.reading(text, lang, whole).sentences()[0], lang)
    target = [model.model.bos_id, *map(model.tgt_vocab.piece_to_id, pieces[:-1])]
    layers = translator.engine.cross_attention(source, target)
    return AttentionMaps(translation.source_tokens, pieces, layers)

"""Where a translation looked: every layer's and head's cross-attention over a text translated as
one sequence (``fanyi plot-attention``)."""

from __future__ import annotations

from ..engines.registry import Engine
from ..text.options import TextOptions
from .source_text import SourceText
from .translation import AttentionMaps, Translation


def attention_maps(
    translation: Translation, text: str, model: SourceText, engine: Engine, options: TextOptions
) -> AttentionMaps:
    """Every layer's and head's attention of ``translation``, the translation of ``text`` as
    one sequence, over ``text`` as the model read it (by ``options``, not cut into sentences)."""
    if translation.error is not None or not translation.source_tokens:
        raise ValueError(translation.error or "nothing to translate: the text is empty")
    lang, pieces = translation.to, translation.candidates[0].tokens
    whole = options.replace(split_sentences=False)
    source = model.ids(model.reading(text, lang, whole).sentences()[0], lang)
    target = [model.model.bos_id, *map(model.tgt_vocab.piece_to_id, pieces[:-1])]
    return AttentionMaps(translation.source_tokens, pieces, engine.cross_attention(source, target))

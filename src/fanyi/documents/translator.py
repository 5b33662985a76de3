"""``fanyi.Translator``: :class:`fanyi.translate.translator.Translator` with documents too, here
because documents sit above translation."""

from __future__ import annotations

from ..translate import translator
from .api import translate_document


class Translator(translator.Translator):
    """A loaded model ready to translate texts and documents:
    ``Translator.load().translate_document("notes.md", to="zh").data``."""

    translate_document = translate_document  # (source, format=None, to=None, *, name, **options)

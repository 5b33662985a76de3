"""Documents in, the same documents out, translated: one reader and writer per format.

document.py        the Document protocol, a Format, text read from bytes and spliced back
segment.py         a segment: words (Text), markup held as written (Held), markup around
                   words (Wrap), a cut between parts (Break)
compose.py         a segment's translation written with its markup placed
alignment.py       which translated words came from which source words (cross-attention)
translating.py     a document's segments through a translator, then its writer
api.py             translate_document: a file's path or bytes in, the translated bytes out
translator.py      fanyi.Translator: the Translator with translate_document as a method
registry.py        FORMATS by name and extension
plain.py           a text file: each line with words
markdown.py        Markdown by markdown-it-py's block tokens; markdown_inline.py: its inline markup
subtitles.py       SubRip and WebVTT cues, translations broken into lines again
html.py            HTML texts and attributes; html_events.py: the parser's events with their spans
tags.py            inline tags paired around the words they mark
i18n_json.py       i18n JSON's string values; messages.py: placeholders, tags and ICU plurals
xliff.py           XLIFF 1.2 and 2.0: the targets of units without one
word.py            Word (.docx): paragraphs as runs, their formatting and links kept
po.py              gettext catalogues: untranslated entries filled for review; po_file.py: the
                   file read in its charset and written back changing only those entries
"""

from typing import Any


def __getattr__(name: str) -> Any:
    """``translate_document`` (``api.py``), imported on first use: naming the formats loads no
    model code."""
    if name in ("translate_document", "TranslatedDocument"):
        from . import api

        return getattr(api, name)
    raise AttributeError(name)

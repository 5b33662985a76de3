"""``fanyi po``'s Python names, at home in :mod:`fanyi.documents.po` (the PO document format):
``fill(polib.pofile(path), translator, "zh")`` fills a catalogue's untranslated entries."""

from .documents.po import (
    FORMATS,
    CatalogueReport,
    fill,
    left_as_is,
    markup_only,
    placeholders,
    sources_of,
)

__all__ = [
    "FORMATS",
    "CatalogueReport",
    "fill",
    "left_as_is",
    "markup_only",
    "placeholders",
    "sources_of",
]

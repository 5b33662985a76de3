"""A catalogue as a file, read and written back changing only the entries filled: the names of
:mod:`fanyi.documents.po_file`."""

from .documents.po_file import (
    GETTEXT_WIDTH,
    CatalogueFile,
    charset,
    check_strings,
    line_width,
    msgstr_lines,
    parsed,
    pieces,
    read_catalogue,
    string_lines,
    written_back,
)

__all__ = [
    "GETTEXT_WIDTH",
    "CatalogueFile",
    "charset",
    "check_strings",
    "line_width",
    "msgstr_lines",
    "parsed",
    "pieces",
    "read_catalogue",
    "string_lines",
    "written_back",
]

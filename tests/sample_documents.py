"""Small documents made on the spot for the document tests."""

import io

import docx


def word_file() -> bytes:
    """A Word file: a heading and two paragraphs of English."""
    made = docx.Document()
    made.add_heading("Notes", level=1)
    made.add_paragraph("I like tea.")
    made.add_paragraph("Where is the station?")
    data = io.BytesIO()
    made.save(data)
    return data.getvalue()

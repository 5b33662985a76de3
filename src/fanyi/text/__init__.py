"""Text features: pure functions of strings, below the model's data and search (no torch).

lang.py          scripts, normalisation, sentence splitting, spacing, OpenCC
languages.py     a model's languages, codes as people write them (langcodes), a text's direction
numerals.py      numbers read as plain digits and written back as the source grouped them
dates.py         dates between Chinese and English, as the target writes them
links.py         web and e-mail addresses
code_spans.py    inline code in backticks
list_markers.py  a list item's marker ("1. ", "一、"), read apart and written back
recase.py        headlines in Title Case read in sentence case (truecase.txt)
markup.py        reStructuredText roles and literals (gettext catalogues)
"""

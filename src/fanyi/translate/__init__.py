"""Text in, text out: the pipeline from a text to its translation over an engine.

translator.py   Translator: texts in, translations out (split, batched, searched, joined)
source_text.py  what a model reads for a text: normalised, split, tagged, in pieces that fit
plan.py         the searches a batch needs: per target language, reranked, held to phrases
pending.py      texts on their way: batches in order, a failing batch decoded again in halves
translation.py  what a translation returns: candidates, scores, attention
model_names.py  a model directory's path, or a bundled model's name
"""

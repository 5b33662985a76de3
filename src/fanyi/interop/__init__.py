"""Other formats to and from a fanyi model directory: MarianMT in, CTranslate2 and MarianMT out.

marian.py      MarianMT's hyper-parameters and weight names ⇄ fanyi's
layout.py      the same model with its sinusoids laid out the other way (a feature permutation)
convert.py     a MarianMT checkpoint (local or from the Hugging Face Hub) → a model directory
export_hf.py   a model directory → a MarianMT directory that transformers loads
export_ct2.py  a model directory → a CTranslate2 model (decoded by decode/ct2_engine.py)
"""

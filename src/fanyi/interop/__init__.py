"""Other formats to and from a model directory: MarianMT and Marian in, CTranslate2 and MarianMT out.

marian.py      MarianMT's hyper-parameters and weight names ⇄ fanyi's
layout.py      the same model with its sinusoids laid out the other way (a feature permutation)
convert.py     a MarianMT checkpoint (local or from the Hugging Face Hub) → a model directory
marian_npz.py  a Marian release (model.npz, *.vocab.yml) read as a MarianMT checkpoint
export_hf.py   a model directory → a MarianMT directory that transformers loads
export_ct2.py  a model directory → a CTranslate2 model (ct2_dtypes.py: its weight types by name)
ct2_native.py  a CTranslate2 model that CTranslate2's own converter wrote, read as a checkpoint
model_card.py  the README.md of every export; preprocess.py, fanyi's normalisation shipped with it
"""

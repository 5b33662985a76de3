"""Engines: what searches a loaded model, behind one protocol and one registry.

registry.py     the Engine protocol (decode, log_likelihoods, cross_attention) and ENGINES
native.py       fanyi's own search over the model (or an ensemble), in batches of tokens
dtype.py        dtype auto: the fastest of fp32, bf16 and int8 on this host, timed; prepare_model
ctranslate2.py  a CTranslate2 directory searched by CTranslate2 (optional)
"""

from .registry import ENGINES, Engine, load_engine, register

__all__ = ["ENGINES", "Engine", "load_engine", "register"]

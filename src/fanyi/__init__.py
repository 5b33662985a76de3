"""fanyi (翻译): the Transformer of "Attention Is All You Need", built to translate."""

from ._version import __version__
from .decode.translator import Translator
from .model import ModelConfig, Transformer, build_model

__all__ = ["ModelConfig", "Transformer", "Translator", "__version__", "build_model"]

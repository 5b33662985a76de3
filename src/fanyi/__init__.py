"""fanyi (翻译): the Transformer of "Attention Is All You Need", built to translate."""

from .model import ModelConfig, Transformer, build_model

__version__ = "0.1.0"

# After __version__: the translator imports fanyi.data, which reads fanyi.__version__.
from .decode.translator import Translator

__all__ = ["ModelConfig", "Transformer", "Translator", "__version__", "build_model"]

"""fanyi (翻译): the Transformer of "Attention Is All You Need", built to translate."""

from .model import ModelConfig, Transformer, build_model

__version__ = "0.1.0"
__all__ = ["ModelConfig", "Transformer", "__version__", "build_model"]

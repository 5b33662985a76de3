"""The version of fanyi: a leaf module, so that any layer may record it without importing the rest."""

__version__ = "0.1.0"

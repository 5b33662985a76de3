"""Translation: search over the decoder's key/value cache."""

from .search import greedy_search

__all__ = ["greedy_search"]

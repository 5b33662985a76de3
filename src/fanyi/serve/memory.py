"""The memory of finished batches handed back to the system once the service falls idle.

``fanyi serve`` runs under tcmalloc where the system has it (``cli/allocator.py``), else under
glibc's malloc, and neither gives the system back what a batch freed: the pages stay with the
process for the next allocation. So a few heavy requests at once, or cancelled ones beside new
ones, left their peak resident for good (0.35 → 1.78 GB over 3,000 fuzzed requests, never
returned). Asking the allocator to release its free pages (tcmalloc's ``ReleaseFreeMemory``,
glibc's ``malloc_trim``) brings the service back to its idle size; it takes 0.05-0.2 s, so the
batcher calls it off the event loop, only once no batch is decoding.
"""

from __future__ import annotations

import ctypes
import sys

# What each allocator calls its release of free pages, tcmalloc first: where it is preloaded,
# glibc's malloc_trim is there too but has nothing to trim
RELEASES = (("MallocExtension_ReleaseFreeMemory", ()), ("malloc_trim", (0,)))


def release_free_memory() -> bool:
    """Hand the allocator's free pages back to the system; False where it has no way to."""
    if not sys.platform.startswith("linux"):
        return False
    process = ctypes.CDLL(None)
    for name, args in RELEASES:
        release = getattr(process, name, None)
        if release is not None:
            release(*args)
            return True
    return False

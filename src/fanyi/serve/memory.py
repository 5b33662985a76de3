"""What a service keeps of the memory its requests used: bounded, and handed back when idle.

``fanyi serve`` runs under tcmalloc where the system has it (``cli/allocator.py``), else under
glibc's malloc, and neither gives the system back what a batch freed: the pages stay with the
process for the next allocation. So a few heavy requests at once, or cancelled ones beside new
ones, left their peak resident for good (0.35 → 1.78 GB over 3,000 fuzzed requests, never
returned). Asking the allocator to release its free pages (tcmalloc's ``ReleaseFreeMemory``,
glibc's ``malloc_trim``) brings the service back to its idle size; it takes 0.05-0.2 s, so the
batcher calls it off the event loop, only once no batch is decoding.

oneDNN, which runs the packed linear maps, keeps a compiled kernel with its scratchpad (about
half a megabyte) for every input shape of every map, in two caches of 1,024 (its own and
PyTorch's ideep's). A server meets a new batch shape with almost every request: the bundled
model grew by 300-500 MB over 300 sentences. :func:`bound_kernel_caches` keeps 128 in each,
enough for the shapes of several batches: 300 sentences in random batches took 15.5-16.6 s
either way (fp32, one thread), at 745 MB against 823-1,031 MB.
"""

from __future__ import annotations

import ctypes
import os
import sys

KERNEL_CACHE = 128  # oneDNN kernels kept per cache
# Read by oneDNN and ideep when they first run (the first packed map: as a model loads)
KERNEL_CACHE_ENV = ("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "LRU_CACHE_CAPACITY")
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


def bound_kernel_caches(capacity: int = KERNEL_CACHE) -> None:
    """Keep at most ``capacity`` oneDNN kernels in each of its caches (where the user has not
    set them); effective only before a model is loaded in this process."""
    for name in KERNEL_CACHE_ENV:
        os.environ.setdefault(name, str(capacity))

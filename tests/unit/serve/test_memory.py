"""What a service keeps between requests stays bounded: the allocator's free pages go back to
the system once no batch decodes, and the language codes requests name are not all kept."""

import asyncio
import sys
import time

import pytest

from fanyi.serve.batching import Batcher
from fanyi.serve.memory import release_free_memory


def test_the_batcher_calls_on_idle_once_its_batches_are_done():
    idle: list[float] = []

    async def requests() -> list[list[str]]:
        batcher = Batcher(lambda texts, options, hook: texts, 0.0, 100, 1, 100, on_idle=lambda: 0)
        batcher.on_idle = lambda: idle.append(time.monotonic())
        batcher.idle_after = 0.05
        answers = [await batcher.submit(["a", "b"], None, 2) for _ in range(3)]
        answers.append(await batcher.submit(["c"], None, 1))
        for _ in range(6000):  # a loaded host may take long: no wall-clock bound but this one
            if idle:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # no second call follows
        batcher.close()
        return answers

    answers = asyncio.run(requests())
    assert answers == [["a", "b"]] * 3 + [["c"]]
    assert len(idle) == 1  # the finishes in a row moved one call later, none added


def test_no_call_while_a_batch_decodes():
    called: list[bool] = []

    async def requests() -> None:
        def slow(texts, options, hook):
            time.sleep(0.3)  # the first batch's finish falls inside the second's decoding
            return texts

        batcher = Batcher(slow, 0.0, 1, 2, 100, on_idle=lambda: called.append(True))
        batcher.idle_after = 0.01
        first = asyncio.ensure_future(batcher.submit(["a"], None, 5))
        await asyncio.sleep(0.1)
        second = asyncio.ensure_future(batcher.submit(["b"], None, 5))
        await first
        assert not called
        await second
        batcher.close()

    asyncio.run(requests())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc or tcmalloc only")
def test_the_allocator_is_asked_to_release_free_memory():
    assert release_free_memory() is True


def test_language_codes_read_from_requests_are_not_all_kept():
    import langcodes

    from fanyi.text.languages import MEMO_LIMIT, language

    for n in range(MEMO_LIMIT + 100):
        language(f"en-x-{n}")
    assert len(langcodes.Language._PARSE_CACHE) <= MEMO_LIMIT + 1
    assert len(langcodes.Language._INSTANCES) <= MEMO_LIMIT + 1
    assert language("zh-TW").chinese_script == "tw" and language("EN").code == "en"


GROWTH = """
import ctypes, gc, sys, torch
from fanyi.serve.memory import bound_kernel_caches
if sys.argv[1] == "bounded":
    bound_kernel_caches(8)
from fanyi.model.inference.packed import PackedLinear

def rss():
    status = open("/proc/self/status").read().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) // 1024

torch.set_num_threads(1)
linear = PackedLinear(torch.nn.Linear(64, 256))
before = rss()
with torch.inference_mode():
    for rows in range(1, 400):  # a new batch shape each time, as requests bring them
        linear(torch.randn(rows, 64))
gc.collect()
ctypes.CDLL(None).malloc_trim(0)
print(rss() - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kernels_kept_for_new_batch_shapes_are_bounded():
    """oneDNN keeps a kernel per input shape (about half a megabyte each, 1,024 by default)."""
    import subprocess

    def growth(mode: str) -> int:
        run = [sys.executable, "-c", GROWTH, mode]
        done = subprocess.run(run, capture_output=True, text=True, check=True, env=clean_env())
        return int(done.stdout.split()[-1])

    assert growth("bounded") < 40 < growth("default")  # MB, 399 shapes: about 200 unbounded


def clean_env() -> dict[str, str]:
    import os

    from fanyi.serve.memory import KERNEL_CACHE_ENV

    return {k: v for k, v in os.environ.items() if k not in KERNEL_CACHE_ENV}

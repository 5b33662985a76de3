"""Decoding speed: fanyi (fp32, bf16, int8) against Hugging Face MarianMT ``generate``,
CTranslate2 (float32, int8) and a no-cache decoder, all on the same random weights.

A batch of 32 sources of 20-30 tokens; every system generates 30 tokens per source (EOS
suppressed until then), greedy and beam 4, with one thread, and with the best use of two cores
each system offers: two intra-op threads, or two single-thread workers on half-batches. The
Marian and CTranslate2 models are first checked to give fanyi's log-probabilities. Runs are
interleaved so machine noise hits all alike; all run under tcmalloc where installed (as ``fanyi
translate`` does; ``--malloc glibc`` for glibc's). Ends with one JSON line.

    python benchmarks/decode.py            # tiny and base-small, about 10 minutes
    python benchmarks/decode.py --quick    # tiny only, one round
    python benchmarks/decode.py --sizes tiny --compile   # and fanyi with compiled steps
"""

from __future__ import annotations

import argparse
import logging
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import ctranslate2
import torch
import transformers
from torch import Tensor

from common import emit, interleaved, machine, with_allocator
from decode_peers import (
    SIZES,
    as_tokens,
    check_ct2,
    check_marian,
    ct2_models,
    generate_exactly,
    marian_from_fanyi,
    no_cache_greedy,
    random_model,
    sources,
)
from fanyi.decode import SearchOptions, decode
from fanyi.engines.dtype import prepare_model
from fanyi.model import Transformer

BATCH, NEW_TOKENS = 32, 30
DTYPES = ("fp32", "bf16", "int8")
Run = Callable[[], object]


def halves(fn: Callable[[Tensor], list[int]], src: Tensor) -> Run:
    """Two single-thread workers, each on half the batch (the same freedom for every system)."""

    def run() -> list[int]:
        with ThreadPoolExecutor(2) as pool:
            return [n for part in pool.map(fn, src.tensor_split(2)) for n in part]

    return run


def with_threads(threads: int, fn: Run) -> Run:
    def run() -> list[int]:
        torch.set_num_threads(threads)
        return fn()

    return run


def fanyi_runs(
    model: Transformer, src: Tensor, beam: int, cores: int, compiled: bool, prepared: dict
) -> dict[str, Run]:
    """fanyi in each dtype (and with compiled steps, when ``compiled``); on two cores both as two
    threads and as two workers. Each model is prepared once and kept in ``prepared``, so that a
    compile is paid once, before the first timing."""
    runs = {}
    settings = [(1, 1)] if cores == 1 else [(2, 1), (1, 2)]  # (threads, workers)
    variants = [(d, False) for d in DTYPES]
    if compiled:
        variants += [("fp32", True), ("bf16", True)]
    for dtype, step_compiled in variants:
        for threads, workers in settings:
            config = SearchOptions(
                beam=beam, max_len_a=0, max_len_b=NEW_TOKENS - 1, min_len=NEW_TOKENS - 1
            )  # 29 tokens + the forced EOS: 30 decoder steps, like the peers' 30 tokens
            if (dtype, step_compiled) not in prepared:
                prepared[dtype, step_compiled] = prepare_model(model, dtype, step_compiled)
            model_ = prepared[dtype, step_compiled]
            system = f"fanyi{'-compiled' if step_compiled else ''} {dtype}"
            name = system + ("" if cores == 1 else f" {_how(threads, workers)}")
            runs[name] = with_threads(
                threads,
                lambda m=model_, c=config, w=workers: [
                    len(h[0].tokens) + 1 for h in decode(m, src, c, workers=w)
                ],
            )
    return runs


def _how(threads: int, workers: int) -> str:
    return "2 workers" if workers == 2 else f"{threads} threads"


def hf_runs(
    marian: transformers.MarianMTModel, src: Tensor, beam: int, cores: int
) -> dict[str, Run]:
    """MarianMTModel.generate (with its KV cache)."""

    def generate(part: Tensor) -> list[int]:
        out = generate_exactly(marian, part, beam, NEW_TOKENS)
        return [out.size(1) - 1] * out.size(0)

    if cores == 1:
        return {"HF generate": with_threads(1, lambda: generate(src))}
    return {
        "HF generate 2 threads": with_threads(2, lambda: generate(src)),
        "HF generate 2 workers": with_threads(1, halves(generate, src)),
    }


def ct2_runs(dirs: dict[str, str], src: Tensor, beam: int, cores: int) -> dict[str, Run]:
    """CTranslate2 translate_batch on the converted Marian model, float32 and int8."""
    opts = {"beam_size": beam, "max_decoding_length": NEW_TOKENS, "min_decoding_length": NEW_TOKENS}

    def translate(translator: ctranslate2.Translator, part: Tensor) -> list[int]:
        results = translator.translate_batch(as_tokens(part), **opts)
        return [len(r.hypotheses[0]) for r in results]

    runs: dict[str, Run] = {}
    for quantization, path in dirs.items():
        name = f"CT2 {quantization}"
        if cores == 1:
            one = ctranslate2.Translator(path, intra_threads=1)
            runs[name] = lambda t=one: translate(t, src)
            continue
        two = ctranslate2.Translator(path, intra_threads=2)
        pair = ctranslate2.Translator(path, inter_threads=2, intra_threads=1)
        runs[f"{name} 2 threads"] = lambda t=two: translate(t, src)
        runs[f"{name} 2 workers"] = halves(lambda part, t=pair: translate(t, part), src)
    return runs


def no_cache_runs(model: Transformer, src: Tensor) -> dict[str, Run]:
    """The decoder re-run on the whole prefix at every step (greedy, one thread)."""
    run = lambda: [NEW_TOKENS] * no_cache_greedy(model, src, NEW_TOKENS).size(0)  # noqa: E731
    return {"no-cache": with_threads(1, run)}


def measure(runs: dict[str, Run], rounds: int) -> dict[str, float]:
    """Tokens per second of each run, after checking each generated 30 tokens per source."""
    for name, run in runs.items():
        assert set(run()) == {NEW_TOKENS}, f"{name} did not generate {NEW_TOKENS} tokens"
    seconds = interleaved(runs, rounds, warmup=0)  # the length check was the warm-up
    return {name: BATCH * NEW_TOKENS / s for name, s in seconds.items()}


def best(figures: dict[str, float], prefix: str) -> tuple[str, float]:
    """The fastest run whose name starts with ``prefix``."""
    name = max((n for n in figures if n.startswith(prefix)), key=figures.__getitem__)
    return name, figures[name]


SYSTEMS = (
    "fanyi fp32",
    "fanyi bf16",
    "fanyi int8",
    "fanyi-compiled fp32",
    "fanyi-compiled bf16",
    "HF generate",
    "CT2 float32",
    "CT2 int8",
    "no-cache",
)
PEERS = {
    "HF": "HF generate",
    "CT2 float32": "CT2 float32",
    "CT2 int8": "CT2 int8",
    "no-cache": "no-cache",
}


def run_size(name: str, rounds: int, workdir: Path, compiled: bool) -> tuple[dict, dict]:
    """All systems on one model size: tokens/s per mode and cores, and the correctness checks."""
    size = SIZES[name]
    model, src = random_model(size), sources(size["vocab"], BATCH)
    marian = marian_from_fanyi(model)
    dirs = ct2_models(marian, workdir / name)
    tgt = torch.randint(4, size["vocab"], (4, 12))
    checks = {
        "marian_max_logit_diff": check_marian(model, marian, src[:4], tgt),
        "ct2_float32_max_logprob_diff": check_ct2(
            model, ctranslate2.Translator(dirs["float32"]), src[:4], tgt
        ),
    }
    assert (
        checks["marian_max_logit_diff"] < 1e-3 and checks["ct2_float32_max_logprob_diff"] < 1e-3
    ), checks
    figures: dict = {}
    prepared: dict = {}
    for mode, beam in (("greedy", 1), ("beam4", 4)):
        for cores in (1, 2):
            runs = fanyi_runs(model, src, beam, cores, compiled, prepared)
            runs |= hf_runs(marian, src, beam, cores)
            runs |= ct2_runs(dirs, src, beam, cores)
            if beam == 1 and cores == 1:
                runs |= no_cache_runs(model, src)
            figures.setdefault(mode, {})[f"{cores}core"] = measure(runs, rounds)
            print(f"  {name} {mode} {cores} core(s) done", flush=True)
    return figures, checks


def ratios(figures: dict) -> dict:
    """fanyi's best (any dtype, any use of the cores) over each peer's best, per mode and cores;
    compiled steps apart (``fanyi-compiled``)."""
    out = {}
    for mode, by_cores in figures.items():
        for cores, f in by_cores.items():
            for label in ("fanyi", "fanyi-compiled"):
                if not any(n.startswith(f"{label} ") for n in f):
                    continue
                ours = best(f, f"{label} ")[1]
                for peer, prefix in PEERS.items():
                    if any(n.startswith(prefix) for n in f):
                        ratio = round(ours / best(f, prefix)[1], 2)
                        out[f"{mode} {cores} {label}/{peer}"] = ratio
    return out


def table(name: str, figures: dict) -> str:
    """A Markdown table: tokens/s of each system; on 2 cores its best setting."""
    columns = [(m, c) for m in ("greedy", "beam4") for c in ("1core", "2core")]
    head = (
        "| "
        + name
        + " | "
        + " | ".join(f"{m} {c[0]} core{'s' if c[0] == '2' else ''}" for m, c in columns)
        + " |"
    )
    lines = [head, "|" + " --- |" * (len(columns) + 1)]
    for system in SYSTEMS:
        cells = []
        for mode, cores in columns:
            f = figures[mode][cores]
            if not any(n.startswith(system) for n in f):
                cells.append("")
                continue
            run, value = best(f, system)
            how = run[len(system) :].strip()
            cells.append(f"{value:,.0f}" + (f" ({how})" if how else ""))
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny size, one round")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per run (median)")
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), choices=list(SIZES))
    parser.add_argument(
        "--malloc",
        default="tcmalloc",
        choices=["tcmalloc", "glibc"],
        help="allocator of every system (fanyi's CLI runs under tcmalloc where installed)",
    )
    parser.add_argument(
        "--compile",
        action="store_true",
        help="fanyi with compiled decoder steps too (fp32, bf16; each compile ~20 s, untimed)",
    )
    args = parser.parse_args()
    malloc = with_allocator(args.malloc)
    sizes, rounds = (["tiny"], 1) if args.quick else (args.sizes, args.rounds)
    logging.getLogger("transformers").setLevel(logging.ERROR)
    transformers.utils.logging.disable_progress_bar()
    results: dict = {"benchmark": "decode", "machine": machine(), "sizes": {}}
    results["versions"] = {
        "transformers": transformers.__version__,
        "ctranslate2": ctranslate2.__version__,
    }
    results["settings"] = {
        "batch": BATCH,
        "new_tokens": NEW_TOKENS,
        "source_tokens": "20-30",
        "rounds": rounds,
        "malloc": malloc,
        "compile": args.compile,
    }
    with tempfile.TemporaryDirectory() as workdir:
        for name in sizes:
            figures, checks = run_size(name, rounds, Path(workdir), args.compile)
            results["sizes"][name] = {
                "config": SIZES[name],
                "tokens_per_s": figures,
                "checks": checks,
                "ratios": ratios(figures),
            }
    for name, r in results["sizes"].items():
        print(f"\ntokens/s, batch {BATCH}, {NEW_TOKENS} new tokens each ({name}: {SIZES[name]})\n")
        print(table(name, r["tokens_per_s"]))
        print("\nfanyi's best over each peer's best:", r["ratios"])
    emit(results)


if __name__ == "__main__":
    main()

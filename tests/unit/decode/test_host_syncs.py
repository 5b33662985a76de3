"""No host synchronisation per decoding step (``decode/checks.py``): a search that runs T steps
reads the device from the host ceil(T / CHECK_EVERY) times plus a constant, counted on the CPU
by ``host_syncs`` with the CPU set to check as an accelerator does; finished rows leave the
batch at the next check; and the results are those of checking after every step."""

import math

import pytest
import torch
from hand_model import BOS, EOS, PAD, HandModel

from fanyi.decode import SearchOptions, SearchTask, beam_search, checks, decode, greedy_decode
from fanyi.decode.checks import CHECK_EVERY
from host_syncs import host_syncs
from tiny_model import tiny_model

# Outside the checks a search reads the device on the host: once for the model's source mask
# (``Transformer.source_mask``), once for the source lengths and limits (``checks.horizon``),
# once (beam search) to upload the limits' length penalties, and twice for the results.
BEFORE_AND_AFTER = 5
MODEL = tiny_model(0, vocab=16, max_len=64)
SRC = torch.randint(4, 16, (6, 9), generator=torch.Generator().manual_seed(0))


@pytest.fixture
def as_on_a_gpu(monkeypatch):
    """The CPU checks every CHECK_EVERY steps, as an accelerator does."""
    monkeypatch.setattr(checks, "CPU_CHECK_EVERY", CHECK_EVERY)


def test_the_counter_sees_what_waits_for_the_device():
    x = torch.arange(6.0).view(2, 3)
    reads = [
        lambda: x[0, 0].item(),
        lambda: bool((x > 2).any()),
        lambda: int(x.sum()),
        lambda: x.tolist(),
        lambda: x.cpu(),
        lambda: (x > 2).nonzero(),
        lambda: x[x > 2],
        lambda: torch.tensor([1], device=x.device),
    ]
    for read in reads:
        for inference in (False, True):
            with torch.inference_mode(inference), host_syncs() as seen:
                read()
            assert seen.count == 1, seen.calls
    with host_syncs() as seen:
        x[torch.tensor([1, 0])].softmax(-1).topk(2)
        torch.where(x > 2, x, 0.0).to(torch.float64)
    assert seen.count == 0, seen.calls


@pytest.mark.parametrize("steps", [20, 41])
@pytest.mark.parametrize(
    "options",
    [{"beam": 1}, {"beam": 4, "n_best": 2}, {"sampling": True, "seed": 1, "n_best": 2}],
    ids=["greedy", "beam-4", "sampling"],
)
def test_a_search_of_t_steps_reads_the_device_once_per_check(options, steps, as_on_a_gpu):
    """Every row ends at step T - 1 exactly (EOS forbidden before, forced there)."""
    length = steps - 1
    config = SearchOptions(**options, min_len=length, max_len_a=0.0, max_len_b=length)
    with host_syncs() as seen:
        found = decode(MODEL, SRC, config, 2, 3)
    assert {len(h.tokens) for hyps in found for h in hyps} == {length}
    assert seen.count <= math.ceil(steps / CHECK_EVERY) + BEFORE_AND_AFTER, seen.calls


@pytest.mark.parametrize("beam", [1, 4])
def test_suppressed_and_penalised_ids_cost_two_uploads_per_search_not_per_step(beam, as_on_a_gpu):
    """The ids and their −∞ / −β go to the device once, before the first step."""
    steps, length = 41, 40
    config = SearchOptions(
        beam=beam, min_len=length, max_len_a=0.0, max_len_b=length,
        suppress_ids=[5], penalized_ids=[6, 7], script_penalty=1.0,
    )  # fmt: skip
    with host_syncs() as seen:
        decode(MODEL, SRC, config, 2, 3)
    assert seen.count <= math.ceil(steps / CHECK_EVERY) + BEFORE_AND_AFTER + 2, seen.calls


def early_end_for_short(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """A source of one word ends at once; longer ones never choose EOS. For those EOS is the
    least likely of the four, never tied with a word: with ties, which of them ``topk`` ranks
    first differs between CPUs (an AVX2-only EPYC ranked EOS among a beam's first k, so the
    long source gathered k finished hypotheses and ended after five steps)."""
    if len(source) == 1:
        return {EOS: 0.97, 3: 0.01, 4: 0.01, 5: 0.01}
    return {EOS: 0.001, 3: 0.97, 4: 0.015, 5: 0.014}


@pytest.mark.parametrize("beam", [1, 3])
def test_finished_sources_leave_the_batch_at_the_next_check(beam, as_on_a_gpu):
    model = HandModel(early_end_for_short)
    src = torch.tensor([[3, PAD], [4, PAD], [3, 4]])  # two sources end at step 0
    search = beam_search if beam > 1 else greedy_decode
    limit = 2 * CHECK_EVERY
    result = search(
        model, SearchTask(src, SearchOptions(beam=beam, max_len_a=0.0, max_len_b=limit), BOS, EOS)
    )
    assert model.batch_sizes[:CHECK_EVERY] == [3 * beam] * CHECK_EVERY
    assert set(model.batch_sizes[CHECK_EVERY:]) == {beam}  # only the long source goes on
    assert [h[0].tokens for h in result] == [[], [], [3] * limit]


@pytest.mark.parametrize(
    "options",
    [
        {"beam": 1, "attention": True},
        {"beam": 1, "min_len": 4, "repetition_penalty": 1.5},
        {"beam": 4, "n_best": 3, "length_penalty": 1.0, "attention": True},
        {"beam": 3, "n_best": 1, "no_repeat_ngram_size": 2},
    ],
)
def test_results_are_those_of_a_check_after_every_step(options, monkeypatch):
    model = tiny_model(1, vocab=16, max_len=64)
    with torch.no_grad():  # a peaked output layer, so that rows end at different steps
        model.generator.proj.weight.mul_(4.0)
    src = torch.randint(4, 16, (7, 8), generator=torch.Generator().manual_seed(1))
    src[::2, 4:] = PAD
    config = SearchOptions(**options)
    every_step = decode(model, src, config, 2, 3)  # the CPU's own interval: 1
    monkeypatch.setattr(checks, "CPU_CHECK_EVERY", CHECK_EVERY)
    found = decode(model, src, config, 2, 3)
    assert [[h.tokens for h in hs] for hs in found] == [[h.tokens for h in hs] for hs in every_step]
    for hyps, hyps_1 in zip(found, every_step, strict=True):
        for h, h_1 in zip(hyps, hyps_1, strict=True):
            assert h.score == pytest.approx(h_1.score, rel=1e-5, abs=1e-6)
            if h.attention is not None:
                torch.testing.assert_close(h.attention, h_1.attention, rtol=0, atol=1e-5)

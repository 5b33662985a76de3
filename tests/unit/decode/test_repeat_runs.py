"""max_repeat_run: what a run is in text (``text/runs.py``), the pieces' tables, and greedy
decoding, beam search, sampling and the constrained search on a hand-set model that stutters,
with the tokens each must find, the source that holds the run, and batches."""

import math

import pytest
import torch
from hand_model import BOS, EOS, HandModel

from fanyi.decode import SearchOptions, SearchTask, beam_search, greedy_decode, sample
from fanyi.decode.held_batch import constrained_search
from fanyi.decode.repetition import trailing_run
from fanyi.decode.run_tables import NONE, PieceRuns, RunTables
from fanyi.text.runs import degenerate, degenerate_runs
from foreign_device import foreign_device
from tiny_model import tiny_model

# the hand model's ids 3, 4, 5 spell these pieces (0-2: pad, BOS, EOS)
LETTERS = ["", "", "", "s", "ss", "\u2581x"]  # "s" runs on; "▁x" starts a word
WORD = ["", "", "", "\u2581de", "ly", "\u2581x"]  # "▁de ly": a word of two pieces


@pytest.mark.parametrize(
    ("output", "source", "runs"),
    [
        ("Professssssor Li", "李教授", ["ssssss"]),
        ("Professsor Li", "李教授", []),  # three: not a run
        ("Yes, sssss.", "sssss", []),  # the source holds it
        ("the the the the end", "结束", ["the the the the"]),
        (
            "deliberately deliberately deliberately deliberately",
            "故意",
            ["deliberately deliberately deliberately deliberately"],
        ),
        ("造成造成造成造成影响", "cause", ["造成造成造成造成"]),
        ("10000 yuan and 1,000,000,000,000", "1万元", []),  # numbers
        ("wait....", "等等", ["...."]),
        ("wait...", "等等", []),
        ("that is to say......", "也就是说……", []),  # NFKC: "……" is six dots
    ],
)
def test_a_run_is_a_unit_four_times_in_a_row_that_the_source_lacks(output, source, runs):
    assert degenerate_runs(output, source) == runs
    assert degenerate(output, source) == bool(runs)


def test_the_tables_hold_each_pieces_runs():
    runs = PieceRuns.of(["", "\u2581sss", "ss", "abb", "00", "xxxx"], 7)
    s, b, x = ord("s"), ord("b"), ord("x")
    assert runs.lead_char.tolist() == [NONE, NONE, s, ord("a"), NONE, x, NONE]
    assert runs.trail_len.tolist() == [0, 3, 2, 2, 2, 4, 0]
    assert runs.trail_char.tolist() == [NONE, s, s, b, NONE, x, NONE]
    assert runs.whole.tolist() == [False, False, True, False, False, True, False]
    assert runs.inner_len.tolist() == [0, 3, 2, 2, 0, 4, 0]
    # "▁sss ss ss", "ss ▁sss ss", "abb ss ss": runs across pieces, cut by a word start
    tokens = torch.tensor([[1, 2, 2], [2, 1, 2], [3, 2, 2]])
    char, length = trailing_run(tokens, runs)
    assert char.tolist() == [s, s, s] and length.tolist() == [7, 5, 4]


def stutter(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """3 is the likeliest piece, then 4; 5 less so the later it comes (so a beam puts it
    early); EOS after six pieces."""
    if len(prefix) >= 6:
        return {EOS: 0.9, 5: 0.1}
    other = 0.15 - 0.01 * len(prefix)
    return {3: 0.6, 4: 0.2, 5: other, EOS: 0.2 - other}


def alternate(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """3 4 3 4 …: "▁de ly" again and again; 5 second."""
    if len(prefix) >= 10:
        return {EOS: 0.9, 5: 0.1}
    best = 4 if prefix and prefix[-1] == 3 else 3
    return {best: 0.7, 5: 0.2, 7 - best: 0.05, EOS: 0.05}


def options(n: int, **more) -> SearchOptions:
    """Six pieces or more (EOS forbidden before), at most ten, no α."""
    limits = {"max_len_a": 0.0, "max_len_b": 10, "min_len": 6, "length_penalty": 0.0}
    return SearchOptions(**{**limits, "max_repeat_run": n, **more})


TABLES = (LETTERS, LETTERS, (6, 6))  # source and target pieces, and their sizes


def found(table, src, config, pieces=LETTERS, search=greedy_decode) -> list[list[int]]:
    """Each source's best tokens, the hand model's ids spelling ``pieces``."""
    runs = RunTables.of(pieces, pieces, (6, 6))
    task = SearchTask(torch.tensor(src), config, BOS, EOS, runs=runs)
    return [hyps[0].tokens for hyps in search(HandModel(table), task)]


NO_RUN = [[4, 5]]  # "ss▁x": no run of four
RUN = [[4, 4, 5]]  # "ssss▁x": the source writes s four times


@pytest.mark.parametrize(
    ("n", "src", "tokens"),
    [
        (0, NO_RUN, [3, 3, 3, 3, 3, 3]),  # off: "ssssss"
        (4, NO_RUN, [3, 3, 3, 5, 3, 3]),  # a fourth s (or ss) forbidden: "sss x ss"
        (3, NO_RUN, [3, 3, 5, 3, 3, 5]),
        (4, RUN, [3, 3, 3, 3, 3, 3]),  # the source holds the run
    ],
)
def test_greedy_writes_no_run_the_source_lacks(n, src, tokens):
    assert found(stutter, src, options(n)) == [tokens]
    sampled = found(stutter, src, options(n, sampling=True, top_k=1, seed=0), search=sample)
    assert sampled == [tokens]


def test_a_run_of_a_unit_of_pieces_is_cut_at_its_fourth_repeat():
    assert found(alternate, NO_RUN, options(0), WORD) == [[3, 4, 3, 4, 3, 4, 3, 4, 3, 4]]
    # "de ly" three times, then "de" and not "ly" again
    assert found(alternate, NO_RUN, options(4), WORD) == [[3, 4, 3, 4, 3, 4, 3, 5, 3, 4]]
    held = [[3, 4, 3, 4, 3, 4, 3, 4]]  # the source writes "de ly" four times
    assert found(alternate, held, options(4), WORD) == [[3, 4, 3, 4, 3, 4, 3, 4, 3, 4]]


def test_beam_search_finds_the_best_translation_without_a_run():
    """The exhaustive best of six pieces without four s in a row: 5 as early as it must be,
    scored as the model scores it."""
    config = options(4, beam=8, n_best=1, max_len_b=6)
    task = SearchTask(torch.tensor(NO_RUN), config, BOS, EOS, runs=RunTables.of(*TABLES))
    (hyp,) = beam_search(HandModel(stutter), task)[0]
    assert hyp.tokens == [3, 3, 5, 3, 3, 3]
    probs = [stutter((), tuple(hyp.tokens[:i]))[t] for i, t in enumerate(hyp.tokens)]
    assert hyp.log_prob == pytest.approx(sum(map(math.log, probs)) + math.log(0.9))


SEARCHES = {
    "greedy": (greedy_decode, {"beam": 1}),
    "beam": (beam_search, {"beam": 4, "n_best": 2}),
    "sampling": (sample, {"sampling": True, "top_k": 1, "seed": 0}),
}


@pytest.mark.parametrize("name", SEARCHES)
def test_a_lines_result_does_not_depend_on_its_batch(name):
    search, more = SEARCHES[name]
    config = options(4, **more)
    rows = [[4, 4, 5], [4, 5, 0], [5, 0, 0], [4, 4, 5]]  # the first and last hold the run
    batch = found(stutter, rows, config, search=search)
    alone = [found(stutter, [row], config, search=search)[0] for row in rows]
    assert batch == alone
    assert batch[0] == batch[3] != batch[1]


def test_the_constrained_search_writes_no_run():
    runs = RunTables.of(*TABLES)
    config = options(4, beam=4)
    task = SearchTask(torch.tensor(NO_RUN), config, BOS, EOS, runs=runs)
    (best, *_) = constrained_search(HandModel(stutter), task, [[[4]]])  # must hold "ss"
    text = "".join(LETTERS[t] for t in best.tokens)
    assert 4 in best.tokens and "ssss" not in text
    free = SearchTask(torch.tensor(NO_RUN), options(0, beam=4), BOS, EOS, runs=runs)
    (unguarded, *_) = constrained_search(HandModel(stutter), free, [[[4]]])
    assert "ssss" in "".join(LETTERS[t] for t in unguarded.tokens)


def test_a_source_holds_a_run_in_its_nfkc_form():
    """ "……" is six dots: a translation of it may write "......", one of "..." may not."""
    pieces = ["", "", "", "\u2026\u2026", ".", "..."]
    tables = RunTables.of(pieces, pieces, (6, 6))
    config = options(4, max_len_b=6)
    for src, tokens in (([[3]], [4, 4, 4, 4, 4, 4]), ([[5]], [4, 4, 4, 3, 4, 4])):
        task = SearchTask(torch.tensor(src), config, BOS, EOS, runs=tables)
        assert greedy_decode(HandModel(dots), task)[0][0].tokens == tokens


def dots(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """ "." again and again, then "……"."""
    return {4: 0.6, 3: 0.3, EOS: 0.1}


def test_a_run_is_not_continued_in_bytes():
    """ "s" spelt as its UTF-8 byte (SentencePiece's byte fallback) counts as "s"."""
    pieces = ["", "", "", "s", "<0x73>", "\u2581x"]
    tables = RunTables.of(pieces, pieces, (6, 6))
    task = SearchTask(torch.tensor(NO_RUN), options(4, max_len_b=6), BOS, EOS, runs=tables)
    assert greedy_decode(HandModel(stutter), task)[0][0].tokens == [3, 3, 3, 5, 3, 3]


def cough(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """咳 in bytes (E5 92 B3: ids 3 4 5) again and again."""
    following = 3 if not prefix else 3 + (prefix[-1] - 2) % 3
    return {following: 0.7, EOS: 0.2, **{i: 0.05 for i in (3, 4, 5) if i != following}}


@pytest.mark.parametrize(
    ("src", "tokens"),
    [
        ([[5]], [3, 4, 5] * 3),  # the fourth 咳 is not begun: no byte left over
        ([[3, 4, 5] * 4], [3, 4, 5] * 4),  # the source writes 咳 four times
    ],
)
def test_a_run_of_a_character_in_bytes_stops_at_a_characters_end(src, tokens):
    pieces = ["", "", "", "<0xE5>", "<0x92>", "<0xB3>"]
    config = SearchOptions(max_len_a=0.0, max_len_b=12, length_penalty=0.0, max_repeat_run=4)
    task = SearchTask(
        torch.tensor(src), config, BOS, EOS, runs=RunTables.of(pieces, pieces, (6, 6))
    )
    assert greedy_decode(HandModel(cough), task)[0][0].tokens == tokens


def test_a_search_without_the_vocabularies_runs_unguarded():
    task = SearchTask(torch.tensor(NO_RUN), options(4), BOS, EOS)
    assert greedy_decode(HandModel(stutter), task)[0][0].tokens == [3, 3, 3, 3, 3, 3]


@pytest.mark.parametrize("value", [1, -1, 2.5])
def test_a_run_of_one_is_refused(value):
    with pytest.raises(ValueError, match="max_repeat_run"):
        SearchOptions(max_repeat_run=value)


@pytest.mark.parametrize("name", SEARCHES)
def test_its_tensors_follow_the_source_device(name):
    """A tiny Transformer whose pieces are mostly "s": the guard forbids at most steps."""
    search, more = SEARCHES[name]
    pieces = ["", "", "", ""] + ["s", "ss", "\u2581x", "a"] * 9
    runs = RunTables.of(pieces, pieces, (40, 40))  # made once per vocabulary, on the host
    src = torch.tensor([[4, 5, 6, 3], [4, 4, 5, 3]])
    task = SearchTask(src, options(3, **more), 2, 3, runs=runs)
    model = tiny_model(3, vocab=40)
    expected = search(model, task)
    with foreign_device():
        found = search(model, task)
    assert [[h.tokens for h in hyps] for hyps in found] == [
        [h.tokens for h in hyps] for hyps in expected
    ]

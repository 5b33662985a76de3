"""A best translation whose text holds a run its source does not, though the search's guard,
reading pieces, let it through ("X" "ian" "g" "ang" "ang" "ang"), is searched again for the
beam's n-best, and the best of them without a run is taken (``plan.without_runs``)."""

from __future__ import annotations

import pytest

from fanyi.decode.hypothesis import finish
from fanyi.decode.options import SearchOptions
from fanyi.ensemble_dir import first_member
from fanyi.sections import read_config
from fanyi.translate.model_names import TATOEBA
from fanyi.translate.plan import Rows, Searcher, without_runs
from fanyi.translate.source_text import SourceText

pytestmark = pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}")
RUN = "He admired Xiangangangang."
CLEAN = ["He admired Xiangjiang.", "He admired the river."]


class Scripted:
    """An engine whose n-best is the same scripted list for every source."""

    def __init__(self, text: SourceText, written: list[str]) -> None:
        self.text, self.written, self.asked = text, written, []

    def decode(self, sources, options, between_steps, prefixes=None, constraints=None):
        self.asked.append((len(sources), options.n_best))
        vocab, alpha = self.text.target.vocab, options.length_penalty
        made = [finish(vocab.encode(t), -1.0 - n, alpha) for n, t in enumerate(self.written)]
        return [made[: options.n_best] for _ in sources]


@pytest.fixture(scope="module")
def text():
    return SourceText(read_config(first_member(TATOEBA)))


def found_for(text: SourceText, written: list[str]):
    return [[finish(text.target.vocab.encode(t), -1.0, 1.0)] for t in written]


@pytest.mark.parametrize(
    ("alternatives", "expected"), [([RUN, *CLEAN], CLEAN[0]), ([RUN, RUN + "!"], RUN)]
)
def test_a_run_in_the_text_is_searched_again_and_the_best_without_one_kept(
    text, alternatives, expected
):
    rows = Rows([text.ids(s, "en") for s in ["他很好。", "他很喜欢湘江。"]], ["en", "en"])
    engine = Scripted(text, alternatives)
    searcher = Searcher(engine, text, SearchOptions(beam=4, max_repeat_run=4), lambda: None)
    found = without_runs(searcher, rows, found_for(text, ["He is fine.", RUN]))
    decoded = [text.target.vocab.decode(hyps[0].tokens) for hyps in found]
    assert decoded == ["He is fine.", expected]  # none without a run: the first stays
    assert engine.asked == [(1, 4)]  # the source with a run alone, for the beam's n-best


def test_nothing_is_searched_again_without_the_guard_or_a_run(text):
    rows = Rows([text.ids("他很喜欢湘江。", "en")], ["en"])
    for options, written in [
        (SearchOptions(beam=4, max_repeat_run=0), RUN),
        (SearchOptions(beam=4, max_repeat_run=4), CLEAN[0]),
    ]:
        engine = Scripted(text, [RUN, *CLEAN])
        searcher = Searcher(engine, text, options, lambda: None)
        found = without_runs(searcher, rows, found_for(text, [written]))
        assert text.target.vocab.decode(found[0][0].tokens) == written
        assert engine.asked == []

"""Subword regularisation (Kudo 2018): sampled segmentations spell the same text, vary from
epoch to epoch, and depend on (seed, epoch, example) alone (a run that samples them resumes
bitwise: tests/integration/test_train_resume.py)."""

from pathlib import Path

import pytest

from fanyi.data import ParallelDataset, Vocab
from fanyi.data.regularization import SampledSegmentations
from fanyi.ensemble_dir import first_member
from fanyi.train import TrainConfig

BUNDLED = Path(__file__).resolve().parents[3] / "src" / "fanyi" / "bundled" / "zh-en"
SOURCES = [
    "<2en> 我们明天早上八点在火车站见面吧。",
    "<2zh> The weather is nice today, so let's walk to the park.",
    "<2en> 这本书很有意思。",
    "<2zh> Where is the train station?",
]


@pytest.fixture(scope="module")
def sampled() -> SampledSegmentations:
    vocab = Vocab(first_member(BUNDLED) / "spm.model")
    targets = [s.split(" ", 1)[1] for s in reversed(SOURCES)]  # any aligned text will do
    best = ParallelDataset(vocab.encode_batch(SOURCES), vocab.encode_batch(targets))
    return SampledSegmentations(best, (SOURCES, targets), (vocab, vocab), alpha=0.1, seed=7)


def test_a_sample_spells_the_same_text_with_its_tag_first(sampled):
    vocab = sampled.vocabs[0]
    for epoch in range(5):
        for i, (src, tgt) in enumerate(sampled.examples(range(len(SOURCES)), epoch)):
            tag, text = SOURCES[i].split(" ", 1)
            assert src[0] == vocab.tags[tag]
            assert vocab.decode(src[1:]) == text
            assert vocab.decode(tgt) == sampled.texts[1][i]


def test_samples_vary_by_epoch_and_are_longer_than_the_best(sampled):
    per_epoch = [sampled.examples(range(len(SOURCES)), epoch) for epoch in range(6)]
    assert len({tuple(map(tuple, e[0])) for e in zip(*per_epoch, strict=True)}) > 1
    best_length = sum(len(s) for s in sampled.src)
    assert sum(len(s) for s, _ in per_epoch[0]) + sum(len(s) for s, _ in per_epoch[1]) > 2 * (
        best_length
    )


def test_a_sample_depends_on_seed_epoch_and_example_only(sampled):
    together = sampled.examples([0, 1, 2, 3], 4)
    apart = [sampled.examples([i], 4)[0] for i in (3, 1, 0, 2)]
    assert together == [apart[2], apart[1], apart[3], apart[0]]
    other_seed = SampledSegmentations(sampled, sampled.texts, sampled.vocabs, 0.1, seed=8)
    assert other_seed.examples([0, 1, 2, 3], 4) != together


def test_alpha_out_of_range_is_refused(sampled):
    with pytest.raises(ValueError, match="alpha"):
        SampledSegmentations(sampled, sampled.texts, sampled.vocabs, 0.0, seed=1)
    with pytest.raises(ValueError, match="subword_alpha"):
        TrainConfig(subword_alpha=1.5)

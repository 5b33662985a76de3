"""Growing the train split, the parts without a corpus prepared: concatenated pairs joined as
each language joins sentences, drawn deterministically, and the HSK sentences as a TSV (prepared
data directories: tests/integration/test_prepare_augment.py)."""

import json
import random

from fanyi.data.build.augment import concatenations
from fanyi.data.build.hsk import hsk_pairs, write_hsk_tsv
from fanyi.text.lang import join_sentences


def test_joined_sentences_follow_each_language():
    assert join_sentences(["我跑。", "你呢？"], "zh") == "我跑。你呢？"
    assert join_sentences(["I run.", "You?"], "en") == "I run. You?"


def test_concatenations_join_2_to_max_random_pairs_deterministically():
    pairs = [(f"s{i}.", f"t{i}.") for i in range(50)]
    joined = list(concatenations(pairs, 0.4, 3, seed=7, langs=("en", "zh")))
    assert len(joined) == 20 and joined == list(concatenations(pairs, 0.4, 3, 7, ("en", "zh")))
    for src, tgt in joined:
        parts = src.split(" ")
        assert 2 <= len(parts) <= 3
        # the i-th sentence of the source is translated by the i-th of the target
        assert tgt == "".join(f"t{p[1:]}" for p in parts)
    assert list(concatenations(pairs, 0.0, 3, 7, ("en", "zh"))) == []
    assert list(concatenations(pairs[:1], 1.0, 3, 7, ("en", "zh"))) == []


def test_concatenations_draw_what_sampling_the_list_itself_drew():
    """Earlier versions drew ``rng.sample(pairs, k)`` from a list; indices into a file read at
    random must join the same pairs, or the bundled model's data would change."""
    pairs = [(f"s{i}.", f"t{i}.") for i in range(500)]
    rng, expected = random.Random(3), []
    for _ in range(100):
        chosen = rng.sample(pairs, rng.randint(2, 3))
        expected.append((" ".join(s for s, _ in chosen), "".join(t for _, t in chosen)))
    assert list(concatenations(pairs, 0.2, 3, 3, ("en", "zh"))) == expected


def test_hsk_sentences_become_a_tatoeba_style_tsv(tmp_path):
    rows = hsk_pairs()
    assert len(rows) > 4000
    count = write_hsk_tsv(tmp_path / "hsk.tsv")
    lines = (tmp_path / "hsk.tsv").read_text(encoding="utf-8").splitlines()
    assert count == len(lines) == len(rows)
    english, chinese, credit = lines[0].split("\t")
    assert english == "Hello, teacher!" and chinese == "老师，您好！"
    assert credit.endswith("CC-BY-SA-4.0")
    assert all(line.count("\t") == 2 for line in lines)
    json.dumps(rows[:1])  # plain strings

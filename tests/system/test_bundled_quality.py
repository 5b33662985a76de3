"""The bundled model must translate: BLEU floors on the held-out Tatoeba test pairs it never saw.

The pairs are the test split of the bundled model's own data config (its leak-free split), kept
as their original Tatoeba lines in tests/fixtures/data (scripts/make_test_slices.py) and cleaned
here as ``fanyi prepare`` cleans them.
"""

import pytest

from fanyi import Translator
from fanyi.decode.translator import BUNDLED
from fanyi.scores import score

# Measured (the bundled ensemble, beam 5, α 3, hypotheses reranked by the backward score with
# λ 0.2, dtype auto: bf16 on the AVX-512 BF16 EPYC): zh→en 35.26, en→zh 36.03 (fp32: 35.36 /
# 36.01), translated sentence by sentence, as the Translator does (its first member alone: 33.30 /
# 34.14; the models before: 30.30 / 32.14 and 28.50 / 31.37).
# The floors leave room for harmless changes in decoding but catch a broken model, tokenizer,
# normaliser, ensemble or reranking.
FLOORS = {"en": 33.8, "zh": 34.5}

# slow: translates the 2,000 test pairs (about 2 minutes)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}"),
]


@pytest.mark.parametrize("to", ["en", "zh"])
def test_bundled_model_beats_its_bleu_floor(bundled_test_pairs, to):
    pairs = bundled_test_pairs if to == "en" else [(e, z) for z, e in bundled_test_pairs]
    assert len(pairs) == 1000
    hypotheses = Translator.load(beam=5)([s for s, _ in pairs], to=to)
    result = score(hypotheses, [[t for _, t in pairs]], to)
    assert result.bleu >= FLOORS[to], result

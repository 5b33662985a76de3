"""The bundled model must translate: BLEU floors on the held-out Tatoeba test split it never saw.

The split is rebuilt from the shared corpus with the bundled model's own data config (same seed,
so the same leak-free test pairs).
"""

import pytest

from fanyi import Translator
from fanyi.decode.translator import BUNDLED
from fanyi.evaluate import score

# Measured when the model was bundled (beam 5): zh→en 28.5, en→zh 31.4. The floors leave room
# for harmless changes in decoding but catch a broken model, tokenizer or normaliser.
FLOORS = {"en": 26.0, "zh": 29.0}

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


@pytest.fixture(scope="module")
def test_split(bundled_data):
    sources = (bundled_data / "test.src").read_text(encoding="utf-8").splitlines()
    targets = (bundled_data / "test.tgt").read_text(encoding="utf-8").splitlines()
    return list(zip(sources, targets, strict=True))


@pytest.mark.parametrize("to", ["en", "zh"])
def test_bundled_model_beats_its_bleu_floor(test_split, to):
    tag = f"<2{to}> "
    pairs = [(s.removeprefix(tag), t) for s, t in test_split if s.startswith(tag)]
    assert len(pairs) == 1000
    translator = Translator.load(threads=1, beam=5)
    hypotheses = translator.translate([s for s, _ in pairs], to=to)
    result = score(hypotheses, [[t for _, t in pairs]], to)
    assert result.bleu >= FLOORS[to], result

"""``fanyi export`` of the bundled model: CTranslate2 translates as fanyi does, and transformers
loads the MarianMT export and ``generate``s fanyi's translations.

The sentences are the golden ones (not in Tatoeba) and the first 100 test sentences each way
(transformers sees every fifth); ``benchmarks/end_to_end.py --in-process`` and docs/interop.md
have the whole test split (1,000 each way: every translation identical, int8 BLEU within 0.25).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import pytest
import torch
from fastapi.testclient import TestClient
from transformers import MarianMTModel, MarianTokenizer

from fanyi.cli import main
from fanyi.decode import decode
from fanyi.ensemble_dir import first_member
from fanyi.model_dir import load_model
from fanyi.scores import score
from fanyi.serve import create_app
from fanyi.translate.model_names import TATOEBA
from fanyi.translate.translator import Translator
from hf_reference import generate

REPO = Path(__file__).resolve().parents[2]
# slow: exports the bundled model (about 1 minute)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}"),
]
MODEL = first_member(TATOEBA)  # one model: what CTranslate2 and Hugging Face decode


def golden_sentences() -> list[str]:
    spec = importlib.util.spec_from_file_location("golden", REPO / "scripts" / "update_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SENTENCES


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """{name: directory} of the bundled model exported three ways."""
    root = tmp_path_factory.mktemp("export")
    for name, args in {
        "float32": ["--format", "ctranslate2"],
        "int8": ["--format", "ctranslate2", "--dtype", "int8"],
        "huggingface": ["--format", "huggingface"],
    }.items():
        assert main(["export", str(MODEL), "--output", str(root / name), *args]) == 0
    return {name: root / name for name in ("float32", "int8", "huggingface")}


@pytest.fixture(scope="module")
def sentences(bundled_test_pairs):
    """(text, target language) pairs: the golden sentences and 100 test sentences each way."""
    pairs = [(s, "zh" if s.isascii() else "en") for s in golden_sentences()]
    pairs += [(zh, "en") for zh, _ in bundled_test_pairs[:100]]
    return pairs + [(en, "zh") for _, en in bundled_test_pairs[:100]]


@pytest.mark.parametrize(
    "options",
    [{"target_script_only": False}, {"allowed_softmax": True, "rerank_backward": 0.0}],
    ids=["none", "allowed"],
)
@pytest.mark.parametrize("beam", [1, 5])
def test_ctranslate2_float32_translates_as_fanyi(exported, sentences, beam, options):
    """Exactly, without suppressed pieces, or with them and ``allowed_softmax`` (the beam's own
    n-best: its fifth may differ, and reranking then with it): CTranslate2 suppresses before its
    softmax, fanyi by default after (``target_script_only``, docs/decoding.md)."""
    # CTranslate2 has no held search: both are compared without the names they would hold
    fanyi = Translator.load(MODEL, dtype="fp32", hold_names=False, **options)
    ctranslate2 = Translator.load(
        exported["float32"], engine="ctranslate2", hold_names=False, **options
    )
    for to in ("en", "zh"):
        texts = [s for s, lang in sentences if lang == to]
        ours = fanyi.translate(texts, to=to, beam=beam)
        theirs = ctranslate2.translate(texts, to=to, beam=beam)
        assert [r.text for r in theirs] == [r.text for r in ours]
        log_probs = [
            (a.candidates[0].log_prob, b.candidates[0].log_prob)
            for a, b in zip(ours, theirs, strict=True)
        ]
        assert max(abs(a - b) for a, b in log_probs) < 1e-3


def test_ctranslate2_reranks_as_fanyi(exported, sentences):
    """Reranking needs log P(y | x) of given pairs: CTranslate2's score_batch gives fanyi's (the
    log-probabilities fanyi's beam kept for its own translations), and both rerank alike."""
    options = {"rerank_backward": 0.5, "target_script_only": False}  # as above
    fanyi = Translator.load(MODEL, dtype="fp32", hold_names=False, **options)
    ctranslate2 = Translator.load(
        exported["float32"], engine="ctranslate2", hold_names=False, **options
    )
    texts = [s for s, lang in sentences if lang == "en"][:30]
    best = [r.candidates[0] for r in fanyi.translate(texts, to="en", beam=1)]
    sources = [fanyi.text.ids(t, "en") for t in texts]
    targets = [[fanyi.text.tgt_vocab.piece_to_id(p) for p in c.tokens[:-1]] for c in best]
    theirs = ctranslate2.engine.log_likelihoods(sources, targets)
    assert theirs == pytest.approx(fanyi.engine.log_likelihoods(sources, targets), abs=1e-3)
    assert theirs == pytest.approx([c.log_prob for c in best], abs=1e-3)
    assert ctranslate2(texts, to="en") == fanyi(texts, to="en")


def test_ctranslate2_int8_stays_close(exported, sentences):
    texts = [s for s, _ in sentences]
    reference = Translator.load(exported["float32"], engine="ctranslate2")(texts)
    quantized = Translator.load(exported["int8"], engine="ctranslate2")(texts)
    agreement = score(quantized, [reference], "en")  # BLEU of int8 against float32
    assert agreement.bleu > 70, agreement


def test_the_engine_behind_the_cli_and_the_server(exported, tmp_path, capsys):
    texts = ["你叫什么名字？", "The weather is nice today."]
    args = [
        "translate",
        "--engine",
        "ctranslate2",
        "-m",
        str(exported["float32"]),
        "--threads",
        "1",
    ]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(texts) + "\n", encoding="utf-8")
    assert main([*args, "-i", str(src)]) == 0
    fanyi = Translator.load(MODEL, beam=5, dtype="fp32", hold_names=False)  # none held
    assert capsys.readouterr().out.splitlines() == fanyi(texts)
    app = create_app(Translator.load(exported["float32"], engine="ctranslate2"))
    with TestClient(app) as client:
        response = client.post(
            "/translate", json={"text": texts, "beam": 2, "n_best": 2, "attention": True}
        )
    assert response.status_code == 200, response.text
    for result in response.json()["translations"]:
        assert len(result["candidates"]) == 2
        candidate = result["candidates"][0]
        rows, columns = len(candidate["attention"]), len(candidate["attention"][0])
        assert (rows, columns) == (len(candidate["tokens"]), len(result["source_tokens"]))


def test_huggingface_export_generates_fanyi_translations(exported, sentences):
    sentences = sentences[:20] + sentences[20::5]
    translator = Translator.load(MODEL, dtype="fp32")
    marian = MarianMTModel.from_pretrained(exported["huggingface"]).eval()
    tokenizer = MarianTokenizer.from_pretrained(exported["huggingface"])
    sources = [translator.text.ids(text, to) for text, to in sentences]
    normalised = [translator.text.src_vocab.decode(ids[1:]) for ids in sources]
    marked = [f">>{to}<< {text}" for text, (_, to) in zip(normalised, sentences, strict=True)]
    assert [tokenizer(text).input_ids for text in marked] == sources
    for beam in (1, 4):
        theirs = [rows[0] for rows in generate(marian, sources, beam)]
        config = {"beam": beam, "length_penalty": 0.0}
        ours = [t[0].tokens for t in translator_ids(translator, sources, config)]
        assert ours == theirs


def translator_ids(translator, sources, options) -> list:
    """fanyi's hypotheses for id lists (one at a time: no batching effects to reason about)."""
    config = dataclasses.replace(translator.options, **options)
    return [decode(translator.engine.model, torch.tensor([ids]), config)[0] for ids in sources]


def test_convert_reads_the_huggingface_export_back(exported, tmp_path, sentences):
    sentences = sentences[:20] + sentences[20::5]
    assert main(["convert", str(exported["huggingface"]), "-o", str(tmp_path / "back")]) == 0
    back, checkpoint = load_model(tmp_path / "back")
    assert checkpoint.model.sinusoid_layout == "concat"  # Marian's layout, features permuted
    translator = Translator.load(MODEL, dtype="fp32")
    sources = [translator.text.ids(text, to) for text, to in sentences]
    for ids in sources:
        src = torch.tensor([ids])
        ours = decode(translator.engine.model, src, translator.options)[0][0]
        again = decode(back, src, translator.options, checkpoint.model.bos_id)[0][0]
        assert again.tokens == ours.tokens and abs(again.log_prob - ours.log_prob) < 1e-4


def card_code(directory: Path) -> str:
    """The Python code of the model card in ``directory``."""
    card = (directory / "README.md").read_text(encoding="utf-8")
    return card.split("```python\n", 1)[1].split("\n```", 1)[0]


@pytest.mark.parametrize("name", ["float32", "huggingface"])
def test_every_export_carries_a_model_card(exported, name):
    """Data and licences (Tatoeba CC-BY 2.0 FR, HSK CC-BY-SA-4.0: share-alike), the scores of
    the model's config.yaml with their signatures, the preprocessing, shipped as preprocess.py."""
    card = (exported[name] / "README.md").read_text(encoding="utf-8")
    assert "license: cc-by-sa-4.0" in card.split("---")[1]
    assert "CC-BY 2.0 (France); attribution: www.manythings.org/anki and tatoeba.org" in card
    assert "hsk-sentences-audio" in card and "CC-BY-SA-4.0" in card
    assert "| zh→en | Tatoeba cmn-eng, held-out test split (1,000 pairs) |" in card
    assert "33.30" in card and "nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0" in card
    assert "OpenCC `t2s`" in card and 'normalise("你叫什麼名字？", "zh")' in card
    assert (exported[name] / "preprocess.py").is_file()
    assert f"MODEL = {json.dumps(str(exported[name]))}" in card  # the export, not its temporary


@pytest.mark.parametrize("name", ["float32", "huggingface"])
def test_the_model_cards_code_translates(exported, name, capsys):
    """The card's code, run as it stands, normalises Traditional script and translates."""
    exec(card_code(exported[name]), {})
    assert capsys.readouterr().out == "What's your name?\n"


def test_huggingface_generate_searches_as_opus_mt_configures_it(exported):
    """generation_config.json as opus-mt writes it: generate() searches with the model's beam,
    up to 512 tokens (it stopped at 20 without max_length), never generating padding."""
    config = json.loads((exported["huggingface"] / "generation_config.json").read_text())
    c = load_model(MODEL)[1].model
    expected = {"max_length": 512, "num_beams": 5, "bad_words_ids": [[c.pad_id]]}
    assert config | expected | {"decoder_start_token_id": c.bos_id} == config
    marian = MarianMTModel.from_pretrained(exported["huggingface"]).eval()
    tokenizer = MarianTokenizer.from_pretrained(exported["huggingface"])
    text = ">>en<< 我的奶奶住在山附近的一个小村子里，她每个月都给我们寄一封很长的信，信里还有她花园的照片。"
    tokens = marian.generate(**tokenizer([text], return_tensors="pt"))[0]
    assert len(tokens) > 25


def test_ctranslate2_samples_as_fanyi_asks(exported):
    """--sampling on the CTranslate2 engine (it was refused): top-k 1 is greedy, n_best gives
    that many samples, and translators loaded with one seed draw the same samples (CTranslate2
    seeds its workers when it starts, not per call)."""
    texts = ["我们明天去北京。", "他很高兴。", "Where is the station?"]
    path = exported["float32"]
    greedy = Translator.load(path, engine="ctranslate2", beam=1, rerank_backward=0.0)(texts)
    top_1 = Translator.load(path, engine="ctranslate2", sampling=True, top_k=1, rerank_backward=0.0)
    assert top_1(texts) == greedy
    options = {"sampling": True, "n_best": 3, "seed": 5, "temperature": 1.5, "rerank_backward": 0}
    first = Translator.load(path, engine="ctranslate2", **options).translate(texts)
    assert [len(t.candidates) for t in first] == [3, 3, 3]
    again = Translator.load(path, engine="ctranslate2", **options).translate(texts)
    assert [[c.text for c in t.candidates] for t in again] == [
        [c.text for c in t.candidates] for t in first
    ]

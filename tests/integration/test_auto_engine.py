"""``--engine auto``: a model's free searches in CTranslate2, on an export made once and cached
by hash; held sources, runs the guard forbids and translations past their length limit searched
again by fanyi's engine; fanyi's engine alone where CTranslate2 is missing."""

from __future__ import annotations

import importlib.util
import shutil
import sys

import pytest

from fanyi import Translator
from fanyi.decode.hypothesis import finish
from fanyi.decode.options import LoadOptions, SearchOptions
from fanyi.engines import auto, ct2_cache
from fanyi.engines.registry import load_engine
from fanyi.ensemble_dir import first_member
from fanyi.sections import read_config
from fanyi.translate.model_names import TATOEBA

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}"),
    pytest.mark.skipif(
        importlib.util.find_spec("ctranslate2") is None, reason="no ctranslate2 package"
    ),
]
TEXTS = ["我们明天一起去北京。", "他不在家。", "Where is the station?", "I like tea very much."]
FP32 = LoadOptions(dtype="fp32")


@pytest.fixture(scope="module")
def member():
    return first_member(TATOEBA)


@pytest.fixture(scope="module")
def engine(member):
    return load_engine("auto", member, FP32, SearchOptions())


def ids(engine, texts=TEXTS):
    translator = Translator(engine)
    return [translator.text.ids(t, translator.text.languages.target_of(t, None)) for t in texts]


def test_the_export_is_made_once_and_found_again_by_its_hash(member, engine, monkeypatch):
    checkpoint = read_config(member)
    home = ct2_cache.cached_export(checkpoint, "float32")  # the one the engine loaded
    assert ct2_cache.export_key(checkpoint, "float32")[:16] in home.name

    def export_again(*args, **kwargs):
        raise AssertionError("exported again")

    monkeypatch.setattr(ct2_cache, "write_ctranslate2", export_again)
    assert ct2_cache.cached_export(checkpoint, "float32") == home
    assert load_engine("auto", member, FP32, SearchOptions()).name == "auto"


def test_other_weights_are_another_export(member, tmp_path):
    copy = tmp_path / "model"
    shutil.copytree(member, copy)
    key = ct2_cache.export_key(read_config(copy), "float32")
    assert key == ct2_cache.export_key(read_config(member), "float32")  # the path is no part
    assert key != ct2_cache.export_key(read_config(copy), "int8")
    weights = copy / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 1
    weights.write_bytes(bytes(data))
    assert ct2_cache.export_key(read_config(copy), "float32") != key


def test_free_sources_are_ctranslate2_s_and_held_ones_fanyi_s(engine):
    sources, options = ids(engine), SearchOptions(beam=4)
    translator = Translator(engine)
    station = translator.text.target.constraint("Bahnhof", "en")  # held in the third source
    held = [[], [], [station], []]
    found = engine.decode(sources, options, lambda: None, None, held)
    free = [0, 1, 3]
    fast = engine.fast.decode([sources[i] for i in free], options)
    assert [found[i][0].tokens for i in free] == [hyps[0].tokens for hyps in fast]
    exact = engine.exact.decode([sources[2]], options, constraints=[held[2]])
    assert found[2][0].tokens == exact[0][0].tokens
    assert "Bahnhof" in engine.fast.tgt_vocab.decode(found[2][0].tokens)


def test_a_run_or_a_translation_past_its_limit_is_searched_again_by_fanyi(engine, monkeypatch):
    sources, options = ids(engine), SearchOptions(beam=2, max_repeat_run=4)
    vocab = engine.fast.tgt_vocab
    run = vocab.encode("We go go go go go.")
    long = vocab.encode("I " + "like tea and " * 40)
    made = [run, long, vocab.encode("Where is it?"), vocab.encode("I like tea.")]

    def fast(sources, options, *args):
        return [[finish(made[i], -1.0, options.length_penalty)] for i in range(len(sources))]

    monkeypatch.setattr(engine.fast, "decode", fast)
    found = engine.decode(sources, options, lambda: None)
    exact = engine.exact.decode(sources[:2], options)
    assert [hyps[0].tokens for hyps in found[:2]] == [hyps[0].tokens for hyps in exact]
    assert [hyps[0].tokens for hyps in found[2:]] == made[2:]
    off = engine.decode(sources, SearchOptions(beam=2, max_repeat_run=0), lambda: None)
    assert off[0][0].tokens == run  # no guard asked for: CTranslate2's run stays


def test_sampling_is_fanyi_s_so_that_a_seed_draws_alike(engine, member):
    options = SearchOptions(beam=1, sampling=True, seed=7, n_best=2)
    reference = load_engine("fanyi", member, FP32, options)
    sources = ids(engine)
    drawn = [[h.tokens for h in hyps] for hyps in engine.decode(sources, options, lambda: None)]
    assert drawn == [[h.tokens for h in hyps] for hyps in reference.decode(sources, options)]


def test_without_ctranslate2_auto_is_fanyi_s_engine(member, monkeypatch):
    monkeypatch.setitem(sys.modules, "ctranslate2", None)  # import ctranslate2: ImportError
    assert load_engine("auto", member, FP32, SearchOptions()).name == "fanyi"


def test_bf16_and_compiled_steps_are_fanyi_s_engine(member, monkeypatch):
    loaded = []
    monkeypatch.setattr(auto, "cached_export", lambda *a: loaded.append(a))
    native = lambda path, options, search: options  # noqa: E731  (what would be loaded)
    for options in (LoadOptions(dtype="bf16"), LoadOptions(dtype="fp32", compile=True)):
        assert auto.load_auto(member, options, SearchOptions(), native) == options
    assert loaded == []

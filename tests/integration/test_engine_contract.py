"""Every engine of the registry keeps one contract: on the same model, the same tokens as fanyi's
own engine for greedy and beam search, and the same log-likelihoods within a tolerance; what an
engine cannot do, it refuses by name. CTranslate2 is skipped only where its package is missing;
fanyi's engine with ``compile: true`` compiles its steps (15-25 s), so the whole file is slow."""

from __future__ import annotations

import importlib.util

import pytest

from fanyi.cli import main
from fanyi.decode.options import LoadOptions, SearchOptions
from fanyi.engines.registry import ENGINES, load_engine
from fanyi.ensemble_dir import first_member
from fanyi.translate.model_names import TATOEBA
from fanyi.translate.translator import Translator

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not TATOEBA.is_dir(), reason=f"no bundled model at {TATOEBA}"),
]
HAS_CT2 = importlib.util.find_spec("ctranslate2") is not None
TEXTS = ["我们明天一起去北京。", "他不在家。", "Where is the station?", "I like tea very much."]
SEARCHES = {"greedy": SearchOptions(beam=1), "beam": SearchOptions(beam=4, n_best=2)}


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """{engine name: the directory it loads}: one bundled member, and its CTranslate2 export."""
    member = first_member(TATOEBA)
    dirs = {name: member for name in ENGINES}
    if HAS_CT2:
        out = tmp_path_factory.mktemp("contract") / "ct2"
        assert main(["export", str(member), "--format", "ctranslate2", "-o", str(out)]) == 0
        dirs["ctranslate2"] = out
    return dirs


@pytest.fixture(scope="module")
def reference():
    return Translator.load(first_member(TATOEBA), dtype="fp32", rerank_backward=0)


def engine_param(name: str):
    skip = name == "ctranslate2" and not HAS_CT2
    return pytest.param(name, marks=pytest.mark.skipif(skip, reason="no ctranslate2 package"))


# each engine of the registry, and fanyi's with its decoder steps compiled
LOADS = {name: (name, LoadOptions(dtype="fp32")) for name in ENGINES}
LOADS["fanyi --compile"] = ("fanyi", LoadOptions(dtype="fp32", compile=True))


@pytest.fixture(scope="module", params=[engine_param(name) for name in LOADS])
def engine(request, model_dir):
    name, load = LOADS[request.param]
    return load_engine(name, model_dir[name], load, SearchOptions())


def sources(reference: Translator) -> list[list[int]]:
    text = reference.text
    return [text.ids(t, text.languages.target_of(t, None)) for t in TEXTS]


@pytest.mark.parametrize("search", SEARCHES, ids=list(SEARCHES))
def test_the_same_tokens_as_fanyi_s_own_engine(engine, reference, search):
    options, ids = SEARCHES[search], sources(reference)
    theirs = engine.decode(ids, options, lambda: None)
    ours = reference.engine.decode(ids, options, lambda: None)
    assert [[h.tokens for h in hyps] for hyps in theirs] == [
        [h.tokens for h in hyps] for hyps in ours
    ]
    for a, b in zip(theirs, ours, strict=True):
        assert [h.log_prob for h in a] == pytest.approx([h.log_prob for h in b], abs=1e-3)


def test_the_same_log_likelihoods_within_a_tolerance(engine, reference):
    ids = sources(reference)
    best = reference.engine.decode(ids, SearchOptions(beam=1), lambda: None)
    targets = [hyps[0].tokens for hyps in best]
    theirs = engine.log_likelihoods(ids, targets, lambda: None)
    ours = reference.engine.log_likelihoods(ids, targets, lambda: None)
    assert theirs == pytest.approx(ours, abs=1e-3)
    assert ours == pytest.approx([hyps[0].log_prob for hyps in best], abs=1e-3)


def test_a_translator_over_any_engine_translates_as_over_fanyi_s(engine, reference):
    # 北京 is held as "Beijing" by a search only engines with lexical constraints run
    plain = {"beam": 1, "hold_names": False}
    assert Translator(engine, reference.options)(TEXTS, **plain) == reference(TEXTS, **plain)


@pytest.mark.skipif(not HAS_CT2, reason="no ctranslate2 package")
def test_ctranslate2_refuses_what_it_cannot_do_by_name(model_dir):
    with pytest.raises(ValueError, match="compile"):
        Translator.load(model_dir["ctranslate2"], engine="ctranslate2", compile=True)
    loaded = Translator.load(model_dir["ctranslate2"], engine="ctranslate2")
    with pytest.raises(ValueError, match="attention maps need the fanyi engine"):
        loaded.cross_attention("他不在家。")


def test_an_unknown_engine_is_named_with_those_there_are():
    with pytest.raises(ValueError, match="no engine 'marian': choose one of fanyi, ctranslate2"):
        Translator.load(engine="marian")


def test_the_same_tokens_and_scores_through_a_target_prefix(engine, reference):
    """CTranslate2's ``target_prefix``, as fanyi's: followed, and counted in the log-probability."""
    text, ids = reference.text, sources(reference)
    words = ["We will", "", "车站", "I"]
    targets = [text.languages.target_of(t, None) for t in TEXTS]
    prefixes = [text.target.prefix(w, to) for w, to in zip(words, targets, strict=True)]
    for options in SEARCHES.values():
        theirs = engine.decode(ids, options, lambda: None, prefixes)
        ours = reference.engine.decode(ids, options, lambda: None, prefixes)
        assert [[h.tokens for h in hyps] for hyps in theirs] == [
            [h.tokens for h in hyps] for hyps in ours
        ]
        for a, b, prefix in zip(theirs, ours, prefixes, strict=True):
            assert all(h.tokens[: len(prefix)] == prefix for h in a)
            assert [h.log_prob for h in a] == pytest.approx([h.log_prob for h in b], abs=1e-3)


def test_suppressed_ids_are_never_generated(engine, reference):
    """``suppress_ids`` (CTranslate2's ``suppress_sequences`` of one piece each): the ids each
    translation began with appear in no hypothesis. CTranslate2 masks them before its softmax (the
    other pieces share their mass), fanyi after it (a path the model wanted them on pays for it:
    docs/decoding.md), so the two may rank the remaining hypotheses apart."""
    ids = sources(reference)
    first = {hyps[0].tokens[0] for hyps in reference.engine.decode(ids, SEARCHES["beam"])}
    options = SearchOptions(beam=4, n_best=2, suppress_ids=sorted(first))
    found = engine.decode(ids, options, lambda: None)
    assert all(len(hyps) == 2 for hyps in found)
    assert not first & {token for hyps in found for h in hyps for token in h.tokens}


def test_penalised_ids_cost_beta_each(engine, reference):
    """``script_penalty`` β with ``penalized_ids``: each hypothesis's log P is the model's own less
    β for each penalised piece it holds. fanyi steers its search by them; CTranslate2, which has
    no per-piece bias, rescores its beam's hypotheses (docs/decoding.md)."""
    ids = sources(reference)
    first = sorted({hyps[0].tokens[0] for hyps in reference.engine.decode(ids, SEARCHES["beam"])})
    options = SearchOptions(beam=4, n_best=2, penalized_ids=first, script_penalty=1.0)
    found = engine.decode(ids, options, lambda: None)
    pairs = [(source, h) for source, hyps in zip(ids, found, strict=True) for h in hyps]
    own = reference.engine.log_likelihoods([s for s, _ in pairs], [h.tokens for _, h in pairs])
    for (_, h), log_p in zip(pairs, own, strict=True):
        assert h.log_prob == pytest.approx(log_p - sum(t in first for t in h.tokens), abs=1e-3)
    assert all(hyps[0].score >= hyps[1].score for hyps in found)  # best first, β included


def test_another_dtype_is_the_engine_s_own_conversion_or_refused_by_name(engine):
    """What ``fanyi tune --dtypes`` asks of an engine (``Engine.with_dtype``)."""
    if engine.name in ("ctranslate2", "auto"):  # auto: CTranslate2's export in one dtype
        assert engine.with_dtype(engine.options.dtype) is engine
        with pytest.raises(ValueError, match="compare dtypes on the fanyi engine"):
            engine.with_dtype("int8")
        return
    assert engine.with_dtype("fp32") is engine
    other = engine.with_dtype("bf16")
    assert other.options.dtype == "bf16" and other.options.compile == engine.options.compile
    assert other.model is not engine.model and engine.options.dtype == "fp32"

"""The Python API on a tiny trained model: text in, text out, as the training data was cleaned."""

import dataclasses

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fanyi import Translator
from fanyi.cli import main
from fanyi.text.lang import to_traditional
from fanyi.translate.translation import Translation
from fanyi.translate.translator import BUNDLED, resolve_model_dir
from foreign_device import foreign_device
from tiny_translator import MAX_LEN, tiny_model_dir


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def translator(model_dir, device) -> Translator:
    return Translator.load(model_dir, beam=2, device=device)


def assert_rows_sum_to_one(attention: torch.Tensor, translator: Translator) -> None:
    """Each row of attention weights is a distribution: within 1e-4 in fp32 and int8, within
    bf16's precision (2⁻⁸) where dtype auto took bf16 (on AMX hosts)."""
    tolerance = 1e-2 if translator.engine.options.dtype == "bf16" else 1e-4
    ones = torch.ones(attention.shape[0])
    torch.testing.assert_close(attention.sum(-1), ones, atol=tolerance, rtol=0)


def test_strings_in_strings_out_empty_stays_empty(translator):
    out = translator(["你好。", "", "  ", "Hello."])
    assert len(out) == 4 and all(isinstance(t, str) for t in out)
    assert out[1] == out[2] == ""


def test_a_string_in_gives_one_result_out(translator):
    """A str is one text, not a list of characters (``["You're you.", "Good."]`` for 你好)."""
    one = translator("你好。")
    assert isinstance(one, str) and one == translator(["你好。"])[0]
    with pytest.raises(TypeError, match="list of strings"):
        translator.translate("你好")  # type: ignore[arg-type]


def test_the_translator_is_called_like_a_pipeline_and_translate_gives_the_details(translator):
    (result,) = translator.translate(["你好。"], beam=2, n_best=2)
    assert isinstance(result, Translation) and result.source == "你好。"
    assert len(result.candidates) == 2 and result.text == translator("你好。", beam=2)
    texts = ["你好。", "Hello."]
    assert translator(texts, to="zh") == [r.text for r in translator.translate(texts, to="zh")]


def test_direction_is_detected_from_the_script(translator):
    zh, en = translator.translate(["我很好。", "I am fine."])
    assert (zh.to, en.to) == ("en", "zh")
    assert zh.source_tokens[0] == "<2en>" and en.source_tokens[0] == "<2zh>"
    forced = translator.translate(["Boston"], to="en", source_lang="zh")[0]
    assert forced.source_tokens[0] == "<2en>" and forced.source_lang == "zh"
    with pytest.raises(ValueError, match="translates into"):
        translator(["hello"], to="de")


def test_languages_as_people_write_them(translator):
    mixed = translator.translate(["I met 王小明 yesterday.", "我的朋友 Li Wei 来自 Boston。"])
    assert [(t.source_lang, t.to) for t in mixed] == [("en", "zh"), ("zh", "en")]
    assert [t.source_tokens[0] for t in mixed] == ["<2zh>", "<2en>"]
    for code in ("zh-CN", "zh-Hans", "cmn", "ZH", "zh-TW", "zh-HK", "zh-Hant"):
        assert translator.translate(["Good morning."], to=code)[0].to == "zh", code
    for code in ("en-US", "eng", "EN"):
        assert translator.translate(["早上好。"], to=code)[0].to == "en", code
    with pytest.raises(ValueError, match=r"translates into en \(.*\) and zh \(.*\), not 'fr'"):
        translator(["hello"], to="fr")


def test_a_text_in_the_language_asked_is_returned_as_it_is(translator):
    same = translator.translate(["I am fine."], to="en")[0]
    assert (same.text, same.source_tokens, same.source_lang) == ("I am fine.", [], "en")
    texts = ["我們來試試。", "我们来试试。"]
    assert translator(texts, to="zh") == texts  # as written: no model, no t2s
    assert translator(texts, to="zh-TW") == ["我們來試試。"] * 2  # the characters it names
    assert translator("I am fine.", source_lang="en", to="en-US") == "I am fine."
    assert translator.token_counts(["I am fine.", "我很好。"], to="en") == [0, 5]


def test_a_target_code_sets_the_chinese_script_for_that_call(translator):
    english = ["The software is fine.", "Good morning."]
    simplified = translator(english, to="zh")
    assert translator(english, to="zh-TW") == [to_traditional(t, "tw") for t in simplified]
    assert translator(english, to="zh-Hant") == [to_traditional(t, "hant") for t in simplified]
    assert translator(english, to="zh") == simplified  # the call after: the option's own


def test_input_is_normalised_like_the_training_data(translator):
    traditional, simplified = translator(["我們來試試。", "我们来试试。"])
    assert traditional == simplified
    full_width, ascii_ = translator(["ＡＢＣ １２３", "ABC 123"])
    assert full_width == ascii_


def test_a_batch_translates_as_each_sentence_alone(model_dir, device):
    """In fp32: in bf16 (dtype auto's choice on some hosts) a row's rounding depends on its
    batch's padding, so a near tie may go either way."""
    translator = Translator.load(model_dir, beam=2, dtype="fp32", device=device)
    texts = ["我很好。", "他在哪里？", "Where is the station?", "Thank you very much.", "是。"]
    together = translator(texts)
    translator.engine.options.batch_tokens = 20  # several small batches
    assert translator(texts) == together
    translator.engine.options.batch_tokens = 4096
    assert [translator([t])[0] for t in texts] == together


def test_n_best_scores_and_attention(translator):
    result = translator.translate(["你好。"], beam=3, n_best=3, attention=True)[0]
    assert isinstance(result, Translation) and len(result.candidates) == 3
    scores = [c.score for c in result.candidates]
    assert scores == sorted(scores, reverse=True)
    for c in result.candidates:
        assert c.tokens[-1] == "</s>"
        assert c.attention.shape == (len(c.tokens), len(result.source_tokens))
        assert_rows_sum_to_one(c.attention, translator)
    assert translator.translate(["你好。"])[0].candidates[0].score < 0


def test_attention_covers_each_source_alone_in_a_batch_of_others(translator):
    texts = ["你好。", "Where is the station? It is near the old bridge.", "是。"]
    for result in translator.translate(texts, beam=2, attention=True):
        for c in result.candidates:
            assert c.attention.shape == (len(c.tokens), len(result.source_tokens))


def test_cross_attention_has_every_layer_and_head(translator):
    maps = translator.cross_attention("我很好。")
    config = translator.engine.model.config
    shape = (config.N_dec, config.h, len(maps.target_tokens), len(maps.source_tokens))
    assert maps.weights.shape == shape
    assert maps.source_tokens == translator.translate(["我很好。"])[0].source_tokens


def test_every_sentence_of_a_text_is_translated_and_joined(translator):
    sentences = ["我很好。", "他在哪里？", "谢谢你！"]
    separately = translator(sentences)
    (joined,) = translator.translate(["".join(sentences)])
    assert joined.text == " ".join(separately)  # English: joined with spaces
    english = ["Where is the station?", "Thank you.", "I am fine."]
    assert translator([" ".join(english)]) == ["".join(translator(english))]
    assert len(joined.candidates) == 1 and joined.source_tokens.count("</s>") == 3


def test_a_joined_translation_has_block_diagonal_attention(model_dir, device):
    """In fp32: in bf16 (dtype auto's choice when it times bf16 faster) a row's rounding depends
    on the other rows of its batch."""
    translator = Translator.load(model_dir, beam=2, dtype="fp32", device=device)
    (result,) = translator.translate(["我很好。他在哪里？"], attention=True)
    (candidate,) = result.candidates
    first = translator.translate(["我很好。"], attention=True)[0].candidates[0]
    rows = len(first.tokens) - 1  # the first sentence's pieces, without its EOS
    assert candidate.attention.shape == (len(candidate.tokens), len(result.source_tokens))
    cols = result.source_tokens.index("</s>") + 1  # the first sentence's source pieces
    torch.testing.assert_close(candidate.attention[:rows, :cols], first.attention[:-1])
    assert candidate.attention[:rows, cols:].abs().sum() == 0  # none on the other sentence
    assert_rows_sum_to_one(candidate.attention, translator)


def test_one_sentence_longer_than_the_model_reads_is_split_or_fails_alone(model_dir, translator):
    text = "我很好" * 50  # one sentence (no end mark), far more than MAX_LEN pieces
    assert len(translator.text.ids(text, "en")) > MAX_LEN
    (result,) = translator.translate([text])
    assert result.text and len(result.candidates) == 1 and result.error is None
    tokens = result.source_tokens  # 102: two pieces, each with its tag and EOS
    assert tokens.count("<2en>") == tokens.count("</s>") == 2 and len(tokens) == 104
    strict = Translator.load(model_dir, long_input="error")
    with pytest.warns(UserWarning, match=r"text 1: a source has \d+ tokens .*max_len=64"):
        out = strict(["我很好。", text, "谢谢。"])
    assert out[1] == "" and out[0] and out[2]
    assert strict(["我很好。" * 40])[0]  # many short sentences: no error


def test_every_backward_score_fits_the_model(model_dir):
    """Outputs as long as the model's positions allow, and a sentence cut into pieces, reranked:
    translating them back must fit the model too (it read 1 + 63 + 1 positions before)."""
    longest = Translator.load(
        model_dir, beam=2, rerank_backward=0.5, min_len=MAX_LEN - 1, max_len_a=100
    )
    texts = ["我很好。", "我很好" * 50, "I am fine.", "谢谢。"]
    results = longest.translate(texts, n_best=2)
    assert [r.error for r in results] == [None] * 4
    assert all(len(c.tokens) == MAX_LEN for c in results[0].candidates)  # 63 pieces and EOS
    assert all(r.text for r in results)


def test_a_piece_that_fails_fails_alone(model_dir, monkeypatch):
    translator = Translator.load(model_dir, beam=2, batch_tokens=1 << 16)
    texts = ["我很好。", "他在哪里？", "Thank you.", "谢谢。你呢？", "I am fine."]
    alone = [translator([text])[0] for text in texts]
    search, bad = translator.engine.decode, translator.text.ids("你呢？", "en")

    def failing(sources, *args):
        if bad in sources:
            raise RuntimeError("out of memory")
        return search(sources, *args)

    monkeypatch.setattr(translator.engine, "decode", failing)
    with pytest.warns(UserWarning, match="text 3: not translated: out of memory"):
        out = translator(texts)
    assert out == [*alone[:3], "", alone[4]]


def test_texts_come_out_as_soon_as_they_and_those_before_them_are_done(model_dir):
    # a batch per sentence, none searched again held to a name or a dictionary entry (谢谢)
    translator = Translator.load(model_dir, beam=2, batch_tokens=8, hold_names=False)
    batches = []
    search = translator.engine.decode
    translator.engine.decode = lambda sources, *args: (
        batches.append(sources) or search(sources, *args)
    )  # type: ignore[method-assign]
    texts = ["我很好。", "谢谢。", "他在哪里？我们走吧。我很好。"]
    stream = translator.stream(texts)
    first = next(stream)
    assert first.source == texts[0] and len(batches) <= 2  # of 5
    rest = [first, *stream]
    assert len(batches) == 5
    assert [r.candidates for r in rest] == [r.candidates for r in translator.translate(texts)]


def test_without_a_model_dir_the_bundled_model_or_a_clear_error():
    if BUNDLED.is_dir():
        assert resolve_model_dir(None) == BUNDLED
    else:
        with pytest.raises(FileNotFoundError, match=r"no bundled model.*pass -m DIR"):
            resolve_model_dir(None)


def test_plot_attention_command(model_dir, tmp_path, capsys):
    out = tmp_path / "attention.png"
    flags = ["-m", str(model_dir), "--text", "我很好。", "-o", str(out), "--beam", "2"]
    assert main(["plot", "attention", *flags, "--threads", "1"]) == 0
    assert out.stat().st_size > 10_000 and str(out) in capsys.readouterr().out


def test_a_text_that_is_not_unicode_fails_alone(translator):
    texts = ["我很好。", "bad \udcff text", "Thank you."]
    with pytest.warns(UserWarning, match=r"text 1: not valid Unicode: a lone surrogate U\+DCFF"):
        out = translator(texts)
    assert out == [translator([texts[0]])[0], "", translator([texts[2]])[0]]
    results = translator.translate(texts)
    assert [r.error for r in results] == [None, results[1].error, None]
    assert "U+DCFF at character 4" in results[1].error and results[1].text == ""
    with pytest.raises(ValueError, match="not valid Unicode"):
        translator.text.ids(texts[1], "en")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.text(st.characters(exclude_categories=()), max_size=20), max_size=4))
def test_any_strings_give_one_translation_each(translator, texts):
    results = translator.translate(texts, beam=1)
    assert [r.source for r in results] == texts
    for result in results:
        surrogates = any(0xD800 <= ord(c) <= 0xDFFF for c in result.source)
        assert (result.error is not None) == surrogates
        assert isinstance(result.text, str) and result.candidates


def test_reranking_picks_the_beam_hypothesis_that_translates_back_best(model_dir):
    """With a large λ the backward score decides: the best of the beam's hypotheses by
    log P(source | hypothesis), which the model computes translating each one back."""
    texts = ["我们走吧。", "Tom is here."]
    plain = Translator.load(model_dir, beam=4)
    reranking = Translator.load(model_dir, beam=4, rerank_backward=1e6)
    for text, to, back in ((texts[0], "en", "zh"), (texts[1], "zh", "en")):
        beam = plain.translate([text], to=to, n_best=4)[0].candidates
        source = plain.text.ids(text, to)[1:-1]  # no tag, no EOS
        tag = plain.text.ids("", back)[:-1]
        hypotheses = [[plain.text.tgt_vocab.piece_to_id(p) for p in c.tokens[:-1]] for c in beam]
        backward = plain.engine.log_likelihoods([[*tag, *h, 3] for h in hypotheses], [source] * 4)
        best = max(range(4), key=backward.__getitem__)
        (chosen,) = reranking.translate([text], to=to)[0].candidates
        assert chosen.text == beam[best].text
        assert len(reranking.translate([text], to=to, n_best=3)[0].candidates) == 3
    assert Translator.load(model_dir, beam=4, rerank_backward=0)(texts) == plain(texts)


def test_reranking_needs_a_model_that_translates_both_ways(model_dir, monkeypatch):
    translator = Translator.load(model_dir, rerank_backward=0.5)
    one_way = dataclasses.replace(translator.checkpoint.data, bidirectional=False)
    monkeypatch.setattr(translator.checkpoint, "data", one_way)
    with pytest.raises(ValueError, match="both ways"):
        translator(["我们走吧。"], to="en")


def test_translating_makes_every_tensor_on_the_model_device(model_dir):
    """Translator end to end (n-best, reranking, attention, a sentence split into pieces) with
    ``meta`` as the device of tensors made without one: a bare one fails as on a GPU."""
    translator = Translator.load(model_dir, beam=3, rerank_backward=0.5, dtype="fp32")
    long_text = "我们走吧。" + "他" * MAX_LEN
    expected = translator.translate(["我们走吧。", "Tom is here.", long_text], n_best=2)
    with foreign_device():
        found = translator.translate(["我们走吧。", "Tom is here.", long_text], n_best=2)
        translator.cross_attention("我们走吧。", to="en")
    assert [r.text for r in found] == [r.text for r in expected]


def test_a_text_the_options_leave_no_translation_gets_its_error_and_the_others_theirs(model_dir):
    """Every piece but EOS suppressed and EOS forbidden before 3 tokens: only a text with a target
    prefix (whose pieces stay allowed) can be translated; each other text gets its error, not an
    empty n-best that stopped the batch (each text its own batch: a prefix frees its pieces for
    the batch it is in)."""
    translator = Translator.load(model_dir, beam=2, batch_tokens=1)
    eos = translator.checkpoint.model.eos_id
    everything = [i for i in range(len(translator.text.tgt_vocab)) if i != eos]
    options = {"suppress_ids": everything, "min_len": 3, "target_script_only": False}
    texts = ["你好。", "我很好。", "他不在家。"]
    found = translator.translate(texts, "en", target_prefix=[None, "I", None], **options)
    assert [r.error is None for r in found] == [False, True, False]
    assert found[1].text.startswith("I") and found[0].text == found[2].text == ""
    assert "leave no translation" in found[0].error
    with pytest.raises(ValueError, match="repetition_penalty must be finite and > 0, from 1e-06"):
        translator.translate(texts, "en", target_prefix="code code", repetition_penalty=1e-300)

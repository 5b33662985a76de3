"""The HTTP API as clients call it (httpx): answers, every malformed or oversize request a 4xx,
never a 500; 32 concurrent clients batched together without errors; /health and OpenAPI."""

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from fanyi import Translator
from fanyi.serve import Limits, create_app
from tiny_translator import post, running_server, tiny_model_dir

LIMITS = Limits(max_chars=200, max_texts=8, max_body=20_000, max_beam=5)


@pytest.fixture(scope="module")
def translator(tmp_path_factory, device) -> Translator:
    """In fp32: the tests compare a batched answer with one translated alone, and in bf16 (dtype
    auto's choice when it times bf16 faster, as it may on a loaded host) rounding depends on the
    batch."""
    return Translator.load(tiny_model_dir(tmp_path_factory), dtype="fp32", device=device)


def test_translate(translator):
    app = create_app(translator, LIMITS)
    texts = ["我很好。", "", "Thank you. See you."]
    response = post(app, {"text": texts, "beam": 2})
    assert response.status_code == 200
    results = response.json()["translations"]
    assert [r["text"] for r in results] == translator(texts, beam=2)
    assert [r["to"] for r in results] == ["en", "zh", "zh"]
    assert post(app, {"text": []}).json() == {"translations": []}


def test_n_best_and_attention(translator):
    app = create_app(translator, LIMITS)
    response = post(
        app, {"text": ["我很好。"], "beam": 3, "n_best": 2, "attention": True, "to": "en"}
    )
    (result,) = response.json()["translations"]
    assert len(result["candidates"]) == 2
    for candidate in result["candidates"]:
        rows, cols = len(candidate["tokens"]), len(result["source_tokens"])
        assert len(candidate["attention"]) == rows and {len(r) for r in candidate["attention"]} == {
            cols
        }
    plain = post(app, {"text": ["我很好。"]}).json()["translations"][0]
    assert plain["source_tokens"] is None and plain["candidates"][0]["attention"] is None


@pytest.mark.parametrize(
    "content",
    [
        b'{"text": [',  # malformed JSON
        b"",
        b"null",
        b"[]",
        b'{"text": [1, 2]}',
        b'{"text": [["nested"]]}',
        b'{"text": ["a"], "beam": "wide"}',
        b'{"text": ["a"], "beam": 0}',
        b'{"text": ["a"], "beam": 6}',  # over max_beam
        b'{"text": ["a"], "beam": 2, "n_best": 3}',
        b'{"text": ["a"], "n_best": 6}',  # over the default beam
        b'{"text": ["a"], "to": "fr"}',
        b'{"texts": ["a"]}',
        b'{"text": ["a"], "beam": 1e400}',  # non-finite numbers cannot be echoed as JSON
        b'{"text": ["a"], "beam": NaN}',
        b'{"text": ["a"], "n_best": -Infinity}',
        b'{"text": ["a"], "attention": NaN}',
        b'{"text": ["a"], "beam": true}',
        b'["\\udcff", {"\\ud800": NaN}]',  # lone surrogates echoed back in the 422
    ],
)
def test_malformed_requests_get_422(translator, content):
    app = create_app(translator, LIMITS)
    response = post(app, content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert "detail" in response.json()


def test_one_text_may_be_given_as_a_string(translator):
    app = create_app(translator, LIMITS)
    one = post(app, {"text": "你好。"}).json()["translations"]
    assert one == post(app, {"text": ["你好。"]}).json()["translations"]


def test_languages_as_people_write_them_over_http(translator):
    app = create_app(translator, LIMITS)
    english = ["Good morning.", "The software is fine."]
    for code in ("zh-TW", "ZH-hant", "cmn", "zh-CN"):
        answer = post(app, {"text": english, "to": code})
        assert answer.status_code == 200, answer.text
        got = [r["text"] for r in answer.json()["translations"]]
        assert got == translator(english, to=code), code
    mixed = post(app, {"text": ["I met 王小明 yesterday.", "我的朋友 Li Wei 来自 Boston。"]})
    assert [r["to"] for r in mixed.json()["translations"]] == ["zh", "en"]
    forced = post(app, {"text": "Boston", "from": "zh", "to": "en-US"}).json()["translations"]
    assert forced[0]["text"] == translator("Boston", source_lang="zh", to="en")
    same = post(app, {"text": ["I am fine."], "to": "en"}).json()["translations"][0]
    assert same["text"] == "I am fine."
    for body in ({"text": ["a"], "to": "fr"}, {"text": ["a"], "from": "fr"}):
        refused = post(app, body)
        assert refused.status_code == 422 and "this model translates" in refused.json()["detail"]
    assert post(app, {"text": ["a"], "source_lang": "en"}).status_code == 422  # the field is "from"


def test_a_text_that_is_not_unicode_gets_its_error_in_its_place(translator):
    body = json.dumps({"text": ["ok", "fine", "x\udcff"]}).encode()  # ASCII, escaped
    headers = {"Content-Type": "application/json"}
    response = post(create_app(translator, LIMITS), content=body, headers=headers)
    assert response.status_code == 200, response.text
    ok, fine, bad = response.json()["translations"]
    assert [ok["text"], fine["text"]] == translator(["ok", "fine"])
    assert ok["error"] is None and fine["error"] is None
    assert bad["error"].startswith("not valid Unicode: a lone surrogate U+DCFF at character 1")
    assert (bad["text"], bad["candidates"], bad["to"]) == ("", [], "zh")
    alone = post(create_app(translator, LIMITS), content=b'{"text": "\\udcff"}', headers=headers)
    assert alone.status_code == 200 and alone.json()["translations"][0]["error"]


def test_a_text_longer_than_the_model_reads_is_translated_and_one_that_fails_is_named(
    translator, monkeypatch
):
    app = create_app(translator, Limits())
    emoji = post(app, {"text": ["😀" * 300, "我很好。"]})  # within the limits, 10x MAX_LEN tokens
    assert emoji.status_code == 200, emoji.text
    assert [r["text"] for r in emoji.json()["translations"]] == translator(["😀" * 300, "我很好。"])
    search, bad = translator.engine.decode, translator.text.ids("谢谢。", "en")

    def failing(sources, *args):
        if bad in sources:
            raise RuntimeError("boom")
        return search(sources, *args)

    monkeypatch.setattr(translator.engine, "decode", failing)
    response = post(app, {"text": ["我很好。", "谢谢。"]})
    assert response.status_code == 200, response.text
    fine, failed = response.json()["translations"]
    assert fine["text"] == translator("我很好。") and fine["error"] is None
    assert failed == {**failed, "text": "", "to": "en", "candidates": []}
    assert failed["error"] == "not translated: boom"


def test_an_over_long_text_gets_its_error_and_the_others_their_translations(translator):
    app = create_app(translator, LIMITS)
    texts = ["我很好。", "好" * 201, "Thank you."]
    response = post(app, {"text": texts, "beam": 2})
    assert response.status_code == 200, response.text
    first, long, last = response.json()["translations"]
    assert [first["text"], last["text"]] == translator([texts[0], texts[2]], beam=2)
    assert long["error"] == "201 characters; a text may have at most 200"
    assert (long["text"], long["candidates"], long["to"]) == ("", [], "en")
    few_tokens = create_app(translator, Limits(max_tokens=12))
    answer = post(few_tokens, {"text": ["我很好。", "Where is the train station? " * 3]})
    fine, many = answer.json()["translations"]
    assert answer.status_code == 200 and fine["text"] == translator("我很好。")
    assert many["error"].endswith("tokens; a request may have at most 12"), many
    nothing = json.dumps({"text": ["好" * 201, "x\udcff"]}).encode()  # nothing left to decode
    everything = post(app, content=nothing, headers={"Content-Type": "application/json"})
    assert [r["error"] is not None for r in everything.json()["translations"]] == [True, True]


def test_a_body_that_is_not_utf8_gets_400(translator):
    app = create_app(translator, LIMITS)
    response = post(app, content=b"\xff\xfe\x00", headers={"Content-Type": "application/json"})
    assert response.status_code == 400


def test_oversize_requests_get_413(translator):
    app = create_app(translator, LIMITS)
    assert post(app, {"text": ["a"] * 9}).status_code == 413
    huge = post(app, {"text": ["a" * 100] * 1000})  # 100 kB, refused before parsing
    assert huge.status_code == 413 and "bytes" in huge.json()["detail"]

    async def chunks():  # no Content-Length: the body is counted as it arrives
        for _ in range(100):
            yield b" " * 1000

    assert (
        post(app, content=chunks(), headers={"Content-Type": "application/json"}).status_code == 413
    )


def test_slow_or_busy_service_answers_503(translator, monkeypatch):
    slow = Translator.__new__(Translator)
    slow.__dict__.update(translator.__dict__)
    monkeypatch.setattr(slow, "translate", lambda *args, **kwargs: time.sleep(1.0) or [])
    app = create_app(slow, Limits(timeout=0.2))
    assert post(app, {"text": ["a"]}).status_code == 503
    busy = create_app(translator, Limits(max_waiting=2))
    response = post(busy, {"text": ["a", "b", "c"]})
    assert response.status_code == 503 and "busy" in response.json()["detail"]


def test_32_concurrent_clients_are_batched(translator):
    sizes: list[int] = []
    lock = threading.Lock()
    spy = Translator.__new__(Translator)
    spy.__dict__.update(translator.__dict__)

    def translate(texts, *args, **kwargs):
        with lock:
            sizes.append(len(texts))
        return translator.translate(texts, *args, **kwargs)

    spy.translate = translate
    texts = [f"我有{n}本书。" for n in range(32)]
    expected = translator(texts, beam=2)
    with running_server(create_app(spy, Limits(batch_wait=0.05))) as url:

        def client(text: str) -> httpx.Response:
            with httpx.Client(base_url=url, timeout=60) as http:
                return http.post("/translate", json={"text": [text], "beam": 2})

        with ThreadPoolExecutor(32) as pool:
            responses = list(pool.map(client, texts))
    assert [r.status_code for r in responses] == [200] * 32
    assert [r.json()["translations"][0]["text"] for r in responses] == expected
    assert sum(sizes) == 32 and len(sizes) < 32  # some requests shared a batch


def test_health_and_openapi(translator):
    app = create_app(translator, LIMITS)

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get(path)

    health = asyncio.run(get("/health")).json()
    assert health["status"] == "ok" and health["targets"] == ["en", "zh"]
    assert health["beam"] == translator.options.beam == 5
    path = translator.checkpoint.path  # run/step-NNNNNNN: shown by name, not where it lies
    assert health["model"] == f"{path.parent.name}/{path.name}" and str(path) not in str(health)
    assert (health["busy"], health["decoding"], health["waiting"]) == (False, 0, 0)
    schema = asyncio.run(get("/openapi.json")).json()
    operation = schema["paths"]["/translate"]["post"]
    assert "requestBody" in operation and "200" in operation["responses"]
    assert {"text", "beam", "n_best", "to"} <= set(
        schema["components"]["schemas"]["TranslateRequest"]["properties"]
    )
    page = asyncio.run(get("/"))
    assert page.status_code == 200 and "<canvas" in page.text


@pytest.mark.parametrize(
    "options",
    [
        {"repetition_penalty": 1.5, "no_repeat_ngram_size": 2},
        {"length_penalty": 2.0, "max_len_a": 0.5, "max_len_b": 3, "min_len": 1},
        {"sampling": True, "top_k": 3, "top_p": 0.9, "temperature": 0.7, "seed": 5, "n_best": 2},
        {"target_script_only": False},
        {"script_penalty": 1.5},
        {"allowed_softmax": True},
        {"recase_headlines": False},
        {"keep_numbers": False},
        {"keep_code": False},
        {"keep_list_markers": False},
        {"chinese_script": "tw"},
        {"keep_links": False},
        {"hold_numbers": False},
        {"hold_dates": False},
        {"hold_code": False},
        {"constrained_length_penalty": 1.0},
    ],
)
def test_search_options_per_request_are_those_of_the_python_api(translator, options):
    app = create_app(translator, LIMITS)
    response = post(app, {"text": ["我很好。", "Thank you."], "beam": 2, **options})
    assert response.status_code == 200, response.text
    expected = translator.translate(["我很好。", "Thank you."], beam=2, **options)
    got = response.json()["translations"]
    assert [[c["text"] for c in r["candidates"]] for r in got] == [
        [c.text for c in r.candidates] for r in expected
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"repetition_penalty": 0}, "repetition_penalty must be finite and > 0"),
        ({"no_repeat_ngram_size": -1}, "no_repeat_ngram_size must be between 0 and"),
        ({"max_len_a": -1}, "max_len_a must be between 0 and"),
        ({"top_p": 1.5, "sampling": True}, "0 < top_p ≤ 1"),
        ({"temperature": 0, "sampling": True}, "temperature > 0"),
        ({"rerank_backward": -1}, "rerank_backward a finite one ≥ 0"),
        ({"sampling": True, "n_best": 9}, "n_best 9 is over the limit 5"),
        ({"min_len": "3"}, "valid integer"),
        ({"target_script_only": "no"}, "valid boolean"),
        ({"allowed_softmax": 1}, "valid boolean"),
        ({"script_penalty": -1}, "script_penalty (and by target) must be finite and ≥ 0"),
        ({"chinese_script": "zh-TW"}, "'hans', 'hant', 'tw' or 'hk'"),
    ],
)
def test_bad_search_options_are_422_with_the_flag_s_bounds(translator, options, message):
    response = post(create_app(translator, LIMITS), {"text": ["我很好。"], **options})
    assert response.status_code == 422 and message in response.text, response.text


def test_a_target_prefix_per_request_or_per_text_is_the_python_api_s(translator):
    app = create_app(translator, LIMITS)
    texts = ["我很好。", "Thank you.", "他在哪里？"]
    for prefix in ["I am", ["I am", None, "Where"]]:
        response = post(app, {"text": texts, "beam": 2, "target_prefix": prefix})
        assert response.status_code == 200, response.text
        got = [r["text"] for r in response.json()["translations"]]
        assert got == translator(texts, beam=2, target_prefix=prefix)
    assert got[0].startswith("I am") and got[2].startswith("Where")


@pytest.mark.parametrize(
    ("prefix", "status", "message"),
    [
        (["I am"], 422, "one entry per text (2)"),
        (3, 422, "target_prefix"),
        ([1, None], 422, "target_prefix"),
        ("\udcff", 422, "target_prefix[0]: not valid Unicode"),
        ("x" * 201, 413, "target_prefix[0] has 201 characters"),
    ],
)
def test_a_bad_target_prefix_is_a_4xx_that_names_it(translator, prefix, status, message):
    body = json.dumps({"text": ["我很好。", "Hi."], "target_prefix": prefix})  # \udcff escaped
    json_type = {"content-type": "application/json"}
    response = post(create_app(translator, LIMITS), content=body, headers=json_type)
    assert response.status_code == status and message in response.text, response.text


def test_a_prefix_a_text_cannot_start_with_is_that_text_s_error(translator):
    body = {"text": ["我很好。", "Hi."], "target_prefix": ["<2zh> 你好", None]}
    response = post(create_app(translator, LIMITS), body)
    assert response.status_code == 200, response.text
    tagged, fine = response.json()["translations"]
    assert tagged["error"] == "target prefix: it may not hold a language tag or special token"
    assert fine["error"] is None and fine["text"] == translator("Hi.")


def test_a_glossary_term_or_a_language_code_beyond_any_text_is_refused(translator):
    app = create_app(translator, LIMITS)
    long_term = post(app, {"text": ["我很好。"], "glossary": [["好" * 201, "good"]]})
    assert long_term.status_code == 413 and "glossary[0] has 201 characters" in long_term.text
    code = post(app, {"text": ["a"], "to": "en-" + "x" * 40})
    assert code.status_code == 422 and "a language code of 43 characters" in code.text

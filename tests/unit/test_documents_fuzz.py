"""Generated documents (hypothesis): a Markdown text of any mix of blocks and inline markup keeps
its structure, code and addresses through a translation; any text at all is read and written by
every format, or refused with a one-line ValueError, never a traceback."""

import json
import re
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_documents_formats import upper

from fanyi.documents import markdown
from fanyi.documents.markdown import skeleton
from fanyi.documents.registry import FORMATS
from fanyi.documents.translating import translate_segments

WORDS = st.text(string.ascii_letters, min_size=1, max_size=8)
PHRASE = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)
CODE = st.text(string.ascii_letters + string.digits + "._-()=", min_size=1, max_size=10)
INLINE_PIECE = st.one_of(
    PHRASE,
    PHRASE.map(lambda p: f"**{p}**"),
    PHRASE.map(lambda p: f"*{p}*"),
    CODE.map(lambda c: f"`{c}`"),
    st.tuples(PHRASE, CODE).map(lambda t: f"[{t[0]}](https://example.org/{t[1]})"),
    st.tuples(PHRASE, CODE).map(lambda t: f"![{t[0]}]({t[1]}.png)"),
    CODE.map(lambda c: f"<https://example.org/{c}>"),
)
INLINE = st.lists(INLINE_PIECE, min_size=1, max_size=5).map(" ".join)
BLOCK = st.one_of(
    st.tuples(st.integers(1, 6), INLINE).map(lambda t: "#" * t[0] + " " + t[1]),
    st.lists(INLINE, min_size=1, max_size=3).map("\n".join),
    st.lists(INLINE, min_size=1, max_size=3).map(lambda items: "\n".join(f"- {i}" for i in items)),
    st.lists(INLINE, min_size=1, max_size=2).map(lambda items: "\n".join(f"> {i}" for i in items)),
    st.lists(CODE, min_size=1, max_size=3).map(lambda lines: "```\n" + "\n".join(lines) + "\n```"),
    st.tuples(INLINE, INLINE).map(lambda t: f"| {t[0]} | {t[1]} |\n| --- | --- |\n| {t[1]} | x |"),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(BLOCK, min_size=1, max_size=6).map(lambda blocks: "\n\n".join(blocks) + "\n"))
def test_generated_markdown_keeps_its_structure_code_and_addresses(text):
    document = markdown.read(text.encode(), "generated.md")
    translations, report = translate_segments(document.segments, upper, document.escape, "en")
    assert report.failed == 0
    out = document.write(translations, "en").decode()
    assert skeleton(out) == skeleton(text)


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=300), st.sampled_from(sorted(FORMATS)))
def test_any_text_is_read_and_written_or_refused_in_one_line(text, name):
    try:
        document = FORMATS[name].read(text.encode(), "any.file")
    except ValueError as refused:
        assert str(refused).startswith("any.file") and "\n" not in str(refused)
        return
    translations, _ = translate_segments(document.segments, upper, document.escape, "en")
    document.write(translations, "en")
    assert document.write([None] * len(document.segments), "en") == text.encode()


PLACEHOLDERS = re.compile(
    r"\{\{\w+\}\}|\{\w+(?:, \w+)?\}|%\(?\w*\)?[sd]|\$t\([\w.]+\)|</?1>|plural|#|one \{|other \{"
)
MESSAGE_PIECE = st.one_of(
    PHRASE,
    st.sampled_from(["{name}", "{{user}}", "%s", "%(count)d", "{n, number}", "$t(other.key)"]),
    PHRASE.map(lambda p: f"<1>{p}</1>"),
    st.tuples(PHRASE, PHRASE).map(lambda t: f"{{n, plural, one {{# {t[0]}}} other {{# {t[1]}}}}}"),
)
MESSAGE = st.lists(MESSAGE_PIECE, min_size=1, max_size=4).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        WORDS, st.one_of(MESSAGE, st.dictionaries(WORDS, MESSAGE, max_size=3)), max_size=5
    )
)
def test_generated_i18n_json_keeps_its_keys_and_placeholders(messages):
    data = json.dumps(messages, indent=2, ensure_ascii=False).encode()
    document = FORMATS["json"].read(data, "generated.json")
    translations, report = translate_segments(document.segments, upper, document.escape, "en")
    assert report.failed == 0
    out = json.loads(document.write(translations, "en"))

    def held(value: object) -> object:
        if isinstance(value, dict):
            return {key: held(item) for key, item in value.items()}
        return PLACEHOLDERS.findall(str(value).lower())

    assert held(out) == held(messages)

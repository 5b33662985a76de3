"""Greetings and everyday phrases come out right: the first things a user types.

A checked list, each phrase with the translations a bilingual reader accepts; a translation
passes when it is one of them up to its closing punctuation ("Good morning!" for "Good morning.").
None of the phrases is a test or dev sentence of any source. Each bundled model may miss no more
phrases than it misses now: a model that misses more fails, one retrained to miss fewer (or
others, no more of them) passes. The aim is no misses; neither model is there yet
(docs/models.md).
"""

import re

import pytest

from fanyi import Translator
from fanyi.translate.model_names import resolve_model_dir

# (source, target language, accepted translations)
PHRASES = [
    ("你好。", "en", ["Hello.", "Hi.", "Hello there."]),
    ("谢谢。", "en", ["Thank you.", "Thanks."]),
    ("早上好。", "en", ["Good morning."]),
    ("晚安。", "en", ["Good night.", "Goodnight."]),
    ("再见。", "en", ["Goodbye.", "Good-bye.", "Bye.", "Bye-bye.", "See you.", "See you again."]),
    ("对不起。", "en", ["Sorry.", "I'm sorry.", "Excuse me."]),
    ("我爱你。", "en", ["I love you."]),
    ("你叫什么名字？", "en", ["What's your name?", "What is your name?"]),
    ("生日快乐！", "en", ["Happy birthday!"]),
    ("Hello.", "zh", ["你好。", "您好。", "嗨。"]),
    ("Thank you.", "zh", ["谢谢。", "谢谢你。", "谢谢您。", "感谢你。", "感谢您。"]),
    ("Good morning.", "zh", ["早上好。", "早安。", "早。"]),
    ("Good night.", "zh", ["晚安。"]),
    ("Goodbye.", "zh", ["再见。", "再见了。", "再会。"]),
    ("I'm sorry.", "zh", ["对不起。", "抱歉。", "我很抱歉。", "不好意思。"]),
    ("I love you.", "zh", ["我爱你。"]),
    ("What is your name?", "zh", ["你叫什么名字？", "你的名字是什么？", "您叫什么名字？"]),
    ("Happy birthday!", "zh", ["生日快乐！", "祝你生日快乐！"]),
]

# What each bundled model misses with its defaults (beam 5, reranking λ 0.2, α 3): how many it
# may miss, and which, for the message.
MISSES = {
    # α 3 lengthens 你好。 into "You're good." (α ≤ 1 gives "Hi."); its 8k vocabulary cuts
    # "Hello" into He·ll·o, and "He" is 他; 生日快乐！ comes out "My birthday!".
    "zh-en": {"你好。", "Hello.", "生日快乐！"},
    # its 16k vocabulary has no ▁Hello, ▁Hi or ▁Happy: 生日快乐！ comes out "Hap birthday!"
    # (Happy is ▁Ha·p·py), and Happy birthday! "快乐生日！" (β 0.5 too).
    "zh-en-general": {"生日快乐！", "Happy birthday!"},
}

CLOSING = re.compile(r"[.!?。！？]+$")


def same_phrase(translation: str, accepted: list[str]) -> bool:
    """Whether ``translation`` is one of ``accepted`` up to its closing punctuation."""
    return CLOSING.sub("", translation.strip()) in {CLOSING.sub("", a) for a in accepted}


def misses(model: str) -> set[str]:
    """The sources of PHRASES that ``model`` (its stored defaults, fp32) gets wrong."""
    translator = Translator.load(model, dtype="fp32")
    wrong = set()
    for to in ("en", "zh"):
        rows = [(source, accepted) for source, lang, accepted in PHRASES if lang == to]
        outputs = translator([source for source, _ in rows], to=to)
        wrong |= {s for (s, a), out in zip(rows, outputs, strict=True) if not same_phrase(out, a)}
    return wrong


def bundled(name: str):
    """Skip where the bundled model ``name`` is not installed."""
    return pytest.mark.skipif(
        not resolve_model_dir(name).is_dir(), reason=f"no bundled model {name}"
    )


def test_closing_punctuation_alone_is_forgiven():
    assert same_phrase("Good morning!", ["Good morning."])
    assert same_phrase("早上好！", ["早上好。"])
    assert not same_phrase("A good morning.", ["Good morning."])
    assert not same_phrase("You're good.", ["Hello.", "Hi."])


@pytest.mark.slow
@pytest.mark.parametrize("model", [pytest.param(m, marks=bundled(m)) for m in MISSES])
def test_bundled_models_miss_no_more_phrases_than_now(model):
    missed = misses(model)
    assert len(missed) <= len(MISSES[model]), f"missed {missed}, now {MISSES[model]}"

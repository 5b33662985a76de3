"""The bundled model, given paragraphs: every sentence is translated, one line in gives one line
out, on the command line as in Python. (Unsplit, a model trained on single sentences can
translate a 4-sentence paragraph as "I'm busy having a good restaurant today?".) The tests
compare the model with itself: a paragraph with its sentences one by one, the command line with
Python."""

import subprocess
import sys

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

# slow: the CLI in a subprocess on the bundled model
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}"),
]

CHINESE = ["我今天很忙。", "你明天有空吗？", "我们一起去吃饭吧！", "那家饭馆的菜很好吃。"]
ENGLISH = [
    "The weather is nice today.",
    "Shall we go for a walk?",
    "I know a quiet park.",
    "It is not far from here.",
]


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load(dtype="fp32")  # dtype auto may choose by the number of threads


@pytest.mark.parametrize(("sentences", "glue"), [(CHINESE, ""), (ENGLISH, " ")])
def test_a_paragraph_is_its_sentences_translated_and_joined(translator, sentences, glue):
    separately = translator(sentences)
    (paragraph,) = translator([glue.join(sentences)])
    assert paragraph == (" " if glue == "" else "").join(separately)  # joined in the target's way
    assert len(paragraph) >= sum(map(len, separately))  # nothing dropped


def test_the_command_line_gives_one_line_per_paragraph(translator):
    paragraphs = ["".join(CHINESE), " ".join(ENGLISH), "你好。"]
    done = subprocess.run(
        [sys.executable, "-m", "fanyi", "translate", "--threads", "1", "--dtype", "fp32"],
        input="\n".join(paragraphs).encode(),
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode("utf-8").splitlines() == translator(paragraphs)

"""The ``preprocess.py`` shipped with every export normalises exactly as fanyi's Normalizer."""

import pytest

from fanyi.interop.preprocess import normalise
from fanyi.text.lang import Normalizer

TEXTS = [
    "這本書很有意思。",  # Traditional
    "我們明天去北京，好嗎？",  # full-width punctuation stays in Chinese
    "１２ＡＢ　ｃｄ！",  # full-width digits and letters fold; ideographic space
    "Hello,\u00a0world\u200b!  \t Two  spaces…",
    "ﬁne ｶﾀｶﾅ ①",  # compatibility characters
    "\ufeff前面有 BOM 後面有\u2060字",
    "emoji 😀 and ä ö ü ß",
    "   ",
    "",
]


@pytest.mark.parametrize("lang", ["zh", "en", "de"])
@pytest.mark.parametrize(("nfkc", "t2s"), [(True, True), (True, False), (False, True)])
def test_the_shipped_normalisation_is_fanyis(lang, nfkc, t2s):
    fanyi = Normalizer(lang, nfkc=nfkc, t2s=t2s)
    assert [normalise(t, lang, nfkc, t2s) for t in TEXTS] == [fanyi(t) for t in TEXTS]

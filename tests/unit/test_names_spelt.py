"""Chinese names read by the model in pinyin (``text/names_spelt.py``): a person's name the
finder writes in pinyin and a dictionary name whose English is its pinyin, then held as a name
in Latin letters."""

from fanyi.text import pipeline
from fanyi.text.names_spelt import in_pinyin
from fanyi.text.options import TextOptions
from fanyi.text.transform import ALTERNATIVES, Context


def test_a_persons_name_is_read_in_pinyin():
    assert in_pinyin("李伟是我的同事。") == "Li Wei是我的同事。"
    assert in_pinyin("生日快乐，陈静！") == "生日快乐，Chen Jing！"  # the greeting stays
    assert in_pinyin("我叫王小明。") == "我叫Wang Xiaoming。"  # 我叫 stays


def test_a_dictionary_name_whose_english_is_its_pinyin_is_read_so():
    assert in_pinyin("我住在台北。") == "我住在Taipei。"  # taibei, near enough
    assert in_pinyin("我住在杭州。") == "我住在Hangzhou。"


def test_other_names_common_words_and_foreign_names_stay_in_chinese():
    assert in_pinyin("我住在伦敦。") == "我住在伦敦。"  # lundun: no pinyin of London
    assert in_pinyin("我们去长城吧。") == "我们去长城吧。"  # "Great Wall"
    assert in_pinyin("他指责安卡拉。") == "他指责安卡拉。"  # a transliteration: 卡
    assert in_pinyin("李娜是我的同事。") == "李娜是我的同事。"  # 娜 (玛丽娜 "Marina")
    assert in_pinyin("我住在台北。", ["台北"]) == "我住在台北。"  # a user's glossary term
    assert in_pinyin("王子来了。") == "王子来了。"  # "the prince"
    assert in_pinyin("弗拉基米尔·普京来了。") == "弗拉基米尔·普京来了。"


def test_the_transform_reads_it_so_into_english_only_and_holds_it():
    options = TextOptions()
    reading = pipeline.read("我叫王小明。", Context("zh", "en", options))
    (sentence,) = reading.sentences()
    assert sentence == "我叫Wang Xiaoming。"
    assert reading.held(sentence)[0].split(ALTERNATIVES)[0] == "My name is Wang Xiaoming"
    off = pipeline.read("我叫王小明。", Context("zh", "en", options.replace(hold_names=False)))
    assert off.sentences() == ["我叫王小明。"]
    german = pipeline.read("我叫王小明。", Context("zh", "de", options))
    assert german.sentences() == ["我叫王小明。"]


def test_where_held_every_dictionary_name_is_read_as_its_english():
    assert in_pinyin("我搬到旧金山了。", every=True) == "我搬到 San Francisco 了。"
    assert in_pinyin("我搬到旧金山了。") == "我搬到旧金山了。"  # read so only where held
    assert in_pinyin("他签订了南京条约。", every=True) == "他签订了 Treaty of Nanjing 。"
    assert in_pinyin("旧金山很美。", every=True) == "San Francisco 很美。"
    assert in_pinyin("我住在台北。", every=True) == "我住在Taipei。"  # read so anyway
    assert in_pinyin("他们在叙利亚边境。", every=True) == "他们在叙利亚边境。"  # two forms
    assert in_pinyin("我搬到旧金山了。", ["旧金山"], every=True) == "我搬到旧金山了。"


def test_the_transform_reads_a_sentence_held_to_its_names_with_them_in_english():
    options = TextOptions()
    reading = pipeline.read("我们去长城吧。", Context("zh", "en", options))
    (sentence,) = reading.sentences()
    assert sentence == "我们去长城吧。"  # the model reads 长城 better so, where it is free
    assert reading.read_held(sentence) == "我们去 Great Wall 吧。"
    off = pipeline.read("我们去长城吧。", Context("zh", "en", options.replace(hold_names=False)))
    assert off.read_held("我们去长城吧。") == "我们去长城吧。"

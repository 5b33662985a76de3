"""Chinese names read by the model as English writes them (``text/names_spelt.py``): a person's
name the finder writes in pinyin and a dictionary name whose English is its pinyin against the
Chinese, another dictionary name with spaces around; then held as names in Latin letters."""

from fanyi.text import pipeline
from fanyi.text.names_spelt import in_latin
from fanyi.text.options import TextOptions
from fanyi.text.transform import ALTERNATIVES, Context


def test_a_persons_name_is_read_in_latin():
    assert in_latin("李伟是我的同事。") == "Li Wei是我的同事。"
    assert in_latin("生日快乐，陈静！") == "Happy birthday ，Chen Jing！"  # a set phrase too
    assert in_latin("生日快乐！") == "Happy birthday ！"  # which the model then copies
    assert in_latin("我叫王小明。") == "我叫Wang Xiaoming。"  # 我叫 stays


def test_a_dictionary_name_whose_english_is_its_pinyin_is_read_so():
    assert in_latin("我住在台北。") == "我住在Taipei。"  # taibei, near enough
    assert in_latin("我住在杭州。") == "我住在Hangzhou。"


def test_another_dictionary_name_is_read_in_english_with_spaces_around():
    assert in_latin("我住在伦敦。") == "我住在 London 。"  # lundun: no pinyin of London
    assert in_latin("我们去长城吧。") == "我们去 Great Wall 吧。"
    assert in_latin("他指责安卡拉。") == "他指责 Ankara 。"  # a transliteration: 卡
    assert in_latin("他签订了南京条约。") == "他签订了 Treaty of Nanjing 。"
    assert in_latin("旧金山很美。") == "San Francisco 很美。"  # no space before the line
    assert in_latin("美国人说美国很好。") == "美国人说 United States 很好。"  # where it was found
    assert in_latin("李娜是我的同事。") == "Li Na 是我的同事。"  # 娜 (玛丽娜 "Marina"): not pinyin


def test_common_words_some_names_and_a_glossary_term_stay_in_chinese():
    assert in_latin("我住在台北。", ["台北"]) == "我住在台北。"  # a user's glossary term
    assert in_latin("王子来了。") == "王子来了。"  # "the prince"
    assert in_latin("他们在叙利亚边境。") == "他们在叙利亚边境。"  # "Syria" or "Syrian"
    assert in_latin("谢谢！") == "谢谢！"  # one entry of entries.tsv.gz alone: held to its senses
    assert in_latin("弗拉基米尔·普京来了。") == "弗拉基米尔·普京来了。"  # two names held as one


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

"""SentencePiece: fixed special ids, tags as single ids, and an exact round trip on Tatoeba."""

import subprocess
import sys

import pytest
import sentencepiece as spm

from fanyi.data.build import subword
from fanyi.data.build.subword import train_sentencepiece
from fanyi.data.vocab import Vocab
from fanyi.text.lang import Normalizer, add_tag

SENTENCES = [
    "你好，世界！",
    "Hello, world!",
    "汤姆在这里。",
    "Tom is here.",
    "我们来试试。",
    "We try.",
    "他２０岁了吗？",
    "Is he 20?",
] * 20


def _train(tmp_path, lines, vocab_size, tags=()):
    corpus = tmp_path / "train.txt"
    corpus.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return Vocab(train_sentencepiece([corpus], tmp_path / "spm", vocab_size, tags=tags))


def test_special_ids_and_tags(tmp_path):
    vocab = _train(tmp_path, SENTENCES, 400, tags=["<2en>", "<2zh>"])
    pieces = [vocab.sp.id_to_piece(i) for i in range(6)]
    assert pieces == ["<pad>", "<unk>", "<s>", "</s>", "<2en>", "<2zh>"]
    ids = vocab.encode(add_tag("你好，世界！", "en"))
    assert ids[0] == vocab.tag_id("en") == 4 and ids[1:] == vocab.encode("你好，世界！")
    assert vocab.decode([2, *vocab.encode("Tom is here."), 3, 0, 0]) == "Tom is here."
    with pytest.raises(ValueError, match="<2de>"):
        vocab.encode("<2de> Hallo")


def test_unseen_characters_fall_back_to_bytes(tmp_path):
    vocab = _train(tmp_path, SENTENCES, 400)
    text = "龘靐，Ω ⁇ 😀"
    assert 1 not in vocab.encode(text) and vocab.decode(vocab.encode(text)) == text


def test_round_trip_on_the_real_corpus(tmp_path, data_dir):
    """Every cleaned sentence of Tatoeba (its first 3,000 pairs) decodes back to itself, though
    SentencePiece saw 4% of them."""
    path = data_dir / "tatoeba-cmn-eng" / "cmn.txt"
    en, zh = Normalizer("en"), Normalizer("zh")
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines()[:3000]:
        english, chinese = line.split("\t")[:2]
        lines += [en(english), zh(chinese)]
    vocab = _train(tmp_path, lines[::25], 2000)
    assert [line for line in lines if vocab.decode(vocab.encode(line)) != line] == []


def test_sentencepiece_defaults_would_break_the_round_trip(tmp_path):
    """Why the identity rule and byte fallback: the defaults rewrite "，" and lose "龘"."""
    corpus = tmp_path / "train.txt"
    corpus.write_text("".join(f"{line}\n" for line in SENTENCES), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(tmp_path / "default"),
        vocab_size=60,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    default = spm.SentencePieceProcessor(model_file=str(tmp_path / "default.model"))
    assert default.decode(default.encode("你好，世界！龘")) == "你好,世界! ⁇ "
    ours = _train(tmp_path, SENTENCES, 400)
    assert ours.decode(ours.encode("你好，世界！龘")) == "你好，世界！龘"


SPECIAL_PIECES = ("<pad>", "<unk>", "<s>", "</s>")


def test_a_piece_table_gives_the_model_its_own_ids(tmp_path):
    plain = _train(tmp_path, SENTENCES, 400, tags=["<2en>"])
    pieces = [plain.sp.id_to_piece(i) for i in range(len(plain))]
    # Marian's layout: </s> 0, <unk> 1, a language code, the pieces backwards, <pad> last
    order = ["</s>", "<unk>", ">>fra<<", *[p for p in reversed(pieces) if p not in SPECIAL_PIECES]]
    table = {piece: i for i, piece in enumerate([*order, "<pad>"])}
    vocab = Vocab(plain.path, table)
    assert len(vocab) == len(table) and vocab.tags == {"<2en>": table["<2en>"]}
    text = "Tom is here."
    ids = vocab.encode(text)
    assert ids == [table[plain.sp.id_to_piece(i)] for i in plain.encode(text)]
    assert vocab.decode([*ids, table["</s>"], table["<pad>"], table["<unk>"]]) == text
    assert vocab.encode(f">>fra<< {text}") == [table[">>fra<<"], *ids]
    assert vocab.encode(">>xyz<< Tom")[0] == table["<unk>"]  # an unknown code, as MarianTokenizer
    assert vocab.id_to_piece(ids[0]) == plain.sp.id_to_piece(plain.encode(text)[0])
    with pytest.raises(ValueError, match="lacks <pad>"):
        Vocab(plain.path, {"</s>": 0, "<unk>": 1})


def test_vocabulary_training_returns_within_a_time_limit(tmp_path):
    """The very call fanyi makes (a sentence iterator), in a subprocess with a deadline: a
    SentencePiece that hangs there (0.2.2) fails this test in a minute instead of stalling CI."""
    corpus = tmp_path / "lines.txt"
    corpus.write_text("".join(f"第{i}句话。 Sentence {i} here.\n" for i in range(300)))
    script = (
        "import sys; from pathlib import Path; "
        "from fanyi.data.build.subword import train_sentencepiece; "
        "train_sentencepiece([Path(sys.argv[1])], Path(sys.argv[2]), 400)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(corpus), str(tmp_path / "spm")],
        timeout=60,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "spm.model").is_file()


def test_a_sentencepiece_that_hangs_is_refused_by_name(tmp_path, monkeypatch):
    monkeypatch.setattr(subword.spm, "__version__", "0.2.2")
    with pytest.raises(ValueError, match=r"0\.2\.2 never returns.*>=0\.2\.3"):
        subword.train_sentencepiece([tmp_path / "unused.txt"], tmp_path / "spm", 200)

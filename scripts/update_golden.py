"""Regenerate tests/system/golden/bundled.tsv: the bundled model's translations of fixed sentences.

Run after committing a new bundled model, check the diff by eye, commit it with the model:
    .venv/bin/python scripts/update_golden.py
The sentences are not in Tatoeba (checked with grep when chosen), so they test generalisation.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from fanyi import Translator

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "system" / "golden" / "bundled.tsv"
BEAM = 5
SENTENCES = [
    "这家小饭馆的饺子特别好吃。",
    "明天早上我们要坐火车去上海。",
    "他把钥匙忘在办公室里了。",
    "下雨的时候，路上的车开得很慢。",
    "我妹妹每天晚上都练习弹钢琴。",
    "这本书比那部电影有意思多了。",
    "请在会议开始之前关掉手机。",
    "我们的老师来自一个很小的村子。",
    "冬天来了，湖面上结了一层薄冰。",
    "你能帮我把这个箱子搬到楼上吗？",
    "My neighbour grows tomatoes in her small garden.",
    "The museum is closed on Mondays.",
    "We missed the last bus and had to walk home.",
    "Could you explain this word to me again?",
    "The children were laughing in the next room.",
    "He bought a red bicycle for his daughter.",
    "It took me three hours to finish the report.",
    "Please leave the window open tonight.",
    "She has never been to the sea before.",
    "The soup is too hot to eat right now.",
]


def translate_all(translator: Translator) -> list[str]:
    """The golden translations: beam 5, one thread, fp32."""
    return translator(SENTENCES, beam=BEAM)


def main() -> int:
    torch.set_num_threads(1)
    translations = translate_all(Translator.load(dtype="fp32"))
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{s}\t{t}\n" for s, t in zip(SENTENCES, translations, strict=True)]
    GOLDEN.write_text("".join(lines), encoding="utf-8")
    print(f"wrote {len(lines)} translations to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

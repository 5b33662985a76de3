"""Regenerate tests/system/golden/: the bundled model's translations of fixed sentences
(bundled.tsv), and of sentences that exercise each text feature and per-call option
(features.tsv: options as JSON, source, translation).

Run after committing a new bundled model, check the diff by eye, commit it with the model:
    .venv/bin/python scripts/update_golden.py
The sentences are not in Tatoeba (checked with grep when chosen), so they test generalisation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

from fanyi import Translator

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "system" / "golden" / "bundled.tsv"
FEATURES = GOLDEN.with_name("features.tsv")
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


# Each text feature and per-call option, on and off: (options, source)
FEATURE_CASES: list[tuple[dict, str]] = [
    ({}, "The population grew from 1,400,000 to 2,350,000 in 2024."),
    ({"keep_numbers": False, "hold_numbers": False}, "The town has 1,400,000 people."),
    ({}, "2024年8月11日，我们去了北京。"),
    ({"hold_dates": False}, "2024年8月11日，我们去了北京。"),
    ({}, "The meeting is on August 11, 2025."),
    ({}, "Visit https://example.com/docs or write to help@example.org."),
    ({"keep_links": False}, "请访问 https://example.com/docs 了解更多。"),
    ({}, "Call `translate()` with a list of strings."),
    ({"keep_code": False}, "Call `translate()` with a list of strings."),
    ({"hold_code": False}, "这个函数返回 `None`。"),
    ({}, "1. Open the file and read it."),
    ({}, "一、打开文件。"),
    ({"keep_list_markers": False}, "2) Close the window."),
    ({}, "How To Train Your Own Model"),
    ({"recase_headlines": False}, "How To Train Your Own Model"),
    ({"chinese_script": "tw"}, "The software runs on my computer."),
    ({"chinese_script": "hant"}, "I like this book."),
    ({}, "这个函数返回一个新的列表。第二句话在这里。"),
    ({"split_sentences": False}, "这个函数返回一个新的列表。第二句话在这里。"),
    ({"target_prefix": "I really"}, "我喜欢猫。"),
    ({"constraints": [["kitty"]]}, "我喜欢猫。"),
    ({"n_best": 3}, "他们明天来。"),
    ({"to": "zh"}, "Good morning."),
    ({"beam": 1}, "我们的老师来自一个很小的村子。"),
    ({"length_penalty": 1.0, "rerank_backward": 0.0}, "冬天来了，湖面上结了一层薄冰。"),
]


def translate_features(translator: Translator) -> list[str]:
    """Each case's candidates (joined by " ||| "), one thread, fp32."""
    found = []
    for options, source in FEATURE_CASES:
        changes = dict(options)
        to = changes.pop("to", None)
        constraints = changes.pop("constraints", None)
        (result,) = translator.translate([source], to, constraints=constraints, **changes)
        found.append(" ||| ".join(c.text for c in result.candidates) or f"error: {result.error}")
    return found


def main() -> int:
    torch.set_num_threads(1)
    translator = Translator.load(dtype="fp32")
    translations = translate_all(translator)
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{s}\t{t}\n" for s, t in zip(SENTENCES, translations, strict=True)]
    GOLDEN.write_text("".join(lines), encoding="utf-8")
    features = translate_features(translator)
    rows = [
        f"{json.dumps(o, ensure_ascii=False)}\t{s}\t{t}\n"
        for (o, s), t in zip(FEATURE_CASES, features, strict=True)
    ]
    FEATURES.write_text("".join(rows), encoding="utf-8")
    print(f"wrote {len(lines)} translations to {GOLDEN}, {len(rows)} to {FEATURES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

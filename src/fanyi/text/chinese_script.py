"""The characters a translation into Chinese is written in: Simplified, as the model writes them,
or Traditional by OpenCC (``lang.to_traditional``): plain (``hant``), Taiwan's characters and
words (``tw``: 軟體, 滑鼠) or Hong Kong's (``hk``). Inline code stays as written."""

from __future__ import annotations

from typing import Literal

from .lang import CHINESE, to_traditional
from .transform import Context, Option, Transform

ChineseScript = Literal["hans", "hant", "tw", "hk"]
CHINESE_SCRIPTS: tuple[str, ...] = ("hans", "hant", "tw", "hk")


class Script(Transform):
    """``chinese_script``: a translation into Chinese in the characters it names."""

    name = "chinese_script"
    options = (
        Option(
            "chinese_script",
            "hans",
            "into Chinese: Simplified (hans), Traditional (hant), Taiwan's (tw), Hong Kong's (hk)",
            CHINESE_SCRIPTS,
        ),
    )

    def write_back(self, translation: str, memo: None, context: Context) -> str:
        script = context.options.chinese_script
        if context.to != CHINESE or script == "hans":
            return translation
        return to_traditional(translation, script, context.kept)

"""CTranslate2's weight types by fanyi's names (``fanyi export --dtype``), read without torch."""

from __future__ import annotations

# fanyi's names of the weight types (``--dtype``): CTranslate2's (int8: the linear maps in 8 bits)
DTYPES = {
    "fp32": "float32",
    "fp16": "float16",
    "bf16": "bfloat16",
    "int8": "int8",
    "int8_fp32": "int8_float32",
    "int8_fp16": "int8_float16",
    "int8_bf16": "int8_bfloat16",
}

"""Scores as sacreBLEU computes them: BLEU and chrF with their signatures, one or more references.

BLEU tokenises Chinese with sacreBLEU's ``zh`` tokenizer (each Han character a token) and every
other target language with ``13a`` (the WMT default): ``fanyi.text.lang.bleu_tokenizer``. chrF needs
no tokenizer. Scoring needs no model: validation during training imports this, not the
translator (``fanyi.evaluate`` translates, then scores here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sacrebleu.metrics import BLEU, CHRF

from .text.lang import BLEU_TOKENIZERS, bleu_tokenizer, majority_script


@dataclass
class Scores:
    """BLEU and chrF of a system output, with sacreBLEU's signatures."""

    bleu: float
    chrf: float
    bleu_signature: str  # nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
    chrf_signature: str
    bp: float  # BLEU's brevity penalty
    length_ratio: float  # output tokens / reference tokens (BLEU's tokenizer)
    lines: list[str]  # sacreBLEU's text format: "BLEU|signature = 20.31 55.0/…", "chrF2|… = 45.10"


def score(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], target_lang: str | None
) -> Scores:
    """Corpus BLEU and chrF of ``hypotheses`` against one or more reference streams
    (``references[k][i]`` is reference ``k`` of line ``i``) in ``target_lang`` (None: BLEU's
    tokenizer follows the script most reference lines are written in)."""
    for k, ref in enumerate(references):
        if len(ref) != len(hypotheses):
            raise ValueError(
                f"reference {k + 1} has {len(ref)} lines, the output {len(hypotheses)}"
            )
    if target_lang is None:
        tokenizer = BLEU_TOKENIZERS[majority_script([line for ref in references for line in ref])]
    else:
        tokenizer = bleu_tokenizer(target_lang)
    bleu_metric = BLEU(tokenize=tokenizer)
    chrf_metric = CHRF()
    refs = [list(r) for r in references]
    bleu = bleu_metric.corpus_score(list(hypotheses), refs)
    chrf = chrf_metric.corpus_score(list(hypotheses), refs)
    signatures = str(bleu_metric.get_signature()), str(chrf_metric.get_signature())
    return Scores(
        bleu=bleu.score,
        chrf=chrf.score,
        bleu_signature=signatures[0],
        chrf_signature=signatures[1],
        bp=bleu.bp,
        length_ratio=bleu.sys_len / max(bleu.ref_len, 1),
        lines=[bleu.format(signature=signatures[0]), chrf.format(signature=signatures[1])],
    )

"""The CTranslate2 engine: fanyi's Translator with its search run by CTranslate2.

``fanyi export MODEL --to ctranslate2 -o DIR`` writes DIR with fanyi's configs and vocabularies
beside CTranslate2's files; this Translator reads text exactly as the fanyi engine does
(normalisation, language tags, sentence splitting, batching, detokenisation) and hands the
pieces to ``ctranslate2.Translator.translate_batch``. Options map one to one, except the length
penalty: CTranslate2 divides a beam's log-probability by (|Y| + 1)^α (EOS counted) where fanyi
uses GNMT's ((5 + |Y| + 1) / 6)^α, so with α > 0 beam search may rank a few hypotheses
differently (α = 0 and greedy search agree). A hypothesis that reaches its length limit ends
without EOS in CTranslate2, where fanyi then forces EOS (the same tokens). Scores are reported
as fanyi computes them. Per-layer attention maps (``plot attention``) need the fanyi engine.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..train.checkpoint import read_config
from .config import DecodeConfig, Dtype, LongInput
from .hypothesis import Hypothesis, finish
from .translator import AttentionMaps, Translator, token_batches

COMPUTE_TYPES = {"fp32": "default", "bf16": "bfloat16", "int8": "int8"}  # default: as exported


class CTranslate2Translator(Translator):
    """A CTranslate2 model directory exported by fanyi, translating like ``Translator``."""

    def __init__(
        self,
        model_dir: str | Path,
        config: DecodeConfig,
        batch_tokens: int = 4096,
        device: str = "cpu",
    ) -> None:
        import ctranslate2

        model_dir = Path(model_dir)
        if not (model_dir / "model.bin").is_file():
            raise FileNotFoundError(
                f"{model_dir} is not a CTranslate2 model: export one with "
                "fanyi export MODEL --to ctranslate2 -o DIR"
            )
        self._init_text(read_config(model_dir), config, batch_tokens)
        kind, _, index = device.partition(":")
        self.threads = config.threads if config.threads > 0 else os.cpu_count() or 1
        self.engine = ctranslate2.Translator(
            str(model_dir),
            device=kind,
            device_index=int(index or 0),
            compute_type=COMPUTE_TYPES[config.dtype],
            inter_threads=config.workers,
            intra_threads=self.threads,
        )

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        device: str = "cpu",
        dtype: Dtype = "fp32",
        threads: int = 0,
        batch_tokens: int = 4096,
        long_input: LongInput = "split",
        **decode_options: Any,
    ) -> CTranslate2Translator:
        """Load an exported directory; arguments as ``Translator.load``."""
        if model_dir is None:
            raise ValueError(
                "the ctranslate2 engine needs -m DIR (fanyi export … --to ctranslate2)"
            )
        config = DecodeConfig(dtype=dtype, threads=threads, long_input=long_input, **decode_options)
        if config.sampling:
            raise ValueError("sampling runs on the fanyi engine only")
        return cls(model_dir, config, batch_tokens, device)

    def cross_attention(self, text: str, to: str | None = None) -> AttentionMaps:
        raise ValueError("per-layer attention maps need the fanyi engine (--engine fanyi)")

    def _decode(self, sources: list[list[int]], config: DecodeConfig) -> list[list[Hypothesis]]:
        """Batches of sources that share one length limit, decoded by CTranslate2."""
        limits = [self._limit(len(ids), config) for ids in sources]
        order = sorted(range(len(sources)), key=lambda i: (limits[i], len(sources[i])))
        results: list[list[Hypothesis]] = [[] for _ in sources]
        for batch in token_batches(order, [len(s) for s in sources], self.batch_tokens):
            for group in _split_by(batch, limits):
                tokens = [[self.src_vocab.id_to_piece(i) for i in sources[j]] for j in group]
                found = self.engine.translate_batch(
                    tokens, **self._options(config, limits[group[0]])
                )
                for j, result in zip(group, found, strict=True):
                    results[j] = self._hypotheses(result, config)
        return results

    def _limit(self, length: int, config: DecodeConfig) -> int:
        """fanyi's limit: a·|src| + b tokens before EOS, within the model's positions."""
        limit = int(length * config.max_len_a + config.max_len_b)
        return max(1, min(limit, self.model_config.max_len - 1))

    def _options(self, config: DecodeConfig, limit: int) -> dict[str, Any]:
        pad = self.tgt_vocab.id_to_piece(self.model_config.pad_id)
        return {
            "beam_size": config.beam,
            "num_hypotheses": config.n_best,
            "length_penalty": config.length_penalty,
            "max_decoding_length": limit,
            "min_decoding_length": config.min_len,
            "max_input_length": 0,  # fanyi has already split long sources
            "suppress_sequences": [[pad]],  # as fanyi: padding is never generated
            "return_end_token": True,
            "return_scores": True,
            "return_attention": config.attention,
        }

    def _hypotheses(self, result: Any, config: DecodeConfig) -> list[Hypothesis]:
        """CTranslate2's n-best as fanyi's hypotheses (ids, GNMT score, log P), best first."""
        eos = self.tgt_vocab.id_to_piece(self.model_config.eos_id)
        attention = result.attention if config.attention else [None] * len(result.hypotheses)
        hypotheses = []
        for pieces, score, weights in zip(result.hypotheses, result.scores, attention, strict=True):
            log_prob = score * max(len(pieces), 1) ** config.length_penalty  # undo |Y|^α
            words = pieces[:-1] if pieces and pieces[-1] == eos else pieces
            ids = [self.tgt_vocab.piece_to_id(p) for p in words]
            hypotheses.append(finish(ids, log_prob, config.length_penalty, _tensor(weights)))
        return sorted(hypotheses, key=lambda h: h.score, reverse=True)


def _split_by(batch: list[int], limits: list[int]) -> list[list[int]]:
    """``batch`` cut into runs of equal limit (it is sorted by limit)."""
    groups: list[list[int]] = []
    for i in batch:
        if groups and limits[groups[-1][0]] == limits[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _tensor(weights: Any) -> Any:
    import torch

    return None if weights is None else torch.tensor(weights)

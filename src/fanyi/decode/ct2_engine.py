"""The CTranslate2 engine: fanyi's Translator with its search run by CTranslate2.

``fanyi export MODEL --format ctranslate2 -o DIR`` writes DIR with fanyi's configs and vocabularies
beside CTranslate2's files; this Translator reads text exactly as the fanyi engine does
(normalisation, language tags, sentence splitting, batching, detokenisation) and hands the
pieces to ``ctranslate2.Translator.translate_batch``.

The search is fanyi's: beams ranked by log-probability, EOS candidates among the first k set
aside, a source done once k hypotheses are finished, which GNMT's penalty then ranks. CTranslate2
divides by |Y|^α instead of GNMT's ((5 + |Y|) / 6)^α, and with α = 0 it stops as soon as its best
candidate ends; so it is asked for its k finished hypotheses with a vanishing α (which selects the
k-finished rule and leaves log-probabilities as they are), and fanyi ranks them. One difference
remains: a hypothesis that reaches its length limit ends there without EOS, where fanyi forces EOS
and counts its probability. Per-layer attention maps (``plot attention``) need the fanyi engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from ..data.batching import token_batches
from ..device import resolve_device
from ..ensemble_dir import ensemble_members
from ..filenames import CONFIG_FILE, CT2_MODEL_FILE
from ..interop.ct2_native import ct2_variables, native_checkpoint
from ..sections import read_config
from .config import DecodeConfig, model_decode_config, with_options
from .hypothesis import Hypothesis, StepHook, finish, no_pause
from .translation import AttentionMaps
from .translator import Translator

# default: as exported (fanyi export --dtype chose it), which auto keeps too
COMPUTE_TYPES = {"auto": "default", "fp32": "default", "bf16": "bfloat16", "int8": "int8"}
RAW_RANKING = 1e-9  # a length penalty > 0 that leaves CTranslate2's scores log-probabilities


class CTranslate2Translator(Translator):
    """A CTranslate2 model directory exported by fanyi, translating like ``Translator``."""

    def __init__(
        self,
        model_dir: str | Path,
        config: DecodeConfig,
        batch_tokens: int = 4096,
        device: str | torch.device = "cpu",
    ) -> None:
        import ctranslate2

        model_dir = Path(model_dir)
        if not (model_dir / CT2_MODEL_FILE).is_file():
            raise FileNotFoundError(
                f"{model_dir} is not a CTranslate2 model: export one with "
                "fanyi export MODEL --format ctranslate2 -o DIR"
            )
        variables = ct2_variables(model_dir)  # a truncated model.bin: one clear line
        exported = (model_dir / CONFIG_FILE).is_file()  # else CTranslate2's own converter's
        checkpoint = read_config(model_dir) if exported else native_checkpoint(model_dir, variables)
        self._init_text(checkpoint, config, batch_tokens)
        # CTranslate2's MarianMT conversion drops <pad> from the vocabulary: it is never generated
        self.suppressed = (
            [[self.tgt_vocab.id_to_piece(checkpoint.model.pad_id)]] if exported else []
        )
        on = resolve_device(device)  # auto, a device this machine lacks: as the fanyi engine
        if config.sampling and config.seed is not None:  # CTranslate2 seeds its workers at start:
            ctranslate2.set_random_seed(config.seed)  # a translator loaded with it draws alike
        self.engine = ctranslate2.Translator(
            str(model_dir),
            device=on.type,
            device_index=on.index or 0,
            compute_type=compute_type(config.dtype, on.type),
            inter_threads=config.workers,
            intra_threads=torch.get_num_threads(),  # the entry point's choice (fanyi.runtime)
        )

    @classmethod
    def load(
        cls,
        model_dir: str | Path | None = None,
        config: DecodeConfig | None = None,
        device: str | torch.device = "cpu",
        batch_tokens: int = 4096,
        **options: Any,
    ) -> CTranslate2Translator:
        """Load an exported directory; arguments as ``Translator.load``."""
        if model_dir is None:
            raise ValueError(
                "the ctranslate2 engine needs -m DIR (fanyi export … --format ctranslate2)"
            )
        if ensemble_members(model_dir) is not None:
            raise ValueError(
                f"{model_dir} is an ensemble: the ctranslate2 engine decodes one model (export "
                "one member, or use --engine fanyi)"
            )
        if config is None:  # the model's own defaults, where its configs are there to read
            exported = Path(model_dir) / CONFIG_FILE
            config = (
                model_decode_config(read_config(exported.parent)) if exported.is_file() else None
            )
        config = with_options(config or DecodeConfig(), options)
        return cls(model_dir, config, batch_tokens, device)

    def cross_attention(self, text: str, to: str | None = None) -> AttentionMaps:
        raise ValueError("per-layer attention maps need the fanyi engine (--engine fanyi)")

    def _decode(
        self, sources: list[list[int]], config: DecodeConfig, between_steps: StepHook
    ) -> list[list[Hypothesis]]:
        """Batches of sources that share one length limit, decoded by CTranslate2 (which searches
        a whole batch at once: ``between_steps`` runs between batches)."""
        limits = [self._limit(len(ids), config) for ids in sources]
        order = sorted(range(len(sources)), key=lambda i: (limits[i], len(sources[i])))
        results: list[list[Hypothesis]] = [[] for _ in sources]
        for batch in token_batches(order, [len(s) for s in sources], self.batch_tokens):
            for group in _split_by(batch, limits):
                between_steps()
                tokens = [[self.src_vocab.id_to_piece(i) for i in sources[j]] for j in group]
                found = self.engine.translate_batch(
                    tokens, **self._options(config, limits[group[0]])
                )
                for j, result in zip(group, found, strict=True):
                    results[j] = self._hypotheses(result, config)
        return results

    def _log_likelihoods(
        self,
        sources: list[list[int]],
        targets: list[list[int]],
        between_batches: StepHook = no_pause,
    ) -> list[float]:
        """log P(target, EOS | source) of each pair, by CTranslate2's ``score_batch`` (one call:
        ``between_batches`` runs once, before it)."""
        between_batches()
        results = self.engine.score_batch(
            [self._pieces(self.src_vocab, ids) for ids in sources],
            [self._pieces(self.tgt_vocab, ids) for ids in targets],
            max_batch_size=self.batch_tokens,
            batch_type="tokens",
        )
        return [sum(result.log_probs) for result in results]

    def _limit(self, length: int, config: DecodeConfig) -> int:
        """fanyi's limit: a·|src| + b tokens before EOS, within the model's positions."""
        limit = int(length * config.max_len_a + config.max_len_b)
        return max(1, min(limit, self.model_config.max_len - 1))

    def _options(self, config: DecodeConfig, limit: int) -> dict[str, Any]:
        """translate_batch's options for fanyi's ``config``: its search, or its sampling (one
        path a sample, ``n_best`` samples; top-k 0 and top-p 1 are the whole vocabulary in both)."""
        search: dict[str, Any] = {"beam_size": config.beam, "num_hypotheses": config.beam}
        if config.sampling:
            search = {
                "beam_size": 1,
                "num_hypotheses": config.n_best,
                "sampling_topk": config.top_k,
                "sampling_topp": config.top_p,
                "sampling_temperature": config.temperature,
            }
        return search | {
            "length_penalty": RAW_RANKING,
            "max_decoding_length": limit,
            "min_decoding_length": min(config.min_len, limit),  # the limit first, as fanyi's
            "max_input_length": 0,  # fanyi's pieces fit the model already
            "suppress_sequences": self.suppressed,  # as fanyi: padding is never generated
            "return_end_token": True,
            "return_scores": True,
            "return_attention": config.attention,
            "repetition_penalty": config.repetition_penalty,
            "no_repeat_ngram_size": config.no_repeat_ngram_size,
        }

    def _hypotheses(self, result: Any, config: DecodeConfig) -> list[Hypothesis]:
        """CTranslate2's finished hypotheses as fanyi's n-best (ids, GNMT score, log P)."""
        eos = self.tgt_vocab.id_to_piece(self.model_config.eos_id)
        attention = result.attention if config.attention else [None] * len(result.hypotheses)
        hypotheses = []
        for pieces, score, weights in zip(result.hypotheses, result.scores, attention, strict=True):
            log_prob = score * max(len(pieces), 1) ** RAW_RANKING
            words = pieces[:-1] if pieces and pieces[-1] == eos else pieces
            ids = [self.tgt_vocab.piece_to_id(p) for p in words]
            hypotheses.append(finish(ids, log_prob, config.length_penalty, _tensor(weights)))
        return sorted(hypotheses, key=lambda h: h.score, reverse=True)[: config.n_best]


def compute_type(dtype: str, device: str) -> str:
    """CTranslate2's compute type for ``--dtype`` on ``device``, where its kernels exist there."""
    import ctranslate2

    wanted = COMPUTE_TYPES[dtype]
    supported = ctranslate2.get_supported_compute_types(device)
    if wanted != "default" and wanted not in supported:
        raise ValueError(
            f"--dtype {dtype}: CTranslate2 has no {wanted} kernels on this {device} (it has "
            f"{', '.join(sorted(supported))}); use --dtype fp32 (the exported type) or int8"
        )
    return wanted


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
    """CTranslate2's attention weights (lists, on the host) as a tensor there."""
    return None if weights is None else torch.tensor(weights, device="cpu")

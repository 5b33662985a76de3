"""The CTranslate2 engine: a directory written by ``fanyi export --format ctranslate2`` (or by
CTranslate2's own converters, ``ct2_native.py``), searched by ``ctranslate2.Translator``.

The text side is the ``Translator``'s, as with every engine (normalisation, language tags,
sentence splitting, batching, detokenisation); this engine hands the pieces to
``translate_batch`` and ``score_batch``.

The search is fanyi's: beams ranked by log-probability, EOS candidates among the first k set
aside, a source done once k hypotheses are finished, which GNMT's penalty then ranks. CTranslate2
divides by |Y|^α instead of GNMT's ((5 + |Y|) / 6)^α, and with α = 0 it stops as soon as its best
candidate ends; so it is asked for its k finished hypotheses with a vanishing α (which selects the
k-finished rule and leaves log-probabilities as they are), and fanyi ranks them. One difference
remains: a hypothesis that reaches its length limit ends there without EOS, where fanyi forces EOS
and counts its probability. ``dtype: auto`` decodes in the exported type (``fanyi export
--dtype`` chose it; a model's ``auto_dtypes`` are the fanyi engine's timings). What it cannot do
it refuses by name: ``compile`` (fanyi's compiled steps), per-layer attention maps. One search
option it leaves out instead: ``max_repeat_run``, which reads each piece's characters at every
step, where ``translate_batch`` takes no per-step rule. It is on by default, so refusing it
would refuse every call (docs/decoding.md, Repetition).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from ..data.batching import token_batches
from ..decode.constraints import Spellings
from ..decode.finished import best_first
from ..decode.hypothesis import Hypothesis, StepHook, finish, no_pause
from ..decode.options import Dtype, LoadOptions, SearchOptions
from ..device import resolve_device
from ..ensemble_dir import ensemble_members
from ..filenames import CONFIG_FILE, CT2_MODEL_FILE
from ..interop.ct2_native import ct2_variables, native_checkpoint
from ..sections import Checkpoint, read_config

# default: as exported (fanyi export --dtype chose it), which auto keeps too
COMPUTE_TYPES = {"auto": "default", "fp32": "default", "bf16": "bfloat16", "int8": "int8"}
RAW_RANKING = 1e-9  # a length penalty > 0 that leaves CTranslate2's scores log-probabilities


class CTranslate2Engine:
    """A CTranslate2 model directory, decoding and scoring like fanyi's engine."""

    name = "ctranslate2"
    lexical_constraints = False  # translate_batch holds no phrases

    def __init__(
        self, model_dir: Path, checkpoint: Checkpoint, options: LoadOptions, limit_step: int = 1
    ) -> None:
        import ctranslate2

        if options.compile:
            raise ValueError("compile: the ctranslate2 engine runs CTranslate2's own kernels")
        self.checkpoint, self.options = checkpoint, options
        # a source's length limit rounded up to a multiple of this: sources of one rounded limit
        # share a translate_batch call (1: fanyi's limit exactly, a call per limit)
        self.limit_step = limit_step
        self.src_vocab, self.tgt_vocab = checkpoint.vocabularies()
        exported = (model_dir / CONFIG_FILE).is_file()  # else CTranslate2's own converter's
        # CTranslate2's MarianMT conversion drops <pad> from the vocabulary: it is never generated
        pad = self.tgt_vocab.id_to_piece(checkpoint.model.pad_id)
        self.suppressed = [[pad]] if exported else []
        self._pieces_of: dict[tuple[int, ...], list[str]] = {}  # suppressed ids → their pieces
        on = resolve_device(options.device)  # auto, a device this machine lacks: as fanyi's
        self.translator = ctranslate2.Translator(
            str(model_dir),
            device=on.type,
            device_index=on.index or 0,
            compute_type=compute_type(options.dtype, on.type),
            inter_threads=options.workers,
            intra_threads=options.threads or torch.get_num_threads(),
        )

    @classmethod
    def load(cls, path: Path, options: LoadOptions, search: SearchOptions) -> CTranslate2Engine:
        """The exported model of ``path`` (``search``: its sampling seed, which CTranslate2 sets
        for its workers when they start)."""
        import ctranslate2

        if ensemble_members(path) is not None:
            raise ValueError(
                f"{path} is an ensemble: the ctranslate2 engine decodes one model (export "
                "one member, or use --engine fanyi)"
            )
        if not (path / CT2_MODEL_FILE).is_file():
            raise FileNotFoundError(
                f"{path} is not a CTranslate2 model: export one with "
                "fanyi export MODEL --format ctranslate2 -o DIR"
            )
        variables = ct2_variables(path)  # a truncated model.bin: one clear line
        exported = (path / CONFIG_FILE).is_file()
        checkpoint = read_config(path) if exported else native_checkpoint(path, variables)
        if search.sampling and search.seed is not None:
            ctranslate2.set_random_seed(search.seed)  # a translator loaded with it draws alike
        return cls(path, checkpoint, options)

    def with_dtype(self, dtype: Dtype) -> CTranslate2Engine:
        """Itself in its own dtype; another is refused: CTranslate2 decodes in the type
        ``fanyi export --dtype`` chose, and a model's ``auto_dtypes`` are the fanyi engine's."""
        if dtype == self.options.dtype:
            return self
        raise ValueError(
            f"dtype {dtype}: the ctranslate2 engine decodes in the exported type; compare dtypes "
            "on the fanyi engine (--engine fanyi)"
        )

    def decode(
        self,
        sources: list[list[int]],
        options: SearchOptions,
        between_steps: StepHook = no_pause,
        prefixes: list[list[int]] | None = None,
        constraints: list[list[Spellings]] | None = None,
    ) -> list[list[Hypothesis]]:
        """Batches of sources that share one length limit, decoded by CTranslate2 (which searches
        a whole batch at once: ``between_steps`` runs between batches), each through its target
        prefix (``translate_batch(target_prefix=...)``); CTranslate2 has no lexical
        constraints."""
        if constraints and any(constraints):
            raise ValueError("the ctranslate2 engine has no constraints: use --engine fanyi")
        prefixes = prefixes or [[] for _ in sources]
        limits = [
            self.rounded(self.limit(len(ids), options, len(p)))
            for ids, p in zip(sources, prefixes, strict=True)
        ]
        # a call's sources share a limit and a prefix length: CTranslate2 searches a source
        # without a target prefix otherwise beside one with
        calls = [(limit, len(p)) for limit, p in zip(limits, prefixes, strict=True)]
        order = sorted(range(len(sources)), key=lambda i: (calls[i], len(sources[i])))
        results: list[list[Hypothesis]] = [[] for _ in sources]
        lengths = [len(s) for s in sources]
        for batch in token_batches(order, lengths, self.options.batch_tokens):
            for group in _split_by(batch, calls):
                between_steps()
                part = [sources[j] for j in group], [prefixes[j] for j in group]
                found = self._translate(*part, options, limits[group[0]])
                for j, hypotheses in zip(group, found, strict=True):
                    results[j] = hypotheses
        return results

    def _translate(
        self,
        sources: list[list[int]],
        prefixes: list[list[int]],
        options: SearchOptions,
        limit: int,
    ) -> list[list[Hypothesis]]:
        """One ``translate_batch`` call. CTranslate2 leaves the target prefix out of its scores
        (it feeds the prefix, then searches); fanyi's log P counts it, as teacher forcing does,
        so the prefix's log-probability (``score_batch``) is added back."""
        tokens = [_pieces(self.src_vocab, ids) for ids in sources]
        search = self._search(options, limit)
        own = {i for p in prefixes for i in p}  # a target prefix's pieces are never refused
        refused = self._refused(options.suppress_ids, own)
        search["suppress_sequences"] = self.suppressed + refused
        forced = [0.0] * len(sources)
        if any(prefixes):
            search["target_prefix"] = [_pieces(self.tgt_vocab, p) for p in prefixes]
            scored = self.translator.score_batch(tokens, search["target_prefix"])
            forced = [sum(r.log_probs[: len(p)]) for r, p in zip(scored, prefixes, strict=True)]
        found = self.translator.translate_batch(tokens, **search)
        hypotheses = [  # all that CTranslate2 returns, best first
            best_first(hyps, len(hyps))
            for hyps in map(self._hypotheses, found, [options] * len(found), forced)
        ]
        if refused and not options.allowed_softmax:  # the n-best only (allowed_softmax's
            # scores are CTranslate2's own: normalised over the pieces it may choose)
            best = [hyps[: options.n_best] for hyps in hypotheses]
            hypotheses = self._rescored(tokens, best, options.length_penalty)
        if options.script_penalty > 0 and options.penalized_ids:
            hypotheses = [_penalised(hyps, options, own) for hyps in hypotheses]
        return [best_first(hyps, options.n_best) for hyps in hypotheses]

    def _refused(self, suppressed: list[int], own: set[int]) -> list[list[str]]:
        """The pieces of ``suppressed`` (but ``own``) as ``suppress_sequences``: a language's
        foreign pieces are thousands, so their pieces are looked up once, not every batch."""
        key = tuple(suppressed)
        if key not in self._pieces_of:
            self._pieces_of[key] = [self.tgt_vocab.id_to_piece(i) for i in key]
        pieces = zip(key, self._pieces_of[key], strict=True)
        return [[piece] for i, piece in pieces if i not in own]

    def _rescored(
        self, sources: list[list[str]], found: list[list[Hypothesis]], alpha: float
    ) -> list[list[Hypothesis]]:
        """``found`` with the model's own log P (one ``score_batch``): CTranslate2 suppresses
        pieces before its softmax, so its scores share their mass out; fanyi's do not."""
        pairs = [(source, h) for source, hyps in zip(sources, found, strict=True) for h in hyps]
        scored = iter(
            self.translator.score_batch(
                [source for source, _ in pairs],
                [_pieces(self.tgt_vocab, h.tokens) for _, h in pairs],
                max_batch_size=self.options.batch_tokens,
                batch_type="tokens",
            )
        )
        return [
            [finish(h.tokens, sum(next(scored).log_probs), alpha, h.attention) for h in hyps]
            for hyps in found
        ]

    def log_likelihoods(
        self,
        sources: list[list[int]],
        targets: list[list[int]],
        between_batches: StepHook = no_pause,
    ) -> list[float]:
        """log P(target, EOS | source) of each pair, by CTranslate2's ``score_batch`` (one call:
        ``between_batches`` runs once, before it)."""
        between_batches()
        results = self.translator.score_batch(
            [_pieces(self.src_vocab, ids) for ids in sources],
            [_pieces(self.tgt_vocab, ids) for ids in targets],
            max_batch_size=self.options.batch_tokens,
            batch_type="tokens",
        )
        return [sum(result.log_probs) for result in results]

    def cross_attention(self, source: list[int], target: list[int]) -> Tensor:
        raise ValueError("per-layer attention maps need the fanyi engine (--engine fanyi)")

    def limit(self, length: int, options: SearchOptions, prefix: int = 0) -> int:
        """fanyi's limit: a·|src| + b tokens before EOS, at least the target prefix's, within
        the model's positions."""
        limit = max(int(length * options.max_len_a + options.max_len_b), prefix)
        return max(1, min(limit, self.checkpoint.model.max_len - 1))

    def rounded(self, limit: int) -> int:
        """``limit`` rounded up to a multiple of ``limit_step``, within the model's positions."""
        step = self.limit_step
        return min(-(-limit // step) * step, max(limit, self.checkpoint.model.max_len - 1))

    def _search(self, options: SearchOptions, limit: int) -> dict[str, Any]:
        """translate_batch's options for fanyi's ``config``: its search, or its sampling (one
        path a sample, ``n_best`` samples; top-k 0 and top-p 1 are the whole vocabulary in both)."""
        search: dict[str, Any] = {"beam_size": options.beam, "num_hypotheses": options.beam}
        if options.sampling:
            search = {
                "beam_size": 1,
                "num_hypotheses": options.n_best,
                "sampling_topk": options.top_k,
                "sampling_topp": options.top_p,
                "sampling_temperature": options.temperature,
            }
        return search | {
            "length_penalty": RAW_RANKING,
            "max_decoding_length": limit,
            "min_decoding_length": min(options.min_len, limit),  # the limit first, as fanyi's
            "max_input_length": 0,  # fanyi's pieces fit the model already
            "suppress_sequences": self.suppressed,  # as fanyi: padding is never generated
            "return_end_token": True,
            "return_scores": True,
            "return_attention": options.attention,
            "repetition_penalty": options.repetition_penalty,
            "no_repeat_ngram_size": options.no_repeat_ngram_size,
        }

    def _hypotheses(self, result: Any, options: SearchOptions, prefix: float) -> list[Hypothesis]:
        """CTranslate2's finished hypotheses as fanyi's n-best (ids, GNMT score, log P, the
        target prefix's ``prefix`` included)."""
        eos = self.tgt_vocab.id_to_piece(self.checkpoint.model.eos_id)
        attention = result.attention if options.attention else [None] * len(result.hypotheses)
        hypotheses = []
        for pieces, score, weights in zip(result.hypotheses, result.scores, attention, strict=True):
            log_prob = score * max(len(pieces), 1) ** RAW_RANKING + prefix
            words = pieces[:-1] if pieces and pieces[-1] == eos else pieces
            ids = [self.tgt_vocab.piece_to_id(p) for p in words]
            hypotheses.append(finish(ids, log_prob, options.length_penalty, _tensor(weights)))
        return hypotheses


def _penalised(
    hypotheses: list[Hypothesis], options: SearchOptions, own: set[int]
) -> list[Hypothesis]:
    """``hypotheses`` with β (``script_penalty``) taken from log P for each penalised piece not
    in the target prefix (``own``). CTranslate2 has no per-piece bias, so the beam's finished
    hypotheses are rescored, not the search steered."""
    penalized, beta = set(options.penalized_ids) - own, options.script_penalty
    return [
        finish(
            h.tokens,
            h.log_prob - beta * sum(i in penalized for i in h.tokens),
            options.length_penalty,
            h.attention,
        )
        for h in hypotheses
    ]


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


def _split_by(batch: list[int], limits: list[tuple[int, int]]) -> list[list[int]]:
    """``batch`` cut into runs of equal limit and prefix length (it is sorted by them)."""
    groups: list[list[int]] = []
    for i in batch:
        if groups and limits[groups[-1][0]] == limits[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _pieces(vocab: Any, ids: list[int]) -> list[str]:
    return [vocab.id_to_piece(i) for i in ids]


def _tensor(weights: Any) -> Any:
    """CTranslate2's attention weights (lists, on the host) as a tensor there."""
    return None if weights is None else torch.tensor(weights, device="cpu")

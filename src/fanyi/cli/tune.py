"""``fanyi tune -m MODEL --data DIR [--alphas 0.6,1.0,1.4,2.0] [--rerank-weights 0,0.2,1]
[--script-penalties 0,0.5,1] [--per-target] [--dtypes] [--write]``: choose the length penalty α
on the dev split, print each α's BLEU, brevity penalty and length ratio per direction
(``--per-target``: also the best α into each language, among those whose output is long enough),
and with ``--write`` store the best α in the model's ``config.yaml`` (section ``decode``), where
``fanyi translate``, ``evaluate``, ``serve`` and ``Translator.load`` take their defaults from.
``--rerank-weights`` then scores reranking by the backward score with each weight λ
(bidirectional models) and keeps the best as ``rerank_backward`` (with ``--per-target``, also the
best λ into each language); ``--script-penalties`` then scores each β of ``script_penalty`` (what
each piece in the other language's script costs: an English word left in Chinese) and keeps the
best. ``--dtypes`` then scores fp32, bf16 and int8 with those and stores the dtypes within 0.3
BLEU of fp32 in every direction as ``auto_dtypes``: those ``--dtype auto`` (the default) may
pick. Tuning decodes in fp32 unless ``--dtype`` says otherwise, so that its choice does not
depend on the host.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import TYPE_CHECKING

from .flags import switch
from .translate import add_model_arguments, load_translator

if TYPE_CHECKING:
    from ..decode.options import SearchOptions
    from ..translate.translator import Translator
    from ..tune import DtypeTrial, Trial


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="choose the length penalty on the dev split (and store it in the model)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_model_arguments(parser)
    parser.add_argument("--data", metavar="DIR", required=True, help="a fanyi prepare directory")
    parser.add_argument("--split", default="dev", help="its split to tune on (default dev)")
    parser.add_argument(
        "--alphas",
        type=_weights,
        default=[0.6, 1.0, 1.4, 2.0],
        help="length penalties to try, comma-separated (default 0.6,1.0,1.4,2.0)",
    )
    switch(
        parser,
        "--per-target",
        "also choose α (and λ, β) per target language (decode.length_penalty_by_target, "
        "rerank_backward_by_target, script_penalty_by_target)",
    )
    parser.add_argument(
        "--min-length-ratio",
        type=float,
        default=0.0,
        help="with --per-target: the best α among those whose output/reference length reaches "
        "this (e.g. 0.96)",
    )
    for flag, what in (
        ("--rerank-weights", "weights λ of decode.rerank_backward to try, e.g. 0,0.3,1"),
        ("--script-penalties", "script penalties β of decode.script_penalty to try, e.g. 0,0.5,1"),
    ):
        parser.add_argument(flag, type=_weights, help=what)
    switch(parser, "--dtypes", "also keep the dtypes within 0.3 BLEU of fp32")
    switch(parser, "--write", "store the choices in the model")
    switch(parser, "--json", "end with one JSON line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..model_dir import write_decode_defaults
    from ..tune import best_per_target, best_trial, tune_length_penalty

    if args.write and args.model is None:
        raise ValueError("--write needs -m DIR: the bundled model is not changed in place")
    args.dtype = args.dtype or "fp32"
    translator = load_translator(args)
    targets = [args.to] if args.to else None
    trials = tune_length_penalty(translator, args.data, args.alphas, args.split, targets)
    for trial in trials:
        print(_row(trial))
    best = best_trial(trials)
    print(f"best α = {best.length_penalty:g} (mean BLEU {best.mean_bleu:.2f} on {args.split})")
    chosen: dict = {"length_penalty": best.length_penalty}
    result = {"split": args.split, "best": best.length_penalty, "trials": _json(trials)}
    if args.per_target:
        by_target = best_per_target(trials, args.min_length_ratio)
        chosen["length_penalty_by_target"] = result["by_target"] = by_target
        print("best α per target: " + ", ".join(f"{k} {v:g}" for k, v in by_target.items()))
    elif translator.options.length_penalty_by_target:  # the model's would rule over the new α
        chosen["length_penalty_by_target"] = {}
    options = dataclasses.replace(translator.options, **chosen)
    for setting in LATER_SETTINGS:
        if getattr(args, setting[0]) is not None:
            found = _choose(translator, options, args, targets, setting)
            chosen.update(found)
            result.update(found)
            options = dataclasses.replace(translator.options, **chosen)
    if args.dtypes:
        chosen["auto_dtypes"] = result["auto_dtypes"] = _dtypes(translator, options, args, targets)
    if args.write:
        write_decode_defaults(args.model, chosen)
        print(f"wrote {', '.join(f'decode.{k}' for k in chosen)} to {args.model}/config.yaml")
    if args.json:
        print(json.dumps(result))
    return 0


def _dtypes(
    translator: Translator,
    options: SearchOptions,
    args: argparse.Namespace,
    targets: list[str] | None,
) -> list[str]:
    """The dtypes within 0.3 BLEU of fp32 with the choices so far (each trial printed)."""
    from ..tune import allowed_dtypes, tune_dtypes

    trials = tune_dtypes(translator, args.data, split=args.split, targets=targets, options=options)
    for trial in trials:
        print(_dtype_row(trial))
    allowed: list[str] = list(allowed_dtypes(trials))
    print(f"auto may pick: {', '.join(allowed)}")
    return allowed


# The settings tuned after α, in order: flag (its values), SearchOptions key, its symbol
LATER_SETTINGS = (
    ("rerank_weights", "rerank_backward", "λ"),
    ("script_penalties", "script_penalty", "β"),
)


def _choose(
    translator: Translator,
    options: SearchOptions,
    args: argparse.Namespace,
    targets: list[str] | None,
    setting: tuple[str, str, str],
) -> dict:
    """The value of ``setting`` (λ or β) of the best mean BLEU with the choices so far (each
    trial printed) and, with ``--per-target``, the best value into each language."""
    from ..tune import best_per_target, best_trial, tune_setting

    flag, key, symbol = setting
    values = getattr(args, flag)
    trials = tune_setting(translator, args.data, key, values, args.split, targets, options)
    for trial in trials:
        print(_row(trial))
    best = getattr(best_trial(trials), key)
    print(f"best {symbol} = {best:g}")
    by_target = {}
    if args.per_target:
        by_target = best_per_target(trials, args.min_length_ratio, key)
        print(f"best {symbol} per target: " + ", ".join(f"{k} {v:g}" for k, v in by_target.items()))
    return {key: best, f"{key}_by_target": by_target}


def _weights(text: str) -> list[float]:
    """Comma-separated numbers ≥ 0: length penalties α or reranking weights λ."""
    try:
        values = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list") from None
    if not values or min(values) < 0:
        raise argparse.ArgumentTypeError("give one or more numbers ≥ 0")
    return values


def _row(trial: Trial) -> str:
    cells = [
        f"→{to} BLEU {s.bleu:5.2f} BP {s.bp:.3f} ratio {s.length_ratio:.3f}"
        for to, s in trial.scores.items()
    ]
    setting = (
        f"α={trial.length_penalty:<4g} "
        + (f"λ={trial.rerank_backward:<4g} " if trial.rerank_backward else "")
        + (f"β={trial.script_penalty:<4g} " if trial.script_penalty else "")
    )
    return setting + " | ".join(cells) + f" | mean {trial.mean_bleu:.2f}"


def _dtype_row(trial: DtypeTrial) -> str:
    cells = [f"→{to} BLEU {s.bleu:5.2f}" for to, s in trial.scores.items()]
    return f"{trial.dtype:<5} " + " | ".join(cells)


def _json(trials: list[Trial]) -> list[dict]:
    return [
        {
            "length_penalty": t.length_penalty,
            "bleu": {to: round(s.bleu, 2) for to, s in t.scores.items()},
            "length_ratio": {to: round(s.length_ratio, 3) for to, s in t.scores.items()},
        }
        for t in trials
    ]

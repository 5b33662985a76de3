"""Translate stdin to stdout with CTranslate2's own Python API, as its documentation shows: the
peer of ``fanyi translate`` in ``end_to_end.py``.

    python benchmarks/ct2_translate.py CT2_DIR --to en < zh.txt > en.txt

CT2_DIR comes from ``fanyi export MODEL --format ctranslate2 -o CT2_DIR``, which puts the
SentencePiece model beside CTranslate2's files. Each line becomes ``<2xx>`` (the target tag),
its SentencePiece pieces and ``</s>``; ``translate_iterable`` batches by tokens (4,096, fanyi's
default) and the best hypothesis is decoded by SentencePiece. No normalisation and no sentence
splitting: what a CTranslate2 user writes, not what fanyi does. ``--preprocess`` normalises each
line first by the export's ``preprocess.py``, as its model card shows.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import ctranslate2
import sentencepiece as spm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="CTranslate2 directory written by fanyi export")
    parser.add_argument("--to", required=True, help="target language tag")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--intra-threads", type=int, default=1)
    parser.add_argument("--inter-threads", type=int, default=1)
    parser.add_argument("--preprocess", action="store_true", help="the export's preprocess.py")
    args = parser.parse_args()
    sp = spm.SentencePieceProcessor(model_file=str(Path(args.model) / "spm.model"))
    translator = ctranslate2.Translator(
        args.model, intra_threads=args.intra_threads, inter_threads=args.inter_threads
    )
    lines = [line.rstrip("\n") for line in sys.stdin]
    if args.preprocess:
        sys.path.insert(0, args.model)
        from preprocess import normalise  # the export's own

        source = "zh" if args.to == "en" else "en"
        lines = [normalise(line, source) for line in lines]
    pieces = ([*sp.encode(f"<2{args.to}> {line}", out_type=str), "</s>"] for line in lines)
    results = translator.translate_iterable(
        pieces, max_batch_size=4096, batch_type="tokens", beam_size=args.beam
    )
    for result in results:
        print(sp.decode(result.hypotheses[0]))


if __name__ == "__main__":
    main()

"""What the preprocessing shipped with an export is worth: a plain CTranslate2 script (no fanyi)
translating raw Chinese test lines, and the same lines after the export's ``preprocess.py``.

Exports MODEL (default: the bundled model's first member) to CTranslate2 float32 in a temporary
directory, reads the first --limit Tatoeba lines of PAIRS (``English<TAB>Chinese<TAB>…``, default
the bundled model's held-out test split as Tatoeba wrote it: tests/fixtures/data/tatoeba-cmn-eng/
bundled-test.txt), translates them zh→en as the model card's code does (beam --beam), and prints
sacreBLEU's BLEU of both against the normalised references. Ends with one JSON line.

    python benchmarks/export_preprocessing.py [MODEL] [--pairs FILE] [--limit 300] [--beam 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import ctranslate2
import sacrebleu
import sentencepiece as spm

from common import emit, machine, read_lines
from fanyi.ensemble_dir import first_member
from fanyi.interop.export_ct2 import export_ctranslate2
from fanyi.translate.model_names import TATOEBA

REPO = Path(__file__).resolve().parents[1]
PAIRS = REPO / "tests" / "fixtures" / "data" / "tatoeba-cmn-eng" / "bundled-test.txt"


def translate(directory: Path, texts: list[str], beam: int) -> list[str]:
    """``texts`` (Chinese) into English as the model card's code translates them."""
    sp = spm.SentencePieceProcessor(model_file=str(directory / "spm.model"))
    translator = ctranslate2.Translator(str(directory), intra_threads=1)
    tokens = [["<2en>", *sp.encode(text, out_type=str), "</s>"] for text in texts]
    return [sp.decode(r.hypotheses[0]) for r in translator.translate_batch(tokens, beam_size=beam)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", nargs="?", default=str(first_member(TATOEBA)))
    parser.add_argument("--pairs", default=str(PAIRS))
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--beam", type=int, default=5)
    args = parser.parse_args()
    rows = [line.split("\t") for line in read_lines(args.pairs, args.limit)]
    with tempfile.TemporaryDirectory() as tmp:
        directory = export_ctranslate2(args.model, Path(tmp) / "ct2")
        sys.path.insert(0, str(directory))
        from preprocess import normalise  # the export's own

        raw = [row[1] for row in rows]
        references = [normalise(row[0], "en") for row in rows]
        normalised = [normalise(text, "zh") for text in raw]
        bleu = {
            name: round(
                sacrebleu.corpus_bleu(translate(directory, texts, args.beam), [references]).score, 2
            )
            for name, texts in (("raw", raw), ("normalised", normalised))
        }
    changed = sum(a != b for a, b in zip(raw, normalised, strict=True))
    print(f"{len(rows)} lines, {changed} changed by preprocess.py; BLEU zh→en, beam {args.beam}: "
          f"raw {bleu['raw']}, normalised {bleu['normalised']}")  # fmt: skip
    emit({"benchmark": "export_preprocessing", "lines": len(rows), "changed": changed,
          "beam": args.beam, "bleu": bleu, "machine": machine()})  # fmt: skip


if __name__ == "__main__":
    main()

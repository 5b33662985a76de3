"""Monolingual news for back-translation (Sennrich, Haddow & Birch 2016, "Improving Neural
Machine Translation Models with Monolingual Data").

``fanyi data news-mono [LOCAL] -o DIR`` collects English news sentences: the English sides of
the WMT news test sets of *other* language pairs (German, Czech, Russian, … ↔ English) from
2008 to 2018, as Helsinki-NLP/OPUS-MT-testsets keeps them. From 2019 on WMT gave every pair
out of English the same English source documents, the en→zh test sets included, so those years
are left out; the zh–en sets themselves are the ``wmt-news`` source. ``fanyi translate`` turns
``DIR/mono.en`` into Chinese, and ``fanyi data back-translated DIR -o OUT`` pairs the two into
``OUT/train.tsv``: synthetic Chinese sources for real English targets, a ``one_way`` corpus of
a data mix (docs/data.md). ``fanyi data forward-translated`` pairs them the other way round:
real English sources for synthetic Chinese targets, a corpus into Chinese only.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

from ...inputs import CONFIG_BYTES, TEXT_BYTES, read_json, read_text
from ...outputs import claim_dir, written_dir
from .repository import Repository, clone, local_source
from .sources import blob_lines, default_branch, write_tsv

NEWS_REPOSITORY = "https://github.com/Helsinki-NLP/OPUS-MT-testsets"
NEWS_GLOB = "testsets/*/news*.eng"
LAST_YEAR = 2018  # from 2019 every en→X pair shares its English source with en→zh's tests
OWN_PAIRS = ("zho-eng", "eng-zho")  # the wmt-news source: parallel, dev and test
NEWS_TERMS = "WMT test sets: research use (WMT terms of use); cite the WMT findings"
TEXT, ORIGIN = {"en": "mono.en", "zh": "mono.zh"}, "mono.origin"  # one sentence a line each
OTHER = {"en": "zh", "zh": "en"}
LEIPZIG_REPOSITORY = "https://github.com/ekong5/comp_syntax_p1"
LEIPZIG_FILE = "zho_news_2020_10K-sentences.txt"  # Leipzig Corpora Collection: N<TAB>sentence
LEIPZIG_TERMS = (
    "Leipzig Corpora Collection download corpora: CC BY (credit the Leipzig Corpora Collection, "
    "Goldhahn, Quasthoff & Heyer 2012)"
)


def news_files(repo: Repository, commit: str) -> list[tuple[str, str]]:
    """(path, blob) of every English news test file of another pair, 2008-2018."""
    found = []
    for path, blob in repo.files(commit, NEWS_GLOB):
        year = re.search(r"(20\d\d)", path.rsplit("/", 1)[-1])
        pair = path.split("/")[1]
        if year and int(year.group(1)) <= LAST_YEAR and pair not in OWN_PAIRS:
            found.append((path, blob))
    return found


def read_news_english(repo: Repository, commit: str) -> tuple[list[tuple[str, str]], dict]:
    """(sentence, origin) of each distinct English sentence, in file order, and a report."""
    sentences: dict[str, str] = {}
    files = news_files(repo, commit)
    contents = repo.read([blob for _, blob in files])
    missing, lines = [], 0
    for (path, _), (_, data) in zip(files, contents, strict=True):
        if data is None:  # a snapshot leaves out its largest files
            missing.append(path)
            continue
        for n, line in enumerate(data.decode("utf-8").splitlines(), 1):
            text = " ".join(line.split())
            lines += bool(text)
            if text:
                sentences.setdefault(text, f"{path}:{n}")
    report = {"files": len(files) - len(missing), "lines": lines, "sentences": len(sentences)}
    return list(sentences.items()), report | {
        "duplicates": lines - len(sentences),
        "missing_files": missing,
    }


def build_news_mono(
    out: str | Path,
    local: str | Path | None = None,
    cache: Path | None = None,
    overwrite: bool = False,
) -> int:
    """Write ``out/mono.en`` (one sentence a line), ``mono.origin`` (file:line of each),
    ``report.json`` and ``PROVENANCE.md`` from ``local`` or a clone (over a folder fanyi wrote
    only with ``overwrite``); sentences written."""
    out = claim_dir(out, overwrite)
    cached = Path(cache or ".") / "news.git"
    path = local_source(local) if local else clone(f"{NEWS_REPOSITORY}.git", cached)
    repo = Repository(path)
    branch, commit = default_branch(repo, r"master|main")
    sentences, report = read_news_english(repo, commit)
    if not sentences:
        raise ValueError(f"{path}: no English news test file ({NEWS_GLOB}) up to {LAST_YEAR}")
    provenance = (
        f"# news-mono\n\nEnglish sides of the WMT news test sets of other language pairs, "
        f"2008-{LAST_YEAR}, for back-translation.\n\n- Upstream: {NEWS_REPOSITORY}\n"
        f"- Licence: {NEWS_TERMS}\n- Read from: `{path}` (`{branch}` at `{commit or 'unversioned'}`)"
        f" on {date.today().isoformat()}\n- `mono.origin` names the file and line of each "
        f"sentence.\n"
    )
    _write_mono(out, dict(sentences), "en", {"source": "news-mono", **report}, provenance)
    return len(sentences)


def build_leipzig_mono(
    out: str | Path,
    local: str | Path | None = None,
    cache: Path | None = None,
    overwrite: bool = False,
) -> int:
    """Write ``out/mono.zh`` (Chinese news sentences of the Leipzig Corpora Collection's 2020
    10K sample, each distinct one once), ``mono.origin``, ``report.json`` (``language: zh``) and
    ``PROVENANCE.md`` from ``local`` or a clone; sentences written. Translated into English
    (``out/mono.en``), they pair as real Chinese targets (``fanyi data back-translated``); over
    a folder fanyi wrote only with ``overwrite``."""
    out = claim_dir(out, overwrite)
    cached = Path(cache or ".") / "lz"
    path = local_source(local) if local else clone(f"{LEIPZIG_REPOSITORY}.git", cached)
    repo = Repository(path)
    branch, commit = default_branch(repo, r"main|master")
    blob = dict(repo.files(commit, LEIPZIG_FILE)).get(LEIPZIG_FILE)
    if blob is None:
        raise ValueError(f"{path}: {LEIPZIG_FILE} not found")
    sentences: dict[str, str] = {}
    for n, line in enumerate(blob_lines(repo, blob, LEIPZIG_FILE), 1):
        text = " ".join(line.split("\t", 1)[-1].split())
        if text:
            sentences.setdefault(text, f"{LEIPZIG_FILE}:{n}")
    provenance = (
        f"# leipzig-news\n\nChinese news sentences (2020, a 10K sample of the Leipzig Corpora "
        f"Collection), for back-translation.\n\n- Upstream: {LEIPZIG_REPOSITORY} "
        f"(`{LEIPZIG_FILE}`)\n- Licence: {LEIPZIG_TERMS}\n- Read from: `{path}` (`{branch}` at "
        f"`{commit or 'unversioned'}`) on {date.today().isoformat()}\n"
    )
    report = {"source": "leipzig-news", "language": "zh", "sentences": len(sentences)}
    if not sentences:
        raise ValueError(f"{path}: {LEIPZIG_FILE} holds no sentence")
    _write_mono(out, sentences, "zh", report, provenance)
    return len(sentences)


def _write_mono(
    out: Path, sentences: dict[str, str], language: str, report: dict, provenance: str
) -> None:
    """``out/mono.LANGUAGE`` and ``mono.origin`` from ``sentences`` (text: origin), beside
    ``report.json`` and ``PROVENANCE.md``, published whole."""
    with written_dir(out) as folder:
        _write_lines(folder / TEXT[language], list(sentences))
        _write_lines(folder / ORIGIN, list(sentences.values()))
        (folder / "report.json").write_text(json.dumps(report, indent=2) + "\n")
        (folder / "PROVENANCE.md").write_text(provenance, encoding="utf-8")


USES = {  # how a translated corpus is used: its name, and what each language's original teaches
    "back": (
        "back-translated",
        {
            "en": "synthetic Chinese sources for real English targets",
            "zh": "synthetic English sources for real Chinese targets",
        },
    ),
    "forward": (
        "forward-translated",
        {
            "en": "real English sources for synthetic Chinese targets (forward translation, or "
            "self-training: Zhang & Zong 2016)",
            "zh": "real Chinese sources for synthetic English targets (forward translation)",
        },
    ),
}
LANGUAGES = {"en": "English", "zh": "Chinese"}


def pair_translations(
    mono: str | Path,
    out: str | Path,
    translations: str | Path | None,
    model: str,
    use: str = "back",
    overwrite: bool = False,
) -> dict[str, int]:
    """Pair the monolingual sentences of ``mono`` (``mono.en``, or ``mono.zh`` where its
    ``report.json`` says ``language: zh``) with their translation (``translations``, default the
    other language's file) into ``out/train.tsv`` (English, Chinese, origin); empty translations
    are dropped. ``use`` (``USES``) says which side teaches: the real text as a target (back) or
    as a source (forward). Counts of pairs written and dropped; ``out`` is replaced only when
    fanyi wrote it and ``overwrite`` is given."""
    out, mono = claim_dir(out, overwrite), local_source(mono)
    language = _language(mono / "report.json")
    real = mono / TEXT[language]
    originals, origins = _read_lines(real), _read_lines(mono / ORIGIN)
    translated = _read_lines(Path(translations or mono / TEXT[OTHER[language]]))
    if not len(originals) == len(origins) == len(translated):
        raise ValueError(
            f"{mono}: {len(originals)} sentences, {len(origins)} origins, "
            f"{len(translated)} translations"
        )
    name = USES[use][0]
    rows = []
    for text, machine, origin in zip(originals, translated, origins, strict=True):
        if machine.strip():
            english, chinese = (text, machine) if language == "en" else (machine, text)
            rows.append((english, chinese, f"{origin} {name} by {model}"))
    counts = {"pairs": len(rows), "empty_translation": len(originals) - len(rows)}
    with written_dir(out) as folder:
        write_tsv(folder / "train.tsv", rows)
        _describe(folder, real, (use, language), model, counts)
    return counts


def _language(report: Path) -> str:
    """The language of the real sentences a ``report.json`` of news-mono or leipzig-news
    names (English where there is no report)."""
    if not report.exists():
        return "en"
    found = read_json(report, CONFIG_BYTES)
    language = found.get("language", "en") if isinstance(found, dict) else None
    if language not in TEXT:
        raise ValueError(f"{report}: language must be one of {', '.join(TEXT)}")
    return str(language)


def _describe(out: Path, original: Path, how: tuple[str, str], model: str, counts: dict) -> None:
    """``report.json`` and ``PROVENANCE.md`` of a translated corpus: ``how`` is its use and the
    language of its real side; it is a ``one_way`` corpus into the language it teaches."""
    (name, teaches), language = USES[how[0]], how[1]
    into = language if how[0] == "back" else OTHER[language]  # the real side is the target
    (out / "report.json").write_text(
        json.dumps({"source": name, "model": model, "one_way": into, **counts}, indent=2) + "\n"
    )
    (out / "PROVENANCE.md").write_text(
        f"# {name}\n\n`{original}` (see `{original.parent / 'PROVENANCE.md'}`) translated by "
        f"`{model}`: {teaches[language]}. Use it as a `one_way` corpus into "
        f"{LANGUAGES[into]} only. Licence: that of the original text.\n",
        encoding="utf-8",
    )


def _read_lines(path: Path) -> list[str]:
    """The lines of text file ``path`` (a regular file: ``inputs.read_text``)."""
    text = read_text(path, TEXT_BYTES)
    return text.split("\n")[:-1] if text else []


def _write_lines(path: Path, lines: list[str]) -> None:
    """``lines`` into ``path``, one a line (in a folder published whole)."""
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.writelines(f"{line}\n" for line in lines)

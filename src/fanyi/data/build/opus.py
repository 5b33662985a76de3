"""``fanyi data opus CORPUS -o DIR``: a parallel corpus from OPUS (opus.nlpl.eu), as TSV.

The OPUS API answers which files hold a corpus for a language pair; its Moses-format release
is a zip of two line-aligned files (``CORPUS.en-zh.en``, ``CORPUS.en-zh.zh``). The zip is fetched
and checked like every download (:mod:`fanyi.data.build.download`), then written as
``DIR/train.tsv`` (``English<TAB>Chinese<TAB>provenance``, the layout of the other sources), with
``report.json`` and ``PROVENANCE.md``. Each corpus keeps the licence OPUS lists for it: read it
there.
"""

from __future__ import annotations

import json
import tempfile
import urllib.parse
import zipfile
from datetime import date
from pathlib import Path

from ...outputs import claim_dir, written_dir
from .download import DownloadError, RemoteFile, cache_dir, fetch, fetch_url
from .sources import Pair3, write_tsv

API = "https://opus.nlpl.eu/opusapi/"


def release(corpus: str, api: str = API, timeout: float = 60.0) -> dict:
    """The API's entry for the latest Moses release of ``corpus`` in English–Chinese."""
    query = urllib.parse.urlencode(
        {
            "corpus": corpus,
            "source": "en",
            "target": "zh",
            "preprocessing": "moses",
            "version": "latest",
        }
    )
    with tempfile.TemporaryDirectory(prefix="fanyi-opus-") as folder:
        answer = Path(folder) / "corpora.json"
        fetch_url(f"{api}?{query}", answer, timeout)
        try:
            entries = json.loads(answer.read_text(encoding="utf-8"))["corpora"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise DownloadError(f"the OPUS API gave no corpus list for {corpus}") from None
    entries = entries if isinstance(entries, list) else []
    zips = [e for e in entries if isinstance(e, dict) and str(e.get("url", "")).endswith(".zip")]
    if not zips:
        raise DownloadError(f"OPUS has no Moses release of {corpus!r} for en–zh")
    return zips[0]


def read_moses_zip(path: Path, label: str) -> list[Pair3]:
    """The pairs of a Moses zip: its ``*.en`` and ``*.zh`` members, line by line."""
    with zipfile.ZipFile(path) as archive:
        names = {Path(n).suffix: n for n in archive.namelist()}
        if ".en" not in names or ".zh" not in names:
            raise DownloadError(f"{path}: no .en and .zh files in {sorted(archive.namelist())}")
        sides = [archive.read(names[s]).decode("utf-8").splitlines() for s in (".en", ".zh")]
    if len(sides[0]) != len(sides[1]):
        raise DownloadError(f"{path}: {len(sides[0])} English lines, {len(sides[1])} Chinese")
    return [
        (" ".join(en.split()), " ".join(zh.split()), f"{label}:{n}")
        for n, (en, zh) in enumerate(zip(*sides, strict=True), 1)
        if en.strip() and zh.strip()
    ]


def build_opus(
    corpus: str,
    out: str | Path,
    api: str = API,
    cache: Path | None = None,
    overwrite: bool = False,
) -> int:
    """Write OPUS corpus ``corpus`` (en–zh) into folder ``out`` (over one fanyi wrote only with
    ``overwrite``); return the pairs written."""
    out = claim_dir(out, overwrite)
    entry = release(corpus, api)
    version = str(entry.get("version", "latest"))
    remote = RemoteFile(str(entry["url"]), f"{corpus}-{version}.en-zh.zip")
    archive = fetch(remote, (cache or cache_dir()) / "opus")
    pairs = read_moses_zip(archive, f"OPUS {corpus} {version}")
    with written_dir(out) as folder:
        _write_opus(folder, corpus, version, entry, api, pairs)
    return len(pairs)


def _write_opus(
    folder: Path, corpus: str, version: str, entry: dict, api: str, pairs: list[Pair3]
) -> None:
    """``train.tsv``, ``report.json`` and ``PROVENANCE.md`` of OPUS corpus ``corpus``."""
    write_tsv(folder / "train.tsv", pairs)
    report = {"source": f"opus:{corpus}", "version": version, "pairs": {"train": len(pairs)}}
    (folder / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (folder / "PROVENANCE.md").write_text(
        f"# OPUS {corpus} ({version}), English–Chinese\n\n- Upstream: {entry['url']}\n"
        f"- Listed by the OPUS API ({api}) on {date.today().isoformat()}\n"
        f"- Licence: as OPUS lists it for {corpus} (https://opus.nlpl.eu/{corpus}); cite OPUS "
        "(Tiedemann 2012) and the corpus\n- Written by `fanyi data opus`; train only: split "
        "off dev and test, or give other sources' as held_out, in the data config.\n",
        encoding="utf-8",
    )

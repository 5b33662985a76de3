"""Downloads against a local HTTP server: verified, cached, and nothing left when corrupted."""

import gzip
import hashlib
import zipfile

import pytest

from fanyi.cli import main
from fanyi.data.build.download import DownloadError, RemoteFile, Source, cache_dir, download

CONTENT = b"Ein Mann.\nZwei Hunde.\n"
SHA = hashlib.sha256(CONTENT).hexdigest()


def _registry(base, **remote) -> dict[str, Source]:
    return {"toy": Source("toy", "a test corpus", "none", (RemoteFile(**remote),))}


def test_gunzipped_file_verified_then_reused_from_the_cache(server, tmp_path):
    root, base = server
    (root / "train.de.gz").write_bytes(gzip.compress(CONTENT))
    registry = _registry(
        base, url=f"{base}/train.de.gz", name="train.de", unpack="gunzip", unpacked_sha256=SHA
    )
    [path] = download("toy", tmp_path / "cache", registry=registry)
    assert path == tmp_path / "cache" / "toy" / "train.de" and path.read_bytes() == CONTENT
    (root / "train.de.gz").unlink()  # a second call must not need the server
    assert download("toy", tmp_path / "cache", registry=registry) == [path]


@pytest.mark.parametrize(
    "remote",
    [
        {"name": "train.de", "sha256": "0" * 64},  # the bytes do not match
        {"name": "train.de", "unpack": "gunzip", "unpacked_sha256": "0" * 64},
    ],
)
def test_checksum_mismatch_is_a_clear_error_and_leaves_nothing(server, tmp_path, remote):
    root, base = server
    payload = gzip.compress(CONTENT) if remote.get("unpack") else CONTENT
    (root / "file").write_bytes(payload)
    registry = _registry(base, url=f"{base}/file", **remote)
    with pytest.raises(DownloadError, match=r"checksum mismatch.*expected sha256 0000"):
        download("toy", tmp_path / "cache", registry=registry)
    assert list((tmp_path / "cache" / "toy").iterdir()) == []


def test_zip_member_extracted_and_corrupt_zip_refused(server, tmp_path):
    root, base = server
    with zipfile.ZipFile(root / "cmn-eng.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("cmn.txt", CONTENT)
        archive.writestr("_about.txt", "about")
    registry = _registry(
        base, url=f"{base}/cmn-eng.zip", name="cmn.txt", unpack="zip", member="cmn.txt"
    )
    [path] = download("toy", tmp_path / "cache", registry=registry)
    assert path.read_bytes() == CONTENT
    (root / "cmn-eng.zip").write_bytes((root / "cmn-eng.zip").read_bytes()[:60])  # truncated
    with pytest.raises(DownloadError, match="could not unpack"):
        download("toy", tmp_path / "other", registry=registry)
    assert list((tmp_path / "other" / "toy").iterdir()) == []


def test_missing_file_and_unknown_source(server, tmp_path):
    _, base = server
    with pytest.raises(DownloadError, match="404"):
        download("toy", tmp_path, registry=_registry(base, url=f"{base}/absent", name="x"))
    with pytest.raises(ValueError, match="unknown source 'nope'"):
        download("nope", tmp_path)


def test_cache_dir_order(monkeypatch, tmp_path):
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path / "env"))
    assert cache_dir() == tmp_path / "env"
    assert cache_dir(tmp_path / "flag") == tmp_path / "flag"
    monkeypatch.delenv("FANYI_CACHE")
    assert cache_dir().parts[-2:] == (".cache", "fanyi")


def test_cli_download_from_a_mirror_with_a_corrupted_file(server, tmp_path, capsys):
    """The real Multi30k entry, fetched from a local mirror serving wrong bytes."""
    root, base = server
    (root / "train.de.gz").write_bytes(gzip.compress(b"not the real file\n"))
    status = main(
        ["data", "download", "multi30k", "--cache-dir", str(tmp_path / "cache"), "--mirror", base]
    )
    assert status == 2
    assert "checksum mismatch" in capsys.readouterr().err
    assert list((tmp_path / "cache" / "multi30k").iterdir()) == []

"""``fanyi export`` on a full disk: nothing half-written is left under the final name or beside
it, the error names the destination, and a rerun writes the export."""

import errno

import pytest
from safetensors import SafetensorError

from fanyi.cli import main
from fanyi.interop import export_ct2, export_hf
from tiny_translator import tiny_model_dir


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


def full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("form, module", [("ctranslate2", export_ct2), ("huggingface", export_hf)])
def test_a_full_disk_leaves_nothing_and_names_the_destination(
    model_dir, tmp_path, monkeypatch, capsys, form, module
):
    out = tmp_path / "exports" / form
    command = ["export", str(model_dir), "--format", form, "-o", str(out)]
    with monkeypatch.context() as patch:
        patch.setattr(module, "write_model_card", full_disk)  # the weights are written by then
        assert main(command) == 2
    err = capsys.readouterr().err
    assert f"writing {out}: No space left on device" in err and "Traceback" not in err
    assert not out.exists() and list(out.parent.iterdir()) == []  # no model.bin, no temporary
    assert main(command) == 0 and (out / "README.md").is_file()


def test_safetensors_reports_a_full_disk_as_an_os_error(tmp_path):
    def save(directory):
        raise SafetensorError("Error while serializing: I/O error: No space left on device")

    with pytest.raises(OSError, match="No space left on device"):
        export_hf.saved(save, tmp_path)

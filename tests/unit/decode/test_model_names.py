"""``-m NAME`` picks a bundled model by name when no directory of that name is there."""

from pathlib import Path

from fanyi.translate import model_names


def test_a_bundled_name_a_local_directory_and_the_default(tmp_path, monkeypatch):
    bundled = tmp_path / "bundled"
    for name in ("zh-en", "zh-en-general"):
        (bundled / name).mkdir(parents=True)
    monkeypatch.setattr(model_names, "BUNDLED_MODELS", bundled)
    monkeypatch.setattr(model_names, "BUNDLED", bundled / "zh-en-general")
    monkeypatch.chdir(tmp_path)
    assert model_names.resolve_model_dir("zh-en") == bundled / "zh-en"
    assert model_names.resolve_model_dir(None) == bundled / "zh-en-general"
    assert model_names.resolve_model_dir("runs/x") == Path("runs/x")  # a path is never a name
    assert model_names.resolve_model_dir("unknown") == Path("unknown")  # its own error later
    (tmp_path / "zh-en").mkdir()
    assert model_names.resolve_model_dir("zh-en") == Path("zh-en")  # local first

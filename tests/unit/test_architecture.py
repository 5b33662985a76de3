"""The package's shape: layers that import only downward, no import cycles, small files and
functions, and translation that never loads the trainer nor the data build. Read from the source
with ``ast``."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "fanyi"

# Bottom to top; a module may import its own layer and those below. The utilities _version,
# config and atomic are leaves; data is what training and translation read, data.build what
# `fanyi prepare` and `fanyi data` write (above it: the read side never imports the build);
# interop maps other formats to and from model directories, beside them;
# evaluate translates with the Translator, then scores (fanyi.scores, beside lang, is what
# validation uses; tune chooses α with evaluate; distill translates training data; catalogue
# fills a .po file); runtime is
# the process policy that only entry points apply; the applications on top parse and call.
LAYERS = [
    [
        "fanyi._version",
        "fanyi.config",
        "fanyi.atomic",
        "fanyi.inputs",
        "fanyi.outputs",
        "fanyi.filenames",
        "fanyi.precision",
        "fanyi.device",
    ],
    ["fanyi.model"],
    ["fanyi.text", "fanyi.scores"],
    ["fanyi.data"],
    ["fanyi.data.build"],
    [
        "fanyi.sections",
        "fanyi.int8_storage",
        "fanyi.model_dir",
        "fanyi.ensemble_dir",
        "fanyi.interop",
    ],
    ["fanyi.decode"],
    ["fanyi.engines"],
    ["fanyi.translate"],
    ["fanyi.documents"],
    ["fanyi.evaluate", "fanyi.tune", "fanyi.distill", "fanyi.catalogue", "fanyi.catalogue_file"],
    ["fanyi.train"],
    ["fanyi.runtime"],
    ["fanyi.copy_task", "fanyi.plot", "fanyi.plot_attention", "fanyi.recipe"],
    ["fanyi.serve", "fanyi.cli", "fanyi.__main__", "fanyi"],
]
MAX_FILE_LINES, MAX_FUNCTION_LINES = 400, 40


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The layer of ``module``: that of the longest prefix listed in LAYERS."""
    matches = [
        (len(prefix), i)
        for i, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    assert matches, f"{module} is in no layer: add it to LAYERS"
    return max(matches)[1]


def imports(module: str) -> set[str]:
    """The fanyi modules ``module`` imports (anywhere in it, type-checking blocks included)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            named = {f"{base}.{alias.name}" for alias in node.names}
            found |= (named & MODULES.keys()) or {base}
    return {m for m in found if m in MODULES}


GRAPH = {module: imports(module) for module in MODULES}


def test_every_module_imports_only_its_layer_and_those_below():
    upward = [
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, targets in GRAPH.items()
        for target in targets
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "\n".join(upward)


def test_there_is_no_import_cycle():
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(GRAPH[module]):
            if state.get(target) == "open":
                cycle = [*path[path.index(target) :], target]
                pytest.fail("import cycle: " + " → ".join(cycle))
            if target not in state:
                visit(target, [*path, target])
        state[module] = "done"

    for module in MODULES:
        if module not in state:
            visit(module, [module])


def test_the_graph_is_read_correctly():
    """The walker sees relative, package and aliased imports (else the tests above prove little)."""
    assert "fanyi.sections" in GRAPH["fanyi.translate.source_text"]
    assert "fanyi.engines.ctranslate2" in GRAPH["fanyi.engines.registry"]  # a lazy import, seen too
    assert "fanyi.config" in GRAPH["fanyi.sections"]  # `from . import config as config_io`
    assert "fanyi.text.lang" in GRAPH["fanyi.data.vocab"]
    assert "fanyi.data.manifest" in GRAPH["fanyi.data.build.subword"]  # `from ..manifest import`
    assert layer_of("fanyi.data.manifest") < layer_of("fanyi.data.build.prepare")
    assert layer_of("fanyi.decode.beam") == layer_of("fanyi.decode") < layer_of("fanyi.train")


def closure(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        for target in GRAPH[current] - seen:
            seen.add(target)
            todo.append(target)
    return seen


@pytest.mark.parametrize(
    "entry", ["fanyi.translate.translator", "fanyi.serve.app", "fanyi.cli.translate"]
)
def test_translating_never_imports_the_trainer(entry):
    assert not {m for m in closure(entry) if m.startswith("fanyi.train")}


@pytest.mark.parametrize(
    "entry",
    ["fanyi.translate.translator", "fanyi.serve.app", "fanyi.cli.translate", "fanyi.train.trainer"],
)
def test_translating_and_training_never_import_the_data_build(entry):
    """They read a data directory (fanyi.data); only `fanyi prepare` and `fanyi data` write one."""
    assert not {m for m in closure(entry) if m.startswith("fanyi.data.build")}


def test_training_never_imports_the_translator():
    """Validation scores with fanyi.scores: the trainer needs no Translator to compute BLEU."""
    assert "fanyi.translate.translator" not in closure("fanyi.train.trainer")


def test_the_translate_command_loads_no_training_or_corpus_building_code():
    code = (
        "import sys; from fanyi.cli import main; main(['translate', '--text', '', '--threads', '1']);"
        "print(sorted(m for m in sys.modules if m.startswith(('fanyi.train', 'fanyi.data.build'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_files_and_functions_are_small():
    too_big = []
    for module, path in MODULES.items():
        source = path.read_text(encoding="utf-8")
        if source.count("\n") > MAX_FILE_LINES:
            too_big.append(f"{path.name}: {source.count(chr(10))} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_big.append(f"{module}.{node.name}: {length} lines")
    assert not too_big, "\n".join(too_big)

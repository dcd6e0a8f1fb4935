"""requirements/: the runtime lock is lean and hashed, the development lock adds to it, imports are declared."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements"
APPS = ("kernel", "environment", "judging", "benchmark", "lifeplanner_site", "devtools")
FIRST_PARTY = {*APPS, "tests"}
# Development tools that must never reach `make setup` or the image.
NOT_RUNTIME = {
    "pytest",
    "pytest-django",
    "pytest-timeout",
    "playwright",
    "schemathesis",
    "hypothesis",
    "ruff",
    "networkx",
    "pyrosm",
    "geopandas",
    "pandas",
    "tenacity",
    "mypy",
    "import-linter",
    "pre-commit",
}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(in_file: Path) -> set[str]:
    """Package names listed in a requirements .in file (and the .in files it includes with -r)."""
    names = set()
    for line in in_file.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-r "):
            names |= declared(in_file.parent / line[3:].strip())
        elif line and not line.startswith("-"):
            names.add(normalise(re.split(r"[\[<>=!~; ]", line)[0]))
    return names


def pins(lock: Path) -> dict[str, str]:
    text = lock.read_text()
    return {normalise(name): version for name, version in re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.M)}


def third_party_imports(*folders: str) -> dict[str, Path]:
    """Top-level modules imported anywhere under ``folders`` that are neither stdlib nor first-party."""
    found = {}
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    top = module.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in FIRST_PARTY:
                        found.setdefault(top, path.relative_to(ROOT))
    return found


@pytest.mark.parametrize("lock", ["runtime.txt", "dev.txt"])
def test_every_pin_of_a_lock_has_a_hash(lock):
    blocks = re.split(r"\n(?=[A-Za-z0-9])", (REQUIREMENTS / lock).read_text())
    pinned = [block for block in blocks if re.match(r"[A-Za-z0-9_.\-]+==", block)]
    assert len(pinned) == len(pins(REQUIREMENTS / lock)) > 50
    assert [block.split()[0] for block in pinned if "--hash=sha256:" not in block] == []


def test_the_runtime_lock_holds_no_development_tool():
    assert NOT_RUNTIME & set(pins(REQUIREMENTS / "runtime.txt")) == set()
    assert NOT_RUNTIME & declared(REQUIREMENTS / "runtime.in") == set()


def test_the_development_lock_pins_the_runtime_versions():
    runtime, dev = pins(REQUIREMENTS / "runtime.txt"), pins(REQUIREMENTS / "dev.txt")
    assert {name: (version, dev.get(name)) for name, version in runtime.items() if dev.get(name) != version} == {}


# benchmark/endpoints/local_model/ (and only it) may import the optional local model's packages
# (requirements/local-model.in): they run in the model server's own process.
LOCAL_MODEL_CODE = "benchmark/endpoints/local_model/"


@pytest.mark.parametrize("folders, in_file", [(APPS, "runtime.in"), (("tests",), "dev.in")])
def test_every_third_party_import_is_declared(folders, in_file):
    names = declared(REQUIREMENTS / in_file)
    optional = declared(REQUIREMENTS / "local-model.in") if in_file == "runtime.in" else set()
    distributions = packages_distributions()
    undeclared = {
        module: str(path)
        for module, path in third_party_imports(*folders).items()
        if not names & {normalise(d) for d in distributions.get(module, [module])}
        and not (
            str(path).startswith(LOCAL_MODEL_CODE)
            and optional & {normalise(d) for d in distributions.get(module, [module])}
        )
    }
    assert undeclared == {}, f"declare these in requirements/{in_file} (module: first importer)"

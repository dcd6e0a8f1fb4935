"""The code base passes the project's lint rules and is formatted (pyproject.toml [tool.ruff]: pyflakes,
pycodestyle, isort, bugbear, pyupgrade, Django, simplify; ``ruff format``)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", str(ROOT)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, "run `.venv/bin/ruff format`:\n" + result.stdout + result.stderr

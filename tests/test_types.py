"""The code base type-checks: mypy with the django-stubs and DRF plugins (pyproject.toml, [tool.mypy])."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# One cache per checkout, kept between runs: a cold check takes about two minutes, a warm one seconds.
CACHE = Path(tempfile.gettempdir()) / f"lifeplanner-mypy-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}"


def test_mypy_finds_no_type_errors():
    # The packages to check are the config's `files`: environment, judging, benchmark, lifeplanner_site.
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(CACHE)], cwd=ROOT, capture_output=True, text=True, timeout=540
    )
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]

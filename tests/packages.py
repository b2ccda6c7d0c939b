"""Installing a plugin package the way a host would (pip, into a folder of its own), for the
tests that find a role or an adapter by its entry point alone."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def pip_installed(package: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder pip installed `package` into, built with what the test environment has (no
    index, no isolated build), from a copy: pip builds in the source tree, not in ours."""
    source = tmp_path_factory.mktemp("source") / package.name
    shutil.copytree(package, source)
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", "--no-build-isolation", "--target", str(target),
                    str(source)], check=True, capture_output=True)
    return target

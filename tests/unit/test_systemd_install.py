"""The systemd recipe works as written (issue 32, problem 4): deploy/install.sh, run in a
scratch root, gives the service user read access to /etc/nightfall and its configuration and
none to the secrets; `nightfall check-config` as that user reads it; the unit with each
platform's credential drop-in passes `systemd-analyze verify`, and a Matrix-only host loads no
Telegram token. (The tests run as root: the service user is a scratch uid via setpriv.)"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..conftest import ROOT

INSTALL = ROOT / "deploy" / "install.sh"
NIGHTFALL = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "nightfall"
UID = 64123  # the scratch service user (and its group)


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A root the scratch uid can walk into (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="nightfall-root-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def install(root: Path, *platforms: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", str(INSTALL), "--root", str(root), "--skip-venv",
                           "--skip-user", *platforms], capture_output=True, text=True,
                          env={**os.environ, "NIGHTFALL_GROUP": str(UID)}, check=True)


def as_service_user(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups",
                           "--inh-caps=-all", "--bounding-set=-all", *argv],
                          capture_output=True, text=True, env=env, check=False, timeout=120)


def mode(path: Path) -> tuple[int, int, int]:
    info = path.stat()
    return stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to act as a scratch service user")
def test_the_service_user_reads_its_configuration_and_not_the_secrets(scratch):
    install(scratch, "telegram")
    etc = scratch / "etc" / "nightfall"
    assert mode(etc) == (0o750, 0, UID)
    assert mode(etc / "nightfall.toml") == (0o640, 0, UID)
    assert mode(etc / "secrets") == (0o700, 0, 0)
    # the host enables Telegram; systemd hands the token over as a credential file
    (etc / "nightfall.toml").write_text("[telegram]\nenabled = true\n", encoding="utf-8")
    credentials = scratch / "credentials"
    credentials.mkdir(mode=0o755)
    (credentials / "telegram_token").write_text("123456:TEST-token", encoding="utf-8")
    env = {"PATH": os.environ["PATH"],
           "NIGHTFALL_TELEGRAM__TOKEN_FILE": str(credentials / "telegram_token")}
    checked = as_service_user(str(NIGHTFALL), "check-config", str(etc / "nightfall.toml"),
                              env=env)
    assert checked.returncode == 0, checked.stderr
    assert "valid; platforms: telegram" in checked.stdout
    # the secrets stay root's: the service user cannot list them
    listed = as_service_user("ls", str(etc / "secrets"), env=env)
    assert listed.returncode != 0
    # and a second install keeps the host's configuration
    install(scratch, "telegram")
    assert (etc / "nightfall.toml").read_text(encoding="utf-8").startswith("[telegram]")


def units(root: Path) -> Path:
    """The installed unit and drop-ins, their paths pointed into the scratch root (verify
    checks that the programs exist)."""
    system = root / "etc" / "systemd" / "system"
    for unit in [system / "nightfall.service", *(system / "nightfall.service.d").iterdir()]:
        text = unit.read_text(encoding="utf-8")
        unit.write_text(text.replace("/opt/nightfall", f"{root}/opt/nightfall")
                        .replace("/etc/nightfall", f"{root}/etc/nightfall"), encoding="utf-8")
    program = root / "opt" / "nightfall" / "bin" / "nightfall"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    return system / "nightfall.service"


@pytest.mark.parametrize("platforms", [("telegram",), ("matrix-password",), ("matrix-token",),
                                       ("telegram", "matrix-password")])
def test_the_unit_with_each_platforms_credentials_verifies_clean(scratch, platforms):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    install(scratch, *platforms)
    unit = units(scratch)
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                              text=True, check=False, timeout=60)
    assert verified.returncode == 0 and verified.stderr.strip() == "", verified.stderr
    shown = "\n".join(p.read_text(encoding="utf-8") for p in
                      (unit.parent / "nightfall.service.d").iterdir())
    assert ("LoadCredential=telegram_token:" in shown) == ("telegram" in platforms)
    if "matrix-password" in platforms:
        assert "NIGHTFALL_MATRIX__PASSWORD_FILE=%d/matrix_password" in shown
    if "matrix-token" in platforms:
        assert "NIGHTFALL_MATRIX__ACCESS_TOKEN_FILE=%d/matrix_access_token" in shown


def test_the_unit_itself_wires_no_platform():
    """A Matrix-only host must not need a Telegram token: the unit loads no credential."""
    unit = (ROOT / "deploy" / "nightfall.service").read_text(encoding="utf-8")
    assert "LoadCredential" not in unit and "TOKEN" not in unit


def test_install_refuses_to_guess_the_platforms(scratch):
    done = subprocess.run(["sh", str(INSTALL), "--root", str(scratch), "--skip-venv",
                           "--skip-user"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "telegram, matrix-password" in done.stderr

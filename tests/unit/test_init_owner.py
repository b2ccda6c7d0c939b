"""`nightfall init` run as root for a service (issue 32): the files it writes into the
service's folder are readable by the service's group, the secret as the deploy recipe wants
it (a root-only secrets/ folder stays root's: systemd hands the secret over). The ownership
changes only when the test runs as root; the decisions are checked everywhere."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

import core.init
from core.cli import main
from core.init_owner import root_only, service_reader

SCRATCH = 4242  # a uid and gid no account has
ROOT = os.geteuid() == 0
as_root = pytest.mark.skipif(not ROOT, reason="chown needs root")


def mode(path: Path) -> tuple[int, int, int]:
    info = path.stat()
    return info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)


def run_init(config: Path, *extra: str):
    return CliRunner().invoke(main, [
        "init", "-o", str(config), "--platform", "matrix", "--homeserver", "https://m.example",
        "--user-id", "@bot:m.example", "--password", "pw", "--allow", ":m.example",
        "--database", "sqlite://nightfall.sqlite3", *extra])


@pytest.fixture(autouse=True)
def _login_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core.init, "try_login", lambda answers: answers.user_id)


def test_nobody_but_root_changes_owners(tmp_path: Path) -> None:
    assert service_reader(tmp_path, None, euid=1000) is None
    assert service_reader(tmp_path, "root", euid=1000) is None


@as_root
def test_root_in_a_root_folder_keeps_the_files_its_own(tmp_path: Path) -> None:
    os.chown(tmp_path, 0, 0)
    assert service_reader(tmp_path, None) is None
    config = tmp_path / "nightfall.toml"
    assert run_init(config).exit_code == 0
    assert mode(config) == (0, 0, 0o640)
    assert mode(tmp_path / "secrets" / "matrix_password") == (0, 0, 0o600)


@as_root
def test_the_recipes_folder_gives_the_config_to_its_group_and_keeps_the_secret_roots(
        tmp_path: Path) -> None:
    """/etc/nightfall as deploy/install.sh leaves it: 0750 root:nightfall, secrets/ 0700."""
    etc = tmp_path / "etc-nightfall"
    etc.mkdir(mode=0o750)
    os.chown(etc, 0, SCRATCH)
    (etc / "secrets").mkdir(mode=0o700)
    assert root_only(etc / "secrets")
    config = etc / "nightfall.toml"
    result = run_init(config)
    assert result.exit_code == 0, result.output
    assert mode(config) == (0, SCRATCH, 0o640)
    assert mode(etc / "secrets") == (0, 0, 0o700)
    assert mode(etc / "secrets" / "matrix_password") == (0, 0, 0o600)
    assert "systemd hands it to the service" in result.output


@as_root
def test_a_service_users_own_folder_lets_it_read_its_secret(tmp_path: Path) -> None:
    home = tmp_path / "bot"
    home.mkdir(mode=0o700)
    os.chown(home, SCRATCH, SCRATCH)
    config = home / "nightfall.toml"
    result = run_init(config)
    assert result.exit_code == 0, result.output
    assert mode(config) == (0, SCRATCH, 0o640)
    assert mode(home / "secrets") == (0, SCRATCH, 0o750)
    assert mode(home / "secrets" / "matrix_password") == (0, SCRATCH, 0o640)


@as_root
def test_a_named_user_is_the_reader(tmp_path: Path) -> None:
    import pwd

    nobody = pwd.getpwnam("nobody")
    os.chown(tmp_path, 0, 0)
    config = tmp_path / "nightfall.toml"
    result = run_init(config, "--user", "nobody")
    assert result.exit_code == 0, result.output
    assert mode(config) == (0, nobody.pw_gid, 0o640)
    unknown = run_init(tmp_path / "other.toml", "--user", "no-such-user-x")
    assert unknown.exit_code == 1 and "no such user" in unknown.output

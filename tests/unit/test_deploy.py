"""The deployment files stay true to the code: the example configuration is valid and
documents every key, the container files refer to what exists, the lock pins every runtime
dependency. (tests/deploy/ builds the image and runs it; these checks hold without podman.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from core.config import load_settings, settings_model
from core.sections import ConfigError

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    found = []
    for name, field in model.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            found += keys(kind, f"{prefix}{name}.")
        else:
            found.append(f"{prefix}{name}")
    return found


def test_the_example_configuration_is_valid_and_documents_every_key():
    text = (DEPLOY / "nightfall.example.toml").read_text(encoding="utf-8")
    load_settings(DEPLOY / "nightfall.example.toml")
    section = ""
    documented = set()
    for line in text.splitlines():
        header = re.match(r"^\[([\w.]+)\]", line)
        if header:
            section = header[1] + "."
            continue
        key = re.match(r"^#?\s*(\w+)\s*=", line)
        if key:
            documented.add(section + key[1])
    missing = [k for k in keys(settings_model()) if k not in documented]
    assert not missing, f"undocumented keys: {missing}"


def test_a_bad_configuration_names_every_bad_key(tmp_path, monkeypatch):
    monkeypatch.delenv("NIGHTFALL_TELEGRAM__TOKEN", raising=False)
    bad = tmp_path / "bad.toml"
    bad.write_text('[database]\nurl = "mysql://x"\n[defaults]\ntimezone = "Mars/Base"\n'
                   '[telegram]\nenabled = true\n[surprise]\nx = 1\n', encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_settings(bad)
    message = str(err.value)
    for key in ("database.url", "defaults.timezone", "telegram", "surprise"):
        assert key in message


def test_the_environment_overrides_the_file_and_secrets_come_from_files(tmp_path, monkeypatch):
    token = tmp_path / "token"
    token.write_text("123:from-a-file\n", encoding="utf-8")
    config = tmp_path / "c.toml"
    config.write_text(f'[telegram]\nenabled = true\ntoken_file = "{token}"\n'
                      '[log]\nlevel = "INFO"\n', encoding="utf-8")
    monkeypatch.setenv("NIGHTFALL_LOG__LEVEL", "DEBUG")
    settings = load_settings(config)
    assert settings.log.level == "DEBUG"
    assert settings.telegram.token is not None
    assert settings.telegram.token.get_secret_value() == "123:from-a-file"
    assert "from-a-file" not in repr(settings)


def test_compose_runs_nightfall_with_postgresql_a_volume_and_a_health_check():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    db, bot = compose["services"]["db"], compose["services"]["nightfall"]
    assert db["image"].startswith("postgres") and "healthcheck" in db
    assert any(v.startswith("db-data:") for v in db["volumes"])
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert (ROOT / "deploy" / bot["build"]["dockerfile"].removeprefix("deploy/")).exists()


def test_the_dockerfile_copies_what_exists_and_runs_unprivileged():
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    for source in re.findall(r"^COPY (?!--)(\S+)", text, re.M):
        assert (ROOT / source).exists(), source
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and users[-1] not in ("root", "0")
    [healthcheck] = re.findall(r"^HEALTHCHECK (?:.*\\\n)*.*$", text, re.M)
    assert "NIGHTFALL_HTTP__PORT" in healthcheck  # the port the bot listens on, not 9464 alone


def test_the_dockerfile_keeps_a_public_base_and_the_ca_secret_optional():
    """Hosts build on the public base; a machine without a registry passes BASE. The CA bundle
    is a secret (never a layer), and a build without it must not point pip at a missing file."""
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ARG BASE=python:3\.11-slim$", text, re.M)
    stages = re.findall(r"^FROM (\S+)(?: AS (\w+))?", text, re.M)
    assert [name for _, name in stages] == ["build", "venv", "runtime"]
    assert all(base == "${BASE}" for base, _ in stages)
    assert "COPY --from=venv /opt/nightfall /opt/nightfall" in text
    pip_steps = re.findall(r"^RUN --mount=type=secret,id=ca \\\n(.*)", text, re.M)
    assert pip_steps and all(
        "if [ -f /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi" in step
        for step in pip_steps)
    assert "PIP_CERT=/run/secrets/ca pip" not in text  # unguarded: breaks a build without it


def test_the_build_context_leaves_local_state_out():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in (".git", ".venv", "**/__pycache__", ".pytest_cache", ".mypy_cache",
                  ".ruff_cache", "tests"):
        assert entry in ignored, entry


def test_the_lock_pins_every_runtime_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pinned = {re.split(r"[=<>\[]", line)[0].lower().replace("_", "-")
              for line in (DEPLOY / "requirements.lock").read_text().splitlines()
              if line and not line.startswith("#")}
    for requirement in project["project"]["dependencies"]:
        name = re.split(r"[=<>\[ ]", requirement)[0].lower().replace("_", "-")
        assert name in pinned, name


def test_the_systemd_unit_checks_the_configuration_and_is_hardened():
    unit = (DEPLOY / "nightfall.service").read_text(encoding="utf-8")
    assert "ExecStartPre=/opt/nightfall/bin/nightfall check-config" in unit
    assert "ExecStart=/opt/nightfall/bin/nightfall run" in unit
    for option in ("NoNewPrivileges=yes", "ProtectSystem=strict", "User=nightfall"):
        assert option in unit


def test_the_version_is_one_and_the_same_everywhere():
    """Packaging (issue 32): `nightfall --version`, the installed metadata, the image's OCI
    label and a CHANGELOG entry all carry core.__version__."""
    from importlib.metadata import version

    from click.testing import CliRunner

    from core import __version__
    from core.cli import main

    assert CliRunner().invoke(main, ["--version"]).output.strip() == f"nightfall, version " \
        f"{__version__}"
    assert version("nightfall") == __version__
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    runtime = dockerfile[dockerfile.index("AS runtime"):]
    assert f"ARG VERSION={__version__}" in runtime
    assert 'org.opencontainers.image.version="${VERSION}"' in runtime
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)

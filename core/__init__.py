"""Nightfall core: the pure rules engine and the platform-neutral services around it."""

# the one place the version is written: pyproject.toml reads it (`dynamic`), `nightfall
# --version` and /healthz show it, CHANGELOG.md has its entry, deploy/Dockerfile its label
__version__ = "0.1.0"

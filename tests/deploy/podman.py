"""Building and running the container image with podman on a machine without a registry or a
Docker engine (see deploy/README.md): a Debian base made with mmdebstrap and imported, the
image built from deploy/Dockerfile on it, containers started on the host's network.

Why these flags: podman's default runtime (crun) fails on this kind of host ("cgroups in hybrid
mode not supported"), so every call uses runc; runc's setrlimit is refused unless the limits are
given (`--ulimit`); the proxy that inspects TLS here needs its CA bundle in pip, passed as a
build secret so it never lands in a layer."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = "bookworm"  # Debian 12: python3 is 3.11, the project's floor
BASE_PACKAGES = ("python3", "python3-venv", "ca-certificates")
TOOLS = ("podman", "runc", "mmdebstrap")
RUNTIME = ("--runtime", "runc")
LIMITS = ("--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024")
CA_BUNDLE = Path(os.environ.get("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt"))


def missing_tools() -> list[str]:
    """runc and mmdebstrap live in /usr/sbin and /usr/bin, which a user's PATH may lack."""
    path = os.pathsep.join((os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin"))
    return [tool for tool in TOOLS if shutil.which(tool, path=path) is None]


def cache_dir() -> Path:
    """Kept between runs: the base's root file system takes a minute and a half to make."""
    root = os.environ.get("NIGHTFALL_CONTAINER_CACHE") or \
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "nightfall" / "container"
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def podman(*args: str, timeout: float = 600, check: bool = True,
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["podman", *RUNTIME, *args], capture_output=True, text=True,
                          timeout=timeout, check=check)


def base_image() -> str:
    """localhost/nightfall-base:<suite>-<key>, made once per suite and package list: imported
    from the cached root file system, which mmdebstrap makes if it is not there yet."""
    key = hashlib.sha256(" ".join((SUITE, *BASE_PACKAGES)).encode()).hexdigest()[:10]
    tag = f"localhost/nightfall-base:{SUITE}-{key}"
    if podman("image", "exists", tag, check=False).returncode == 0:
        return tag
    rootfs = cache_dir() / f"{SUITE}-{key}.tar"
    if not rootfs.exists():
        with tempfile.TemporaryDirectory(dir=rootfs.parent) as scratch:
            partial = Path(scratch) / "rootfs.tar"
            subprocess.run(["mmdebstrap", "--quiet", "--variant=minbase",
                            f"--include={','.join(BASE_PACKAGES)}", SUITE, str(partial)],
                           check=True, capture_output=True, text=True, timeout=900)
            partial.rename(rootfs)  # whole or not at all: an interrupted run leaves nothing
    podman("import", str(rootfs), tag)
    return tag


def build_image(base: str) -> str:
    """The image of this checkout on `base`; returns its id (a tag could be moved by another
    run building at the same time)."""
    with tempfile.TemporaryDirectory() as scratch:
        iidfile = Path(scratch) / "iid"
        secret = ("--secret", f"id=ca,src={CA_BUNDLE}") if CA_BUNDLE.is_file() else ()
        result = podman("build", "--format", "docker", "--network", "host", *secret, *LIMITS,
                        "--build-arg", f"BASE={base}", "--iidfile", str(iidfile),
                        "-f", str(ROOT / "deploy" / "Dockerfile"), str(ROOT),
                        timeout=1200, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"podman build failed:\n{result.stdout[-4000:]}\n"
                               f"{result.stderr[-4000:]}")
        return iidfile.read_text().strip()


@dataclass
class Container:
    """One started container (host network), removed by `remove`."""

    name: str

    @classmethod
    def start(cls, image: str, name: str, env: dict[str, str],
              volumes: dict[Path, str]) -> Container:
        args = ["run", "--detach", "--name", name, "--network", "host", *LIMITS]
        for key, value in env.items():
            args += ["--env", f"{key}={value}"]
        for source, target in volumes.items():
            args += ["--volume", f"{source}:{target}:ro"]
        podman(*args, image)
        return cls(name)

    def logs(self) -> str:
        result = podman("logs", self.name, check=False, timeout=60)
        return result.stdout + result.stderr

    def running(self) -> bool:
        result = podman("inspect", "--format", "{{.State.Running}}", self.name, check=False)
        return result.stdout.strip() == "true"

    def healthcheck(self) -> int:
        """Runs the image's own HEALTHCHECK command once inside the container: 0 = healthy."""
        return podman("healthcheck", "run", self.name, check=False, timeout=60).returncode

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, as `docker stop` and compose send it; the exit code once it has ended."""
        podman("kill", "--signal", "TERM", self.name)
        ended = time.monotonic() + timeout
        while self.running():
            if time.monotonic() > ended:
                podman("kill", "--signal", "KILL", self.name, check=False)
                raise TimeoutError(f"the container did not stop within {timeout} s of SIGTERM")
            time.sleep(0.2)
        code = podman("inspect", "--format", "{{.State.ExitCode}}", self.name).stdout
        return int(code.strip())

    def remove(self) -> None:
        podman("rm", "--force", "--time", "0", self.name, check=False, timeout=60)

"""Who reads what `nightfall init` writes, when root runs it for a service (issue 32).

Root's files are root:root, and a bot that runs as its own user (`User=nightfall`) could not
read them. So when root writes into a folder that belongs to the service — the folder's
owner or group is not root (`/etc/nightfall` is `0750 root:nightfall` after
deploy/install.sh), or `--user` names the service user — the configuration becomes
`0640 root:GROUP` (the service reads it and cannot change it). The secret follows the
deploy recipe: a `secrets/` folder that was already root's alone (install.sh makes it
`0700 root:root`; systemd reads it and hands the secret over as a credential) stays so;
a `secrets/` folder init creates itself becomes `0750 root:GROUP` and the secret `0640
root:GROUP`, for a service that reads its secret file itself. A host who is not root owns
what he writes: nothing changes.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Reader:
    """The group the service runs in, which may read the configuration."""

    gid: int
    name: str


def service_reader(folder: Path, user: str | None, euid: int | None = None) -> Reader | None:
    """The service's group, when root writes for a service; None when nothing is to change.
    Raises KeyError for a `--user` this system does not know."""
    if (os.geteuid() if euid is None else euid) != 0:
        return None
    if user:
        gid = pwd.getpwnam(user).pw_gid
    else:
        info = folder.stat()
        if info.st_gid != 0:
            gid = info.st_gid
        elif info.st_uid != 0:
            gid = pwd.getpwuid(info.st_uid).pw_gid
        else:
            return None  # root's own folder: root's own files
    try:
        name = grp.getgrgid(gid).gr_name
    except KeyError:
        name = str(gid)
    return Reader(gid, name)


def root_only(folder: Path) -> bool:
    """A folder only root may enter: the deploy recipe's secrets (systemd reads them)."""
    if not folder.is_dir():
        return False
    info = folder.stat()
    return info.st_uid == 0 and not stat.S_IMODE(info.st_mode) & 0o077


def share(config: Path, secret: Path, reader: Reader, secrets_were_root_only: bool) -> str:
    """Give the service's group read access as the module's docstring says; returns what
    was done, for the host."""
    os.chown(config, 0, reader.gid)
    config.chmod(0o640)
    if secrets_were_root_only:
        return (f"{config} is 0640 root:{reader.name}; {secret} stays root's (0600): "
                "systemd hands it to the service")
    os.chown(secret.parent, 0, reader.gid)
    secret.parent.chmod(0o750)
    os.chown(secret, 0, reader.gid)
    secret.chmod(0o640)
    return f"{config} and {secret} are 0640 root:{reader.name}: the service reads them"

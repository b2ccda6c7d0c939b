#!/bin/sh
# Install Nightfall as a systemd service, as deploy/README.md describes; run from the
# repository as root:
#   deploy/install.sh [--root DIR] [--skip-venv] [--skip-user] PLATFORM...
# PLATFORM: telegram, matrix-password or matrix-token (each installs that credential's drop-in).
# --root DIR installs below DIR (a scratch root for a test or an image); --skip-venv leaves the
# virtualenv out, --skip-user the system user. NIGHTFALL_USER and NIGHTFALL_GROUP (default
# nightfall) may be names or numeric ids. An existing nightfall.toml is never overwritten.
set -eu

ROOT=""
VENV=1
MAKE_USER=1
PLATFORMS=""
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="$2"; shift 2 ;;
        --skip-venv) VENV=0; shift ;;
        --skip-user) MAKE_USER=0; shift ;;
        telegram|matrix-password|matrix-token) PLATFORMS="$PLATFORMS $1"; shift ;;
        *) echo "install.sh: unknown argument $1 (platforms: telegram, matrix-password," \
                "matrix-token)" >&2; exit 2 ;;
    esac
done
if [ -z "$PLATFORMS" ]; then
    echo "install.sh: name the platforms: telegram, matrix-password and/or matrix-token" >&2
    exit 2
fi
USER_NAME="${NIGHTFALL_USER:-nightfall}"
GROUP="${NIGHTFALL_GROUP:-nightfall}"
HERE="$(cd "$(dirname "$0")" && pwd)"
SOURCE="$(dirname "$HERE")"

if [ "$MAKE_USER" = 1 ] && ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/nightfall --shell /usr/sbin/nologin \
        "$USER_NAME"
fi
if [ "$VENV" = 1 ]; then
    python3 -m venv "$ROOT/opt/nightfall"
    "$ROOT/opt/nightfall/bin/pip" install --quiet -r "$HERE/requirements.lock"
    "$ROOT/opt/nightfall/bin/pip" install --quiet --no-deps "$SOURCE"
fi

# the service user reads its configuration (group nightfall), never the secrets (root only:
# systemd loads them as credentials)
install -d -o root -g "$GROUP" -m 0750 "$ROOT/etc/nightfall"
install -d -o root -g root -m 0700 "$ROOT/etc/nightfall/secrets"
if [ ! -e "$ROOT/etc/nightfall/nightfall.toml" ]; then
    install -o root -g "$GROUP" -m 0640 "$HERE/nightfall.example.toml" \
        "$ROOT/etc/nightfall/nightfall.toml"
fi
install -d -m 0755 "$ROOT/etc/systemd/system/nightfall.service.d"
install -m 0644 "$HERE/nightfall.service" "$ROOT/etc/systemd/system/nightfall.service"
for platform in $PLATFORMS; do
    install -m 0644 "$HERE/nightfall-$platform.conf" \
        "$ROOT/etc/systemd/system/nightfall.service.d/$platform.conf"
done

cat <<DONE
Installed. Next:
  edit $ROOT/etc/nightfall/nightfall.toml (or run: /opt/nightfall/bin/nightfall init)
  put each secret in $ROOT/etc/nightfall/secrets/ (telegram_token, matrix_password or
    matrix_access_token), e.g. printf '%s' 'TOKEN' > /etc/nightfall/secrets/telegram_token
  /opt/nightfall/bin/nightfall check-config /etc/nightfall/nightfall.toml
  systemctl daemon-reload && systemctl enable --now nightfall
DONE

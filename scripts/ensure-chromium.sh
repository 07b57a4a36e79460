#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing.
# Never downloads a browser build of its own: the distribution package only.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "Chromium not found at $CHROMIUM: installing Debian's chromium package…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "✖ Need root (or sudo) to run: apt-get install -y chromium" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
echo "Chromium installed: $("$CHROMIUM" --version)"

#!/usr/bin/env bash
# Installs Debian packages as root or through sudo: the one way the
# ensure-*.sh scripts install what the tests need. The package lists are
# refreshed only when the packages cannot be installed without.
#   bash scripts/apt-install.sh <package>…
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "✖ Need root (or sudo) to run: apt-get install -y $*" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 || {
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

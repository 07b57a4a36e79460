#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing.
# Never downloads a browser build of its own: the distribution package only.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "Chromium not found at $CHROMIUM: installing Debian's chromium package…"
bash "$(dirname "$0")/apt-install.sh" chromium fonts-noto-cjk
echo "Chromium installed: $("$CHROMIUM" --version)"

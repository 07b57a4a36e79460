#!/usr/bin/env bash
# Installs Debian's wrk (the HTTP load generator the reader-site bench drives)
# when it is missing. The distribution package only, never a build of its own.
set -euo pipefail
WRK="${WRK_PATH:-/usr/bin/wrk}"
if [ -x "$WRK" ]; then
  exit 0
fi
echo "wrk not found at $WRK: installing Debian's wrk package…"
bash "$(dirname "$0")/apt-install.sh" wrk
echo "wrk installed: $("$WRK" --version 2>&1 | head -n 1)"

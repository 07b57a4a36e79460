#!/usr/bin/env bash
# Installs Debian's libxml2-utils (xmllint) for the sitemap XSD validation test when missing.
set -euo pipefail
command -v xmllint >/dev/null 2>&1 && exit 0
echo "xmllint not found: installing Debian's libxml2-utils…"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else echo "✖ Need root (or sudo) to run: apt-get install -y libxml2-utils" >&2; exit 1; fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -qq --no-install-recommends libxml2-utils >/dev/null 2>&1 || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends libxml2-utils >/dev/null; }
echo "xmllint installed: $(xmllint --version 2>&1 | head -1)"

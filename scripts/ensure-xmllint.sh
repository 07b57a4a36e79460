#!/usr/bin/env bash
# Installs Debian's libxml2-utils (xmllint) for the sitemap XSD validation test when missing.
set -euo pipefail
command -v xmllint >/dev/null 2>&1 && exit 0
echo "xmllint not found: installing Debian's libxml2-utils…"
bash "$(dirname "$0")/apt-install.sh" libxml2-utils
echo "xmllint installed: $(xmllint --version 2>&1 | head -1)"

#!/usr/bin/env bash
# Installs Debian's Noto CJK fonts when fontconfig knows no font for Chinese,
# Japanese and Korean text: the share images (POST /api/articles/<id>/card)
# and the browser tests draw CJK titles with it. sharp's Pango finds it through
# fontconfig, per character, so no path needs configuring.
set -euo pipefail
if command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh family 2>/dev/null | head -1)" ]; then
  exit 0
fi
echo "No CJK font found: installing Debian's fonts-noto-cjk…"
bash "$(dirname "$0")/apt-install.sh" fontconfig fonts-noto-cjk
fc-cache -f >/dev/null 2>&1 || true
echo "CJK font installed: $(fc-list :lang=zh family | head -1)"

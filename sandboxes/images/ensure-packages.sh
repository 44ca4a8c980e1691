#!/usr/bin/env bash
# Install the Debian packages named on the command line that are missing. Where that cannot be
# done (not root, or not Debian), name what is missing and stop, so nothing fails later in a
# confusing way.
#
# Usage: ensure-packages.sh PACKAGE…
set -euo pipefail

if ! command -v dpkg-query >/dev/null; then
    echo "note: not a Debian system; make sure these (or their equivalents) are installed: $*"
    exit 0
fi
missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
        || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "error: missing Debian packages: ${missing[*]}" >&2
    echo "       install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "installing Debian packages: ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null

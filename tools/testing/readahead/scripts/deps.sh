#!/bin/sh
# deps.sh - install the Debian packages the readahead bench needs.
#
# Usage: deps.sh PACKAGE...
# Installs only what is missing, so a second run costs one dpkg query.
# Needs root (as on the CI machines); prints what it installs.
set -eu

missing=
for pkg in "$@"; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
			grep -q 'install ok installed'; then
		missing="$missing $pkg"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

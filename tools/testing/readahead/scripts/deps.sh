#!/bin/sh
# deps.sh - install, or check for, the Debian packages the readahead
# bench needs.
#
# Usage: deps.sh PACKAGE...          install those missing (root)
#        deps.sh --check PACKAGE...  name those missing and fail
# Installing costs one dpkg query when nothing is missing, and prints
# what it installs.  `make deps` and the README's two commands install;
# every other target only checks.
set -eu

check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
missing=
for pkg in "$@"; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
			grep -q 'install ok installed'; then
		missing="$missing $pkg"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$check" ]; then
	echo "deps: not installed:$missing; \`make deps\` (as root) installs" \
		"them" >&2
	exit 1
fi
echo "deps: installing$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

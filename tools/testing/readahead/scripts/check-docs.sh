#!/bin/sh
# check-docs.sh - the project's reStructuredText builds as the kernel's
# Documentation/ would build it.
#
# Usage: check-docs.sh TREE RST...     (from any directory)
#
# TREE is a Linux 6.1 source tree (only scripts/kernel-doc is used).  For
# each RST (relative to the repository root): every ".. kernel-doc:: FILE"
# directive with ":doc: TITLE" must find that DOC section in FILE, with
# no kernel-doc warning; the directive is replaced by kernel-doc's output,
# and the whole document must then parse with docutils without a warning
# (the Sphinx roles kernel-doc emits, such as :c:type:, are accepted as
# plain text).  Prints TAP (scripts/tap.sh), one test per RST.
set -u

scripts=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$scripts/../../../.." && pwd)
. "$scripts/tap.sh"
if [ $# -lt 2 ]; then
	echo "usage: $0 TREE RST..." >&2
	exit 2
fi
kdoc="$1/scripts/kernel-doc"
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1

# expand RST OUT: the kernel-doc :doc: directives of RST replaced by
# kernel-doc's text; kernel-doc's warnings on stderr.
expand() {
	awk -v kdoc="$kdoc" '
	function flush() {
		if (file == "")
			return
		cmd = "perl " kdoc " -rst -function \"" doc "\" " file
		while ((cmd | getline l) > 0)
			print l
		close(cmd)
		file = ""
	}
	/^\.\. kernel-doc:: / { flush(); file = $3; doc = ""; next }
	file != "" && /^   :doc: / { doc = substr($0, 10); next }
	{ flush(); print }
	END { flush() }' "$1" >"$2"
}

tap_begin
if [ ! -f "$kdoc" ]; then
	tap_skip "documentation builds" "no $kdoc"
	tap_end
	exit
fi
for rst in "$@"; do
	out="$tmp/$(basename "$rst")"
	expand "$rst" "$out" 2>"$out.kdoc"
	grep -v '^Warning: Sphinx version not found' "$out.kdoc" >"$out.warn"
	python3 - "$out" >>"$out.warn" 2>&1 <<'EOF'
import sys
from docutils.core import publish_doctree
from docutils.parsers.rst import roles

def plain(name, rawtext, text, lineno, inliner, options={}, content=[]):
    return [], []

for r in ("c:type", "c:func", "c:macro", "ref", "doc"):
    roles.register_local_role(r, plain)
with open(sys.argv[1]) as f:
    publish_doctree(f.read(), source_path=sys.argv[1],
                    settings_overrides={"report_level": 2,
                                        "halt_level": 5})
EOF
	if [ -s "$out.warn" ]; then
		tap_diag_file "$out.warn"
		tap_not_ok "$rst: kernel-doc and docutils, no warning"
	else
		tap_ok "$rst: kernel-doc and docutils, no warning"
	fi
done
tap_end

# make-help.awk - `make help`: the targets of the makefiles given, by
# group, from their own comments.  In a makefile, "##@ GROUP" starts a
# group, and the "## TEXT" lines right above a rule describe its first
# target (refilled to 78 columns); a rule without them is not listed.
BEGIN { print "Targets (make TARGET):"; width = 78 - 19 }
/^##@ / { printf "\n%s\n", substr($0, 5); text = ""; next }
/^## / { text = text (text == "" ? "" : " ") substr($0, 4); next }
/^[A-Za-z0-9_.-]+:/ && text != "" {
	name = $0
	sub(/:.*/, "", name)
	n = split(text, word, " ")
	line = ""
	for (i = 1; i <= n; i++) {
		if (line != "" && length(line) + 1 + length(word[i]) > width) {
			printf "  %-16s %s\n", name, line
			name = ""
			line = word[i]
		} else {
			line = line (line == "" ? "" : " ") word[i]
		}
	}
	printf "  %-16s %s\n", name, line
	text = ""
	next
}
/^[A-Za-z_][A-Za-z0-9_]* *[?:]?=/ { next }
{ text = "" }

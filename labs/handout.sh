#!/bin/sh
# make labs-handout: the course as a student gets it, without labs/solutions/ (the solutions and the
# planted mistakes built from them): sh labs/handout.sh OUT.tar.gz. The files git tracks, as they are in
# the working tree (an uncommitted edit goes out too), so that nothing built or untracked goes out.
# Without solutions, make lab's target is a share of the limit.
set -eu
out=${1:?usage: labs/handout.sh OUT.tar.gz}
git rev-parse --show-toplevel >/dev/null 2>&1 || { echo "labs-handout: needs the course's git checkout" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
list=$(mktemp)
trap 'rm -f "$list" "$out.tmp"' EXIT
# (the cheats, the honest variants and the rules' test files hold solutions too)
git ls-files | grep -v -e '^labs/solutions/' -e '^tests/cheats/' -e '^tests/honest/' -e '^tests/rules/' >"$list"
tar -czf "$out.tmp" --transform 's|^|cuda-course/|' -T "$list"
mv "$out.tmp" "$out"
echo "$out: $(wc -l <"$list") files, $(du -k "$out" | cut -f1) KiB, without labs/solutions/ and the tests' files" \
    "that hold solutions (tests/cheats/, tests/honest/, tests/rules/)"

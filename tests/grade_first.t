#!/bin/sh
# labs/grade's first grade on a machine builds the course's side of the labs (the judges' library, the
# lab's judge and runner: about a minute) and says so before, after the report's first line; once they are
# built it says nothing. No GPU or compiler needed: a copy of labs/ in a temporary folder, graded with a
# make on PATH that only writes down that it was called (and fails, which labs/grade reports as exit 2).
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/course" "$tmp/bin"
cp -R labs "$tmp/course/"
printf '#!/bin/sh\necho "make was called"\nexit 1\n' >"$tmp/bin/make" && chmod +x "$tmp/bin/make"
grade() { PATH=$tmp/bin:$PATH LAB_BUILD_ONLY=1 sh "$tmp/course/labs/grade" ch1_map >"$tmp/out" 2>&1; }

grade; code=$?
head -n 1 "$tmp/out" | grep -q "^== Lab ch1_map: " &&
    [ "$(grep -n -m 1 "^Building the course's lab programs" "$tmp/out" | cut -d: -f1)" = 2 ] &&
    [ "$(grep -n -m 1 "^make was called" "$tmp/out" | cut -d: -f1)" = 3 ]
ok $? "nothing built: '== Lab' first, then 'Building the course's lab programs', then make" \
   "exit $code: $(head -n 4 "$tmp/out")"

for part in judge/ch1_map runner/ch1_map.o runner.o launches.o runner/touch.o libraries.o; do
    mkdir -p "$(dirname "$tmp/course/output/labs/$part")" && : >"$tmp/course/output/labs/$part"
done
grade; code=$?
head -n 1 "$tmp/out" | grep -q "^== Lab ch1_map: " && grep -q "^make was called" "$tmp/out" &&
    ! grep -q "^Building" "$tmp/out"
ok $? "the course's side built: no such line" "exit $code: $(head -n 4 "$tmp/out")"

rm "$tmp/course/output/labs/libraries.o"
grade; code=$?
grep -q "^Building the course's lab programs" "$tmp/out"
ok $? "one part missing (the judges' library): said" \
   "exit $code: $(head -n 4 "$tmp/out")"
done_testing

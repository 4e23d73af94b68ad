#!/bin/sh
# course.ipynb, the Colab notebook, stays valid and true: valid against nbformat 4.4's schema (and
# nbformat's own validator, where tests/install_tools.sh put it in .tools/pythonX.Y), asking for a GPU
# runtime; every code cell one tests/notebook.sh can run, every %%bash cell failing on the first error;
# the first code cell a Colab form that fetches the course; every program it runs one the course builds,
# every image it shows committed; a lab's cells for each lab of LABS, equal to labs/; the made parts what
# make notebook makes (tests/notebook.py), and its repository the README badge's. Then, without a GPU,
# the form cell run outside Colab (tests/notebook.sh's first two cells) through either path: cloned from a
# bare repository of this checkout, and unpacked from labs/handout.sh's archive; and a lab's check cell
# run on a stand-in for labs/grade, for each exit status of the grade, and with the install of a library
# Colab lacks failing. On a GPU machine tests/notebook.sh then runs all its cells in order. python3 reads
# the JSON (Colab runs Python anyway).
. tests/tap.sh
command -v python3 >/dev/null || skip_all "python3 is not installed (it reads the notebook's JSON)"
if [ -z "${LABS+set}" ]; then  # not run by make test: ask the Makefile
    vars=$(make -s -f Makefile -f - notebook-vars <<'EOF' 2>/dev/null
notebook-vars: ; @echo "LABS=$(LABS)"; echo "COURSE_URL=$(COURSE_URL)"
EOF
)
    LABS=$(echo "$vars" | sed -n 's/^LABS=//p')
    COURSE_URL=$(echo "$vars" | sed -n 's/^COURSE_URL=//p')
    export LABS COURSE_URL
fi
result=${TMPDIR:-/tmp}/notebook.$$
# nbformat where tests/install_tools.sh put it, for this python3's version
tools_python=.tools/python$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PYTHONPATH="$PWD/$tools_python${PYTHONPATH:+:$PYTHONPATH}" python3 - course.ipynb "${PROGRAMS:-}" "$tools_python" \
    >"$result" 2>&1 <<'PY'
import json, os, re, sys
def say(name, good, why=""):
    print(name, bool(good), why if not good else "")
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        nb = json.load(f)
except ValueError as e:
    say("json", False, e)
    sys.exit(0)
say("json", True)

# nbformat 4.4's schema, for the kinds of cell used here: these keys and no others (a cell id is a 4.5
# field), a source that is a string or a list of strings, and, as committed, no outputs.
bad = []
if sorted(nb) != ["cells", "metadata", "nbformat", "nbformat_minor"]:
    bad.append(f"top-level keys {sorted(nb)}")
if (nb.get("nbformat"), nb.get("nbformat_minor")) != (4, 4):
    bad.append(f"nbformat {nb.get('nbformat')}.{nb.get('nbformat_minor')}, not 4.4")
meta = nb.get("metadata")
if not isinstance(meta, dict):
    bad.append("metadata is not an object")
    meta = {}
for key, need in (("kernelspec", ("name", "display_name")), ("language_info", ("name",))):
    if key in meta and not (isinstance(meta[key], dict) and all(isinstance(meta[key].get(k), str) for k in need)):
        bad.append(f"metadata.{key} lacks {need}")
cells = nb.get("cells") if isinstance(nb.get("cells"), list) else []
keys = {"markdown": {"cell_type", "metadata", "source"},
        "code": {"cell_type", "metadata", "source", "outputs", "execution_count"}}
for i, cell in enumerate(cells, 1):
    if not isinstance(cell, dict) or cell.get("cell_type") not in keys:
        bad.append(f"cell {i}: not a markdown or code cell")
        continue
    if set(cell) != keys[cell["cell_type"]]:
        bad.append(f"cell {i}: keys {sorted(cell)}, not {sorted(keys[cell['cell_type']])}")
    source = cell.get("source")
    if not (isinstance(source, str) or isinstance(source, list) and all(isinstance(s, str) for s in source)):
        bad.append(f"cell {i}: source is not a string or a list of strings")
    if not isinstance(cell.get("metadata"), dict):
        bad.append(f"cell {i}: metadata is not an object")
    if cell["cell_type"] == "code" and (cell.get("outputs") != [] or cell.get("execution_count") is not None):
        bad.append(f"cell {i}: outputs or an execution count (committed, the notebook has none)")
say("schema", cells and not bad, "; ".join(bad[:5]))
try:  # nbformat's own validator, strict: its warnings (a 4.5 cell without an id) count as errors
    import copy, nbformat, warnings
    from nbformat.validator import iter_validate
    with warnings.catch_warnings(record=True) as caught:  # the JSON as it is: nbformat.read would add ids
        warnings.simplefilter("always")
        errors = [e.message for e in iter_validate(copy.deepcopy(nb))]
        try:
            nbformat.validate(copy.deepcopy(nb))
        except Exception as e:
            errors.append(str(e).splitlines()[0])
    errors = errors or [str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)]
    say("validator", not errors, f"nbformat {nbformat.__version__}: {len(errors)} errors: {errors[:3]}")
except ImportError:
    print(f"validator skip nbformat is not installed (sh tests/install_tools.sh puts it in {sys.argv[3]});"
          " the test above checks what its schema requires")

say("gpu", meta.get("accelerator") == "GPU" and "gpuType" in meta.get("colab", {}))

def text(cell):
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])

code = [text(c) for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]
bash = [t for t in code if t.startswith("%%bash\n")]
# The form (tests/notebook.py's FORM): the one Python cell but the displays, run by python3 outside Colab.
form_line = re.compile(r'^COURSE_URL = "([^"\\]*)"  #@param \{type:"string"\}$', re.M)
forms = [t for t in code if form_line.search(t)]
unknown = [t.splitlines()[0] if t else "(empty)" for t in code if not (
    t.startswith("%%bash\n") or t.startswith("%%writefile ") or re.fullmatch(r"%cd [^\n]+\n?", t)
    or "display(Image(" in t or t in forms)]
say("cells", code and not unknown, f"cells tests/notebook.sh cannot run: {unknown}")
no_pipefail = [t.split("\n")[2] if t.count("\n") >= 2 else t
               for t in bash if not t.startswith("%%bash\nset -eo pipefail\n")]
say("pipefail", bash and not no_pipefail,
    f"%%bash cells without 'set -eo pipefail' on their second line: {no_pipefail}")

programs = set(sys.argv[2].split())
runs = [p for t in bash for p in re.findall(r"\./(ch\d_[a-z_]+/[a-z_0-9]+)", t)]
unknown = [p for p in runs if programs and p not in programs and p != "ch3_streams_events/multi_gpu"]
say("programs", runs and not unknown, unknown)
shows = [p for t in code if "display(Image(" in t for p in re.findall(r'Image\("([^"]+)"\)', t)]
missing = [p for p in shows if not os.path.isfile(p) and not p.startswith("output/")]  # output/: made by a cell
say("images", shows and not missing, missing)

# The form: the first code cell, one address (empty, or a GitHub repository's), the course put in an absolute
# path that is kept when it is there, cloned from the address or unpacked from an upload (COURSE_ARCHIVE
# outside Colab); then %cd into it.
course = "/content/course"
form = forms[0] if len(forms) == 1 else ""
address = form_line.search(form).group(1) if form else None
say("form", len(forms) == 1 and code and code[0] == form and len(code) > 1 and code[1].strip() == f"%cd {course}"
    and form.startswith("#@title ") and f'COURSE = "{course}"' in form and "os.path.isdir(COURSE)" in form
    and '["git", "clone", "--depth", "1", url, COURSE]' in form and "files.upload()" in form
    and 'os.environ.get("COURSE_ARCHIVE"' in form
    and (address == "" or re.fullmatch(r"https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", address or "")),
    f"{len(forms)} form cells (the first code cell must be the one, then '%cd {course}'); its address {address!r}")

# Every lab of LABS: a %%writefile my_LAB.cu cell equal to labs/LAB.cu, then a cell that checks that file.
labs = os.environ.get("LABS", "").split()
writes = {}
for i, t in enumerate(code):
    if t.startswith("%%writefile "):
        writes[t.partition("\n")[0].split()[1]] = (t.partition("\n")[2], code[i + 1] if i + 1 < len(code) else "")
wrong = [f for f in writes if f not in {f"my_{lab}.cu" for lab in labs}]
for lab in labs:
    mine = f"my_{lab}.cu"
    if mine not in writes:
        wrong.append(f"{lab}: no %%writefile {mine} cell")
        continue
    body, check = writes[mine]
    with open(f"labs/{lab}.cu", encoding="utf-8") as f:
        labs_file = f.read()
    if body != labs_file:
        wrong.append(f"{mine} differs from labs/{lab}.cu")
    if not (check.startswith("%%bash\n") and f"sh labs/grade {lab} {mine} " in check and "not run here" in check):
        wrong.append(f"{mine}: the next cell does not check it, or does not say what each grade asks")
say("labs", labs and not wrong, "; ".join(wrong[:5]) or "LABS is empty")

# No placeholder to click: a badge only for the repository the form clones; without one, a line that says
# how to open the notebook all the same (uploaded to Colab).
with open("README.md", encoding="utf-8") as f:
    readme = f.read()
mark = "<!-- Colab badge: make notebook writes the next line from the Makefile's COURSE_URL -->\n"
line = readme.partition(mark)[2].partition("\n")[0]
cloned = re.findall(r"^https://github\.com/(.+)$", address or "")
badges = re.findall(r"colab\.research\.google\.com/github/([^/ ]+/[^/ ]+)/blob/", readme)
placeholders = [u for u in re.findall(r"https?://[^\s)`\"]+", readme + "".join(code))
                if re.search(r"OWNER|USER|YOUR", u)]
say("badge", not placeholders and sorted(set(badges)) == sorted(set(cloned)) and len(badges) <= 1
    and (badges and "colab-badge" in line or not badges and "Upload notebook" in line),
    f"README badge {badges}, form {cloned}, placeholders {placeholders}, the badge's line {line!r}")
PY
for what in json schema validator gpu cells pipefail programs images form labs badge; do
    line=$(grep "^$what " "$result")
    case $line in
        "$what skip "*) skip "course.ipynb: $what" "${line#"$what skip "}" ;;
        *) echo "$line" | grep -q "^$what True"
           ok $? "course.ipynb: $what" "$line$(grep -v '^[a-z]* \(True\|False\|skip\)' "$result")" ;;
    esac
done
rm -f "$result"
made=$(python3 tests/notebook.py 2>&1)
ok $? "course.ipynb and the README's badge are what make notebook makes (from labs/, LABS, COURSE_URL)" \
    "$made (make notebook rewrites them)"
# The form cell outside Colab, through either path, as tests/notebook.sh runs it (its cells 1 and 2: the
# course fetched, then entered): the tree lands in DIR/course, whole, and the cell run again keeps it.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! command -v git >/dev/null || ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
    for path in clone upload; do skip "the form cell: the $path path" "not a git checkout (or no git)"; done
else
    COURSE_FROM=clone sh tests/notebook.sh "$tmp/clone" 1 2 >"$tmp/clone.out" 2>&1; code=$?
    [ $code = 0 ] && [ "$(git -C "$tmp/clone/course" rev-parse HEAD 2>&1)" = "$(git rev-parse HEAD)" ] &&
        [ -z "$(git -C "$tmp/clone/course" status --porcelain 2>&1)" ] && [ -x "$tmp/clone/course/labs/grade" ] &&
        grep -q "^cloning file://.*/course.git into /content/course" "$tmp/clone/notebook.log" &&
        grep -q '^== code cell 2 of [0-9]* (cd): exit 0' "$tmp/clone/notebook.log"
    ok $? "the form cell: the clone path (a bare repository of HEAD for GitHub) puts HEAD's tree in place" \
        "exit $code; $(cat "$tmp/clone.out" "$tmp/clone/notebook.log" 2>&1 | tail -n 12)"
    COURSE_FROM=upload sh tests/notebook.sh "$tmp/upload" 1 2 >"$tmp/upload.out" 2>&1; code=$?
    # (every file of the archive, in place of its top folder, and nothing else)
    tar -tzf "$tmp/upload/labs-handout.tar.gz" | sed -n 's|^cuda-course/\(.*[^/]\)$|\1|p' | sort >"$tmp/listed"
    (cd "$tmp/upload/course" 2>/dev/null && find . ! -type d | sed 's|^\./||' | sort) >"$tmp/landed"
    [ $code = 0 ] && [ -s "$tmp/listed" ] && cmp -s "$tmp/listed" "$tmp/landed" &&
        [ -x "$tmp/upload/course/labs/grade" ] && [ ! -e "$tmp/upload/course/labs/solutions" ] &&
        [ "$(ls "$tmp/upload" | tr '\n' ' ')" = "cells course labs-handout.tar.gz notebook.log " ] &&
        grep -q '^== code cell 2 of [0-9]* (cd): exit 0' "$tmp/upload/notebook.log"
    ok $? "the form cell: the upload path (labs/handout.sh's archive as COURSE_ARCHIVE) unpacks it in place" \
        "exit $code; $(diff "$tmp/listed" "$tmp/landed" 2>&1 | head -n 5); $(tail -n 12 "$tmp/upload/notebook.log")"
    # Run again, the cell keeps what is there; a wrong archive, or none, leaves nothing behind and says so.
    before=$(ls -R "$tmp/upload/course" | cksum)
    (cd "$tmp/upload" && COURSE_ARCHIVE=/nonexistent python3 cells/01.python) >"$tmp/again" 2>&1; code=$?
    [ $code = 0 ] && grep -q "is there already: kept" "$tmp/again" &&
        [ "$(ls -R "$tmp/upload/course" | cksum)" = "$before" ]
    ok $? "the form cell, run again, keeps the course where it is" "exit $code; $(cat "$tmp/again")"
    rm -rf "$tmp/upload/course"
    mkdir -p "$tmp/wrong/cuda-course/labs" && echo x >"$tmp/wrong/cuda-course/labs/x" &&
        tar -czf "$tmp/wrong.tar.gz" -C "$tmp/wrong" cuda-course
    (cd "$tmp/upload" && COURSE_ARCHIVE="$tmp/wrong.tar.gz" python3 cells/01.python) >"$tmp/wrong.out" 2>&1; c1=$?
    (cd "$tmp/upload" && env -u COURSE_ARCHIVE python3 cells/01.python) >"$tmp/none.out" 2>&1; c2=$?
    [ $c1 = 1 ] && grep -q "not the course's hand-out" "$tmp/wrong.out" && [ $c2 = 1 ] &&
        grep -q "COURSE_ARCHIVE=PATH" "$tmp/none.out" &&
        [ "$(ls "$tmp/upload" | tr '\n' ' ')" = "cells labs-handout.tar.gz notebook.log " ]
    ok $? "the form cell: a wrong archive, or none outside Colab, fails saying so and leaves nothing" \
        "exits $c1 $c2; $(cat "$tmp/wrong.out" "$tmp/none.out"); $(ls "$tmp/upload")"
fi

# A lab's check cell on a stand-in for labs/grade that ends with each of the grade's exit statuses: its last
# line says what that grade asks (an edit on 1 and 3 only), and only a usage error fails the cell. A lab that
# links a library Colab lacks installs it first where make finds none (stand-ins for make, apt-get, pip's
# python3 and nvcc, in the test's folder), and where that fails says the lab is not available.
python3 - course.ipynb "$tmp/checks" <<'PY'
import json, os, sys
os.makedirs(sys.argv[2])
for cell in json.load(open(sys.argv[1], encoding="utf-8"))["cells"]:
    text = "".join(cell["source"])
    if cell["cell_type"] == "code" and text.startswith("%%bash\n") and " sh labs/grade " in text:
        lab = text.split(" sh labs/grade ")[1].split()[0]
        open(f"{sys.argv[2]}/{lab}", "w").write(text.partition("\n")[2])
PY
fake=$tmp/fake
mkdir -p "$tmp/run/labs" "$fake" || exit 1
printf '%s\n' '[ "$FAKE_STATUS" = 2 ] && { echo "labs/grade: $2: no such file" >&2; exit 2; }' \
    'printf "verdict: %s\ngrade-verdict %s\n" "$FAKE_VERDICT" "$FAKE_VERDICT"' 'exit "$FAKE_STATUS"' \
    >"$tmp/run/labs/grade"
printf '%s\n' '#!/bin/sh' 'echo compile:' '[ "$FAKE_FOUND" = 0 ] || echo "link: -lx"' >"$fake/make"
printf '%s\n' '#!/bin/sh' 'echo "Cuda compilation tools, release 12.4, V12.4.131"' >"$fake/nvcc"
for tool in apt-get python3; do
    printf '%s\n' '#!/bin/sh' "echo \"$tool \$*\" >>\"\$CALLS\"" 'exit "$FAKE_INSTALL"' >"$fake/$tool"
done
chmod +x "$fake/make" "$fake/nvcc" "$fake/apt-get" "$fake/python3"
check() {  # check LAB STATUS VERDICT: the cell run on the stand-ins, its output in $tmp/cell.out
    : >"$tmp/calls"
    (cd "$tmp/run" && PATH="$fake:$PATH" CALLS="$tmp/calls" FAKE_STATUS=$2 FAKE_VERDICT="$3" \
        bash "$tmp/checks/$1") >"$tmp/cell.out" 2>&1
}
lab=$(echo $LABS | cut -d' ' -f1)
mine="my_$lab.cu"
wrong=""
[ -s "$tmp/checks/$lab" ] || wrong="; no check cell for $lab"
while IFS='|' read -r status verdict said exits; do
    FAKE_FOUND=1 check "$lab" "$status" "$verdict"; code=$?
    last=$(tail -n 1 "$tmp/cell.out")
    edits=$(grep -c "edit $mine" "$tmp/cell.out")
    case $status in 1|3) want_edits=1 ;; *) want_edits=0 ;; esac
    [ "$code" = "$exits" ] && [ "$last" = "$said" ] && [ "$edits" = "$want_edits" ] ||
        wrong="$wrong; exit $status: the cell said '$last' ($edits edits) and ended $code, not '$said' and $exits"
done <<TABLE
0|PASS|PASS|0
1|FAIL (wrong result)|FAIL (wrong result): edit $mine in the cell above, run it, then this one|0
3|PASS but slow|PASS but slow: edit $mine in the cell above, run it, then this one|0
4|NOT GRADED (right, but compute-sanitizer did not run)|not graded (right, but compute-sanitizer did not run)|0
77|not run (no GPU)|not run here (no GPU)|0
2||usage: labs/grade refused the call (above); did the cell above write $mine?|2
TABLE
[ -z "$wrong" ]
ok $? "the check cell of $lab says what each exit status of the grade asks, an edit only on 1 and 3" "${wrong#; }"
installs=$(grep -l "make -s lab-flags-" "$tmp/checks/"* 2>/dev/null)
[ -n "$installs" ]
ok $? "the labs that link a library Colab lacks (labs/rules.txt) install it in their check cells" "none does"
for cell in $installs; do
    lab=$(basename "$cell")
    lib=$(sed -n 's/.*make -s lab-flags-\([a-z]*\).*/\1/p' "$cell" | head -n 1)
    case $lib in
        mpi) want="apt-get .*install -y openmpi-bin libopenmpi-dev" ;;
        *) want="python3 -m pip install .*nvidia-$lib-cu12" ;;
    esac
    FAKE_FOUND=1 FAKE_INSTALL=0 check "$lab" 1 "FAIL (wrong result)"; c1=$?
    found=$(cat "$tmp/calls")
    FAKE_FOUND=0 FAKE_INSTALL=0 check "$lab" 1 "FAIL (wrong result)"; c2=$?
    installed=$(cat "$tmp/calls") said=$(grep -c "not available" "$tmp/cell.out")
    FAKE_FOUND=0 FAKE_INSTALL=1 check "$lab" 77 "not run (no $lib here)"; c3=$?
    [ $c1 = 0 ] && [ -z "$found" ] && [ $c2 = 0 ] && echo "$installed" | grep -q -- "$want" && [ "$said" = 0 ] &&
        [ $c3 = 0 ] && grep -q "could not be installed .*: $lab is not available here" "$tmp/cell.out" &&
        [ "$(tail -n 1 "$tmp/cell.out")" = "not run here (no $lib here)" ]
    ok $? "the check cell of $lab installs $lib only where make finds none; failing, says the lab is not available" \
        "exits $c1 $c2 $c3; calls where found: '$found'; where not: '$installed'; $(cat "$tmp/cell.out")"
done

if have_gpu && [ -z "${NOTEBOOK_RUN:-}" ]; then
    out=$(mktemp -d)
    sh tests/notebook.sh "$out" >"$out/run" 2>&1
    ok $? "course.ipynb runs, cell after cell, on this GPU" "$(tail -n 30 "$out/run")"
    rm -rf "$out"
elif [ -n "${NOTEBOOK_RUN:-}" ]; then
    skip "course.ipynb runs, cell after cell, on this GPU" "inside a run of the notebook"
else
    skip "course.ipynb runs, cell after cell, on this GPU" "no GPU"
fi
done_testing

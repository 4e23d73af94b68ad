#!/usr/bin/env python3
"""tests/notebook.py: the parts of course.ipynb and README.md that are made, not written by hand.

    python3 tests/notebook.py            says what differs from what --write would make (exit 1), or nothing
    python3 tests/notebook.py --write    rewrites them (make notebook)
    python3 tests/notebook.py --colab    prints the Colab link for this clone's origin (make colab)

Made here: the notebook's first code cell, a Colab form holding the course's repository (the Makefile's
COURSE_URL, the one place it is set), which clones it, or, left empty, asks for the hand-out archive
(make labs-handout) and unpacks it; the README's Colab line, from the same: a badge, or without a
repository how to upload the notebook; the notebook's labs section, one title, one %%writefile cell and
one check cell for each lab of the Makefile's LABS, from labs/LAB.cu (and labs/rules.txt: a lab that
links a library Colab lacks installs it first); and the notebook's layout: nbformat 4.4, as Jupyter
writes it, without outputs. The other cells are the course's prose and are kept as they are. LABS and
COURSE_URL come from the environment (make sets them).
Exit status: 0 done (or nothing differs), 1 something differs or cannot be made, 2 usage.
"""
import json
import os
import re
import subprocess
import sys

NOTEBOOK, README = "course.ipynb", "README.md"
COURSE = "/content/course"  # where the first cell puts the course on Colab (tests/notebook.sh maps /content)
BRANCH = "main"             # the branch the badge and make colab open

# The command a lab's check cell runs, in one place: {lab} is the lab's name, {file} the student's file.
# Colab is the student's own machine, where nothing is to be kept from the file: the grade runs it without
# the sandbox there, and its report says so (labs/README.md, "The sandbox").
CHECK = "LAB_SANDBOX=none sh labs/grade {lab} {file}"

BADGE_MARK = "<!-- Colab badge: make notebook writes the next line from the Makefile's COURSE_URL -->"
# The README's line where no repository is set: no link to click, but how to open the notebook all the same.
NO_BADGE = ("**Open in Colab:** no repository is set (the Makefile's `COURSE_URL`), so upload the notebook: "
            "in Colab, File > Upload notebook, `course.ipynb`; its first cell then asks for the hand-out "
            "archive, `labs-handout.tar.gz` (`make labs-handout`).")
# The form's line in the first cell: Colab shows a text field for it (tests/notebook.sh and tests/notebook.t
# find the cell by it, and put another address in it).
FORM = re.compile(r'^COURSE_URL = "([^"\\]*)"  #@param \{type:"string"\}$', re.M)

# A library a lab links (labs/rules.txt "LAB link LIB") that Colab lacks: its name, and how the check cell
# installs it the first time (as root, as Colab runs); where that fails, the grade says "not run here".
INSTALL = {
    "mpi": ("Open MPI", "apt-get",
            "{ apt-get -qq update && DEBIAN_FRONTEND=noninteractive apt-get -qq install -y openmpi-bin libopenmpi-dev; }"),
    "nccl": ("NCCL", "pip, NVIDIA's wheel for this CUDA",
             "python3 -m pip install -q \"nvidia-nccl-cu$(nvcc --version | sed -n 's/.*release \\([0-9]*\\)\\..*/\\1/p')\""),
}
# A GitHub remote: https://[user@]github.com/OWNER/NAME[.git], git@github.com:OWNER/NAME[.git], ssh://, git://.
GITHUB = re.compile(r"(?:https?://(?:[^@/]+@)?|ssh://(?:[^@/]+@)?|git://|[^@/:]+@)github\.com[:/]"
                    r"([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?")


def fail(message, status=1):
    print(f"tests/notebook.py: {message}", file=sys.stderr)
    sys.exit(status)


def github_repo(url):
    """owner/name from a GitHub URL (https or ssh), else None."""
    m = GITHUB.fullmatch(url.strip())
    return f"{m.group(1)}/{m.group(2)}" if m else None


def colab_link(repo):
    return f"https://colab.research.google.com/github/{repo}/blob/{BRANCH}/{NOTEBOOK}"


def lines(text):
    """A cell's source as Jupyter stores it: a list of lines, each but the last with its newline."""
    return text.splitlines(keepends=True)


def markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": lines(text)}


def code(text):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines(text)}


def text_of(cell):
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def form_cell(repo):
    """The first code cell: the course into COURSE, cloned from the form's address, or from the hand-out archive."""
    url = f"https://github.com/{repo}" if repo else ""
    return code(f"""#@title The course: cloned from its repository, or unpacked from the hand-out archive
# COURSE_URL is the course's git repository (make notebook writes it here from the Makefile's COURSE_URL).
# Left empty, the cell asks for the hand-out archive instead, labs-handout.tar.gz (make labs-handout
# makes it), through Colab's upload. Either way the course lands in {COURSE}; run again, the
# cell keeps what is there. Outside Colab, COURSE_ARCHIVE=PATH names the archive the upload would give
# (tests/notebook.sh).
COURSE_URL = "{url}"  #@param {{type:"string"}}
import os, shutil, subprocess, sys, tarfile, tempfile
COURSE = "{COURSE}"
url = COURSE_URL.strip()
if os.path.isdir(COURSE):
    print(f"{{COURSE}} is there already: kept (to start again, delete it and run this cell)")
elif url:
    print(f"cloning {{url}} into {{COURSE}} ...", flush=True)
    clone = subprocess.run(["git", "clone", "--depth", "1", url, COURSE],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(clone.stdout, end="")
    if clone.returncode != 0:
        sys.exit(f"git clone {{url}} failed (exit {{clone.returncode}}): is COURSE_URL the course's repository?")
else:
    try:
        from google.colab import files
    except ImportError:  # not on Colab: an archive on this machine stands in for the upload
        archive = os.environ.get("COURSE_ARCHIVE", "")
        if not archive:
            sys.exit("no COURSE_URL, and no upload outside Colab: COURSE_ARCHIVE=PATH names the hand-out archive")
    else:
        print("No COURSE_URL: choose the hand-out archive, labs-handout.tar.gz (make labs-handout makes it)")
        names = [name for name in files.upload() if name.endswith((".tar.gz", ".tgz"))]
        if len(names) != 1:
            sys.exit(f"{{len(names)}} .tar.gz files uploaded: run the cell again and choose labs-handout.tar.gz")
        archive = os.path.abspath(names[0])
    print(f"unpacking {{archive}} into {{COURSE}} ...", flush=True)
    unpacked = tempfile.mkdtemp(dir=os.path.dirname(COURSE))  # beside it: one rename puts it in place whole
    try:
        with tarfile.open(archive) as tar:
            if hasattr(tarfile, "data_filter"):  # (every path inside the folder, no device files)
                tar.extraction_filter = tarfile.data_filter
            tar.extractall(unpacked)
    except (OSError, tarfile.TarError) as e:
        shutil.rmtree(unpacked)
        sys.exit(f"{{archive}}: not a .tar.gz archive that unpacks here ({{e}})")
    tops = os.listdir(unpacked)  # the hand-out is one folder (cuda-course/) holding the course
    if len(tops) != 1 or not os.path.isfile(os.path.join(unpacked, tops[0], "labs", "grade")):
        shutil.rmtree(unpacked)
        sys.exit(f"{{archive}}: not the course's hand-out (one folder holding the course, labs/grade in it)")
    os.rename(os.path.join(unpacked, tops[0]), COURSE)
    os.rmdir(unpacked)
count = sum(len(names) for folder, _, names in os.walk(COURSE) if "/.git" not in folder + "/")
print(f"the course: {{COURSE}}, {{count}} files")""")


def lab_title(lab, text):
    """The statement's first paragraph, without its 'Lab NAME: ' opening."""
    first = []
    for line in text.splitlines():
        line = re.sub(r"^(/\*| \*) ?", "", line).strip()
        if not line:
            break
        first.append(line)
    title = " ".join(first)
    opening = f"Lab {lab}: "
    if not title.startswith(opening):
        fail(f"labs/{lab}.cu does not open with '/* {opening}' (CONTRIBUTING.md, Labs)")
    title = title[len(opening):]
    return title[0].upper() + title[1:]


def lab_libraries():
    """{lab: [library, ...]} from labs/rules.txt's "LAB link LIB" lines."""
    needs = {}
    with open("labs/rules.txt", encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and not words[0].startswith("#") and words[1] == "link":
                needs.setdefault(words[0], []).append(words[2])
    return needs


def install_step(lab, lib):
    """A check cell's first lines where the lab links a library Colab lacks: installed where make finds none."""
    name, how, command = INSTALL[lib]
    log = f"output/notebook/{lib}.log"
    return (f"# {lab} links {name}, which Colab lacks: installed the first time ({how}).\n"
            f"case $(make -s lab-flags-{lib} 2>/dev/null) in\n"
            f"    *link:*) ;;\n"
            f"    *) echo \"{lab} needs {name}: installing it ({how}; {log}) ...\"\n"
            f"       {command} >{log} 2>&1 ||\n"
            f"           echo \"{name} could not be installed ({log}): {lab} is not available here\" ;;\n"
            f"esac\n")


def check_cell(lab, mine, libs):
    """A lab's check cell: the grade's report as it comes, then what its exit status (labs/grade's header)
    asks of the student: an edit only on 1 and 3; none where the grade was not given (4, 77), which says why."""
    log = f"output/notebook/{lab}.log"
    installs = "".join(install_step(lab, lib) for lib in libs if lib in INSTALL)
    return code(f"%%bash\nset -eo pipefail\n"
                f"# Check {mine} (after each change, run the cell above first).\n"
                f"mkdir -p output/notebook\n"
                f"{installs}"
                f"echo \"checking {mine} (a lab's first check builds the lab's judge first)\"\n"
                f"status=0\n"
                f"{CHECK.format(lab=lab, file=mine)} 2>&1 | tee {log} || status=$?\n"
                f"# The grade's exit status (labs/grade): 0 PASS, 1 FAIL, 3 PASS but slow, 4 not graded, 77 not run,\n"
                f"# 2 usage; its verdict line says why.\n"
                f"verdict=$(sed -n 's/^grade-verdict //p' {log})\n"
                f"why=$(echo \"$verdict\" | sed -n 's/^[^(]*(\\(.*\\))$/\\1/p')\n"
                f"case $status in\n"
                f"    0) echo \"PASS\" ;;\n"
                f"    1|3) echo \"${{verdict:-FAIL}}: edit {mine} in the cell above, run it, then this one\" ;;\n"
                f"    4) echo \"not graded (${{why:-$verdict}})\" ;;\n"
                f"    77) echo \"not run here (${{why:-$verdict}})\" ;;\n"
                f"    2) echo \"usage: labs/grade refused the call (above); did the cell above write {mine}?\"; exit 2 ;;\n"
                f"    *) echo \"labs/grade ended with exit $status (above)\"; exit \"$status\" ;;\n"
                f"esac")


def labs_section(labs):
    cells = [markdown(
        "## Labs: write a kernel, and the course checks it\n"
        "\n"
        "Each lab is one file holding only what you write, with its statement at the top; `labs/README.md` lists\n"
        "the labs and explains the checks. Each lab below has two cells. The first writes the lab's file as it is\n"
        "handed out (`my_ch1_map.cu` for `ch1_map`): fill in the code where it says `your code here`, then run the\n"
        "cell. The second builds your file with the lab's harness and checks it: the result at sizes chosen to\n"
        "break the usual mistakes, compute-sanitizer's reports, the speed, and a verdict. As handed out every lab\n"
        "fails. The check cell's last line says what to do: PASS; FAIL, or PASS but slow, with the file to edit;\n"
        "\"not graded\" or \"not run here\", and why (a lab this GPU cannot run, a library Colab could not\n"
        "install), where there is nothing for you to change. Colab is your own machine: the check runs your file\n"
        "without the sandbox a class's grading uses (`LAB_SANDBOX=none`), and the report says so.")]
    needs = lab_libraries()
    for lab in labs:
        path = f"labs/{lab}.cu"
        if not os.path.isfile(path):
            fail(f"{path}: no such file (the Makefile's LABS names {lab})")
        with open(path) as f:
            text = f.read()
        mine = f"my_{lab}.cu"
        cells += [markdown(f"### Lab {lab}\n\n{lab_title(lab, text)}"),
                  code(f"%%writefile {mine}\n{text}"),
                  check_cell(lab, mine, needs.get(lab, []))]
    return cells


def heading(cell, level):
    return cell["cell_type"] == "markdown" and text_of(cell).startswith("#" * level + " ")


def made_notebook(nb, labs, repo):
    """The notebook with its made parts made again; the hand-written cells kept."""
    cells = []
    for cell in nb.get("cells", []):
        kept = {k: cell[k] for k in ("cell_type", "metadata", "source", "attachments") if k in cell}
        kept["source"] = lines(text_of(cell))
        if cell.get("cell_type") == "code":
            kept.update(execution_count=None, outputs=[])
        cells.append(kept)
    forms = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and FORM.search(text_of(c))]
    if len(forms) != 1:
        fail(f"{NOTEBOOK}: {len(forms)} form cells (code cells with a line 'COURSE_URL = \"...\"  #@param ...'), not one")
    cells[forms[0]] = form_cell(repo)
    starts = [i for i, c in enumerate(cells) if heading(c, 2) and text_of(c).startswith("## Labs")]
    if len(starts) != 1:
        fail(f"{NOTEBOOK}: {len(starts)} labs sections (markdown cells opening with '## Labs'), not one")
    end = next((i for i in range(starts[0] + 1, len(cells)) if heading(cells[i], 2)), len(cells))
    cells[starts[0]:end] = labs_section(labs)
    return {"cells": cells, "metadata": nb.get("metadata", {}), "nbformat": 4, "nbformat_minor": 4}


def dumps(nb):
    """nbformat's own layout: one-space indents, sorted keys, UTF-8 as is, a newline at the end."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def made_readme(readme, repo):
    lines_ = readme.split("\n")
    marks = [i for i, line in enumerate(lines_) if line == BADGE_MARK]
    if len(marks) != 1 or marks[0] + 1 >= len(lines_):
        fail(f"{README}: {len(marks)} lines '{BADGE_MARK}', not one followed by a line")
    badge = f"[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]({colab_link(repo)})" if repo else NO_BADGE
    lines_[marks[0] + 1] = badge
    return "\n".join(lines_)


def course_repo():
    url = os.environ.get("COURSE_URL", "").strip()
    if not url:
        return None
    repo = github_repo(url)
    if not repo or not url.startswith("https://"):
        fail(f"COURSE_URL={url}: not https://github.com/OWNER/NAME (Colab opens notebooks from GitHub)")
    return repo


def colab():
    try:
        origin = subprocess.run(["git", "remote", "get-url", "origin"], capture_output=True, text=True).stdout.strip()
    except OSError:
        origin = ""
    if not origin:
        fail("this clone has no remote 'origin': push the course to a repository on GitHub, then name it "
             "with git remote add origin and the repository's address")
    repo = github_repo(origin)
    if not repo:
        fail("origin is not a GitHub repository (https://github.com/OWNER/NAME or git@github.com:OWNER/NAME): "
             "Colab opens notebooks from GitHub")
    print(colab_link(repo))
    set_repo = course_repo()
    if set_repo is None:
        print(f"note: COURSE_URL is empty in the Makefile, so the notebook asks for the hand-out archive and the "
              f"README has no badge: set COURSE_URL := https://github.com/{repo}, run make notebook, commit and push.")
    elif set_repo.lower() != repo.lower():
        print(f"note: the notebook clones COURSE_URL's https://github.com/{set_repo}, not origin's {repo}.")


def main(argv):
    if argv[1:] == ["--colab"]:
        return colab()
    if argv[1:] not in ([], ["--write"]):
        fail("usage: python3 tests/notebook.py [--write | --colab]", 2)
    if "LABS" not in os.environ:
        fail("LABS is not set: run make notebook (or give LABS and COURSE_URL as the Makefile does)", 2)
    labs, repo = os.environ["LABS"].split(), course_repo()
    with open(NOTEBOOK, encoding="utf-8") as f:
        old_nb = f.read()
    with open(README, encoding="utf-8") as f:
        old_readme = f.read()
    try:
        nb = json.loads(old_nb)
    except ValueError as e:
        fail(f"{NOTEBOOK} is not JSON: {e}")
    new_nb, new_readme = dumps(made_notebook(nb, labs, repo)), made_readme(old_readme, repo)
    if argv[1:] == ["--write"]:
        for path, old, new in ((NOTEBOOK, old_nb, new_nb), (README, old_readme, new_readme)):
            if new != old:
                with open(path + ".new", "w", encoding="utf-8") as f:
                    f.write(new)
                os.replace(path + ".new", path)
                print(f"{path}: rewritten")
        return 0
    differ = []
    if new_nb != old_nb:
        made = json.loads(new_nb)["cells"]
        old_cells = nb.get("cells", [])
        where = next((i for i in range(max(len(made), len(old_cells)))
                      if i >= len(made) or i >= len(old_cells) or dumps(made[i]) != dumps(old_cells[i])), None)
        first = (text_of(made[where]) if where is not None and where < len(made) else "(no cell)").partition("\n")[0]
        what = f"cell {where + 1} ({first!r})" if where is not None else "its layout (nbformat 4.4, sorted keys, no outputs)"
        differ.append(f"{NOTEBOOK} differs from what make notebook makes, first at {what}")
    if new_readme != old_readme:
        differ.append(f"{README}'s Colab badge line differs from what make notebook makes")
    for line in differ:
        print(line)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

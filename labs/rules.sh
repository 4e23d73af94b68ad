#!/bin/sh
# labs/rules.sh: a lab's file checked against labs/rules.txt, read from what the compiler made of it,
# never from its text or its PTX (a comment inside an instruction's name hides it from a text search,
# and a path with "red." in it looks like one): the machine code (SASS) of every cubin nvcc embedded
# (cuobjdump -sass, read by labs/sass.awk), the cubins' ELF sections (cuobjdump -elf, labs/elf.awk), the
# host object's relocations and symbols (binutils) and the headers nvcc read (its -MD file).
#   sh labs/rules.sh LAB DIR [HANDOUT_DIR]
# DIR holds student.o, the file compiled alone by the course's nvcc line (make -s lab-nvcc, and the
# lab's library's compile flags), student.d, that compile's -MD file, and the file compiled, whose first
# line may be a #line naming the student's file; HANDOUT_DIR the same for the hand-out labs/LAB.cu,
# which a lab whose kernels are given (rules.txt "given") needs. Prints one refusal a line,
# "  SENTENCE (what was found)", in the order of the checks below; exit 0 when there is none, 1 when
# there are some, 2 for bad usage or a tool missing (which, and how to get it).
# Environment: LAB_NVCC, the course's nvcc line, and CUOBJDUMP, the cuobjdump to use (unset: make's
# lab-nvcc and lab-cuobjdump); LAB_LIB_FLAGS, the compile and link flags of the libraries the lab links
# (unset: make's lab-flags-LIB for each "link" line); LAB_RULES, another rules file (the tests').
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
rules=${LAB_RULES:-$here/rules.txt}
say_usage() { echo "usage: sh labs/rules.sh LAB DIR [HANDOUT_DIR]   (DIR: student.o and student.d)" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || say_usage
lab=$1 dir=$2 handout=${3:-}
case $lab in ''|*[!a-z0-9_]*) echo "labs/rules.sh: '$lab' is not a lab's name" >&2; say_usage ;; esac
need() { echo "labs/rules.sh: needs $*" >&2; exit 2; }
# Names sorted byte by byte, the same on every machine: the first refusal (the grade's verdict) must not
# change with the grading machine's locale (en_US sorts cudaGetDriverEntryPoint before cuModuleLoadData).
LC_ALL=C
export LC_ALL
for tool in awk sed sort paste cut objdump nm c++filt realpath xargs make mktemp; do
    command -v $tool >/dev/null 2>&1 || need "$tool (binutils: objdump, nm, c++filt; coreutils, findutils, make)"
done
for f in "$dir/student.o" "$dir/student.d" ${handout:+"$handout/student.o"}; do
    [ -f "$f" ] && [ -r "$f" ] || { echo "labs/rules.sh: $f: no such file" >&2; say_usage; }
done
[ -r "$rules" ] || { echo "labs/rules.sh: $rules: no such file" >&2; exit 2; }
tab=$(printf '\t')
rules_for() {  # rules_for KIND: "PATTERN<tab>SENTENCE" of the lab's and everyone's lines of that kind
    awk -v lab="$lab" -v kind="$1" '!/^[[:space:]]*(#|$)/ && ($1 == lab || $1 == "*") && $2 == kind {
        sentence = ""; for (i = 4; i <= NF; i++) sentence = sentence (i > 4 ? " " : "") $i
        print $3 "\t" sentence }' "$rules"
}
from_make() { make -s -C "$root" --no-print-directory "$1" 2>/dev/null; }
nvcc_line=${LAB_NVCC:-$(from_make lab-nvcc)}
cuobjdump=${CUOBJDUMP:-$(from_make lab-cuobjdump)}
[ -n "$cuobjdump" ] && [ -x "$cuobjdump" ] || need "cuobjdump and nvdisasm, which read the file's machine code:" \
    "this CUDA Toolkit has none (sh tests/install_tools.sh puts NVIDIA's in .tools/bin), or CUOBJDUMP=PATH"
PATH=$(dirname "$cuobjdump"):$PATH  # cuobjdump -sass runs nvdisasm, found beside it or on PATH
export PATH
command -v nvdisasm >/dev/null 2>&1 || need "nvdisasm, beside $cuobjdump or on PATH (sh tests/install_tools.sh)"
links=$(rules_for link | cut -f1)
if [ -n "${LAB_LIB_FLAGS+set}" ]; then
    lib_flags=$LAB_LIB_FLAGS
else
    lib_flags=$(for lib in $links; do from_make "lab-flags-$lib" | sed -n 's/^[a-z]*: *//p'; done | tr '\n' ' ')
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$tmp/refusals
: >"$out"
demangle() {  # demangle FILE: FILE's lines "MANGLED<tab>REST", the first field demangled
    cut -f1 "$1" | c++filt >"$1.names"
    cut -f2- "$1" | paste "$1.names" -
}

# ==== Headers ====
# The files nvcc read, from its -MD file (make's syntax: "\ " a space in a name, "\" at a line's end
# continues it, "$$" a $), each by its path and its real path (a relative one from the folder the file
# was compiled in). The first is the file compiled; the build step's #line on its first line names the
# student's file, which -MD lists too: neither is a header.
awk '{ line = $0; if (NR == 1) sub(/^[^:]*:[[:space:]]*/, "", line); sub(/\\$/, "", line); all = all " " line }
     END { gsub(/\\ /, "\001", all); gsub(/\\#/, "#", all); gsub(/\$\$/, "$", all)
           n = split(all, word, /[[:space:]]+/)
           for (i = 1; i <= n; i++) if (word[i] != "") { gsub("\001", " ", word[i]); print word[i] } }' \
    "$dir/student.d" >"$tmp/deps"
compiled=$(head -n 1 "$tmp/deps")
case $compiled in /*) ;; *) compiled=$dir/$compiled ;; esac
named=$(sed -n '1s/^#line 1 "\(.*\)"$/\1/p' "$compiled" 2>/dev/null)
tail -n +2 "$tmp/deps" | named=$named awk '$0 != ENVIRON["named"]' >"$tmp/headers"
(cd "$dir" && xargs -r -d '\n' realpath -m -- <"$tmp/headers") | paste "$tmp/headers" - >"$tmp/header.paths"
# The header rules, but those that name a library the lab links (cublas, nccl).
rules_for header | while IFS="$tab" read -r pattern sentence; do
    for lib in $links; do case $pattern in *"$lib"*) continue 2 ;; esac; done
    pattern=$pattern awk -F"$tab" -v s="$sentence" '$1 ~ ENVIRON["pattern"] || $2 ~ ENVIRON["pattern"] {
        print "  " s " (it includes " $1 ")"; exit }' "$tmp/header.paths"
done >>"$out"

# ==== The fat binary: nvcc's, alone ====
# cuobjdump reads the object's first section named .nv_fatbin, from its start; the runtime loads the fat
# binary that nvcc's wrapper (in .nvFatBinSegment) points at. They are the same only where the object has
# one .nv_fatbin section, one fat binary filling it from its start (a 16-byte header and the size it gives;
# less than a header left after it), and one pointer in .nvFatBinSegment, to that start. Bytes of the
# file's own there (a fat binary of its own read in place of nvcc's, or a header cuobjdump stops on) are a
# module of its own: refused before cuobjdump reads anything, the checks below left out (what they would
# read is not what runs).
modules_rule="kernels come from your file, compiled by nvcc: no module of your own, no code loaded by name"
objdump -h "$dir/student.o" | awk '$2 == ".nv_fatbin" { print $3, $6 }' >"$tmp/fatbin"
objdump -r -j .nvFatBinSegment "$dir/student.o" 2>/dev/null |
    awk 'NF == 3 && $1 ~ /^[0-9a-f]+$/ { print $3 }' >"$tmp/fatbin.pointers"
forged=""
if [ "$(wc -l <"$tmp/fatbin")" -ne 1 ]; then
    forged="$(wc -l <"$tmp/fatbin" | tr -d ' ') sections named .nv_fatbin, where nvcc makes 1"
else
    read -r size at <"$tmp/fatbin"
    od -An -v -tu1 -j $((0x$at)) -N 16 "$dir/student.o" | tr '\n' ' ' |
        awk -v s=$((0x$size)) '{ f = 0; for (i = 16; i >= 9; i--) f = f * 256 + $i; left = s - 16 - f
                                 fits = $1 == 80 && $2 == 237 && $3 == 85 && $4 == 186 && $7 + 256 * $8 == 16 &&
                                        left >= 0 && left < 16 } END { exit !fits }' ||
        forged="bytes of its own beside nvcc's fat binary in the .nv_fatbin section"
fi
pointers=$(tr '\n' ' ' <"$tmp/fatbin.pointers")
if [ -z "$forged" ] && [ "$pointers" != ".nv_fatbin " ]; then
    forged=".nvFatBinSegment points at ${pointers:-nothing }where nvcc's wrapper points once, at the start of"
    forged="$forged .nv_fatbin"
fi
if [ -n "$forged" ]; then
    echo "  $modules_rule ($forged)" >>"$out"
    awk '!seen[$0]++' "$out"
    exit 1
fi

# ==== The device code: every cubin, its sections and its machine code ====
elf() {  # elf DIR NAME: DIR/student.o's cubins' ELF (cuobjdump -elf), read by elf.awk into $tmp/NAME.device
    "$cuobjdump" -elf "$1/student.o" >"$tmp/$2.elf" 2>"$tmp/$2.elf.err" ||
        { sed 's/^/  /' "$tmp/$2.elf.err" >&2; echo "labs/rules.sh: cuobjdump cannot read $1/student.o" >&2; exit 2; }
    awk -f "$here/elf.awk" "$tmp/$2.elf" >"$tmp/$2.device"
}
# disassemble DIR NAME [DIR NAME]: the machine code of each DIR/student.o's cubins that have any (cuobjdump
# -sass), an architecture a process, all at once (nvdisasm takes a third of a second to start for each),
# read by sass.awk into $tmp/NAME.ins (an instruction a line) and $tmp/NAME.blocks (the functions as printed).
disassemble() {
    pids="" names=""
    while [ $# -ge 2 ]; do
        [ -f "$tmp/$2.device" ] || elf "$1" "$2"
        awk -F"$tab" '$1 == "code" && $3 > 0 { print $2 }' "$tmp/$2.device" | sort -t_ -k2,2n -u >"$tmp/$2.archs"
        while read -r arch; do
            "$cuobjdump" -sass -arch "$arch" "$1/student.o" >"$tmp/$2.sass.$arch" 2>"$tmp/$2.err.$arch" &
            pids="$pids $!"
        done <"$tmp/$2.archs"
        names="$names $2"
        shift 2
    done
    for pid in $pids; do
        wait "$pid" || { cat "$tmp"/*.err.* >&2; echo "labs/rules.sh: cuobjdump -sass failed" >&2; exit 2; }
    done
    for name in $names; do
        while read -r arch; do cat "$tmp/$name.sass.$arch"; done <"$tmp/$name.archs" >"$tmp/$name.sass"
        awk -f "$here/sass.awk" "$tmp/$name.sass" >"$tmp/$name.ins"
        awk -v blocks=1 -f "$here/sass.awk" "$tmp/$name.sass" >"$tmp/$name.blocks"
    done
}
elf "$dir" mine
given=$(rules_for given | head -n 1)
rules_for sass >"$tmp/sass.rules"
rules_for sreg >"$tmp/sreg.rules"
if [ -n "$given" ]; then
    [ -n "$handout" ] || { echo "labs/rules.sh: $lab's kernels are given (rules.txt): HANDOUT_DIR is needed" >&2
                           say_usage; }
    disassemble "$dir" mine "$handout" theirs
elif [ -s "$tmp/sass.rules" ] || [ -s "$tmp/sreg.rules" ]; then
    disassemble "$dir" mine
fi
# An instruction rule: the first instruction whose opcode matches, in any function, for any architecture.
if [ -s "$tmp/sass.rules" ]; then
    awk -F"$tab" 'NR == FNR { pattern[++n] = $1; sentence[n] = $2; next }
        { for (i = 1; i <= n; i++) if (!(i in hit) && $3 ~ pattern[i]) hit[i] = $2 "\t" sentence[i] "\t" $1 "\t" $3 }
        END { for (i = 1; i <= n; i++) if (i in hit) print hit[i] }' "$tmp/sass.rules" "$tmp/mine.ins" >"$tmp/hits"
    demangle "$tmp/hits" | awk -F"$tab" '{ printf "  %s (in %s for %s: %s)\n", $2, $1, $3, $4 }' >>"$out"
fi
# A special-register rule: the first register of the GPU's (SR_GLOBALTIMERLO, SR_CLOCKLO) that an instruction
# of any function reads, by its name, whatever the instruction (S2R, CS2R, S2UR read them all; SR_TID.X is
# threadIdx.x).
if [ -s "$tmp/sreg.rules" ]; then
    awk -F"$tab" 'NR == FNR { pattern[++n] = $1; sentence[n] = $2; next }
        { line = $4
          while (match(line, /SR_[A-Z0-9_.]+/)) {
              reg = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
              for (i = 1; i <= n; i++) if (!(i in hit) && reg ~ pattern[i]) hit[i] = $2 "\t" sentence[i] "\t" $1 "\t" $4
          } }
        END { for (i = 1; i <= n; i++) if (i in hit) print hit[i] }' "$tmp/sreg.rules" "$tmp/mine.ins" >"$tmp/sreg.hits"
    demangle "$tmp/sreg.hits" | awk -F"$tab" '{ printf "  %s (in %s for %s: %s)\n", $2, $1, $3, $4 }' >>"$out"
fi
# Given kernels: each function of the file is one of the given names, its machine code the hand-out's
# function's, line for line (addresses and encodings too), for every architecture built.
if [ -n "$given" ]; then
    cut -f2 "$tmp/mine.blocks" | sort -u >"$tmp/functions"
    c++filt -p <"$tmp/functions" | paste "$tmp/functions" - >"$tmp/plain"
    given_names="^(${given%%"$tab"*})\$" awk -F"$tab" 'FILENAME == ARGV[1] { plain[$1] = $2; next }
        FILENAME == ARGV[2] { theirs[$1 FS $2] = theirs[$1 FS $2] $3 "\n"; next }
        { key = $1 FS $2; if (!(key in mine)) order[++n] = key; mine[key] = mine[key] $3 "\n" }
        END { for (i = 1; i <= n; i++) { split(order[i], k, FS); if (k[2] in said) continue
                  if (plain[k[2]] !~ ENVIRON["given_names"]) { said[k[2]]; print k[2] "\tis a kernel of your own" }
                  else if (mine[order[i]] != theirs[order[i]]) { said[k[2]]
                      print k[2] "\tis not the one given: its " k[1] " code differs from the hand-out'"'"'s" } } }' \
        "$tmp/plain" "$tmp/theirs.blocks" "$tmp/mine.blocks" >"$tmp/given"
    demangle "$tmp/given" | awk -F"$tab" -v s="${given#*"$tab"}" '{ printf "  %s (%s %s)\n", s, $1, $2 }' >>"$out"
fi
# Memory of its own on the GPU: the global sections of each cubin (__device__ and __managed__ variables,
# a .global declared in inline asm, printf's and assert's strings), 1 KiB at most; and malloc called in
# device code (malloc, new, __nv_aligned_device_malloc: the device runtime's heap), where printf's
# vprintf is no memory of its own.
own_bytes=1024  # (labs/README.md says 1 KiB)
awk -F"$tab" -v most=$own_bytes '$1 == "bytes" && $3 > most { print; exit }' "$tmp/mine.device" |
    while IFS="$tab" read -r _ arch bytes what; do
        echo "  no memory of your own on the GPU: the lab gives every buffer your code needs ($bytes bytes of" \
            "global variables in the code for $arch, 1 KiB at most:$what)"
    done >>"$out"
awk -F"$tab" '$1 == "calls" && $3 ~ /malloc/ { print; exit }' "$tmp/mine.device" |
    while IFS="$tab" read -r _ arch name; do
        echo "  no memory of your own on the GPU: the lab gives every buffer your code needs (the code for" \
            "$arch calls $name: malloc or new in a kernel)"
    done >>"$out"

# ==== The host object ====
# Kernel modules: nvcc's code registers the one fatbinary it embedded, one reference to
# __cudaRegisterFatBinary (in a file with kernels as in one without); another registers a module of the
# file's own, whose kernels no rule read, whatever the name of the function it is in. A second cubin for
# one architecture is a module nvcc did not make. Code loaded by name or from bytes (cuModuleLoadData,
# cudaLibraryLoadData, dlsym, ...) is for the `call` lines.
"$cuobjdump" -lelf -lptx "$dir/student.o" >"$tmp/modules" 2>&1 ||
    { sed 's/^/  /' "$tmp/modules" >&2; echo "labs/rules.sh: cuobjdump cannot read $dir/student.o" >&2; exit 2; }
registrations=$(objdump -r "$dir/student.o" | awk '$3 ~ /^__cudaRegisterFatBinary([-+]0x[0-9a-f]+)?$/' | wc -l)
[ "$registrations" -eq 1 ] || echo "  kernels come from your file, compiled by nvcc: no module of your own, no code" \
    "loaded by name ($registrations references to __cudaRegisterFatBinary, where nvcc's code makes 1)" >>"$out"
twice=$(sed -n -e 's/^ELF file.*\.\(sm_[0-9a-z]*\)\.cubin$/\1 cubins/p' \
              -e 's/^PTX file.*\.\(sm_[0-9a-z]*\)\.ptx$/\1 PTX files/p' "$tmp/modules" | sort | uniq -d | head -n 1)
[ -z "$twice" ] || echo "  kernels come from your file, compiled by nvcc: no module of your own, no code loaded" \
    "by name (two $twice in the object, where nvcc embeds one)" >>"$out"
# Host functions it calls (nm -u), by their names and by their names demangled without parameters:
# refused by a `call` line unless an `allow` line of the lab names them; said in the order of the rules.
# (a symbol version is left out: .symver makes clock_gettime "clock_gettime@GLIBC_2.17", the same function)
nm -u "$dir/student.o" | awk '{ name = $NF; sub(/@.*/, "", name); print name }' | sort -u >"$tmp/calls"
c++filt -p <"$tmp/calls" | paste "$tmp/calls" - >"$tmp/calls.plain"
{ rules_for call | sed 's/^/call\t/'; rules_for allow | sed 's/^/allow\t/'; } >"$tmp/call.rules"
awk -F"$tab" 'NR == FNR { if ($1 == "allow") allow = allow (allow == "" ? "" : "|") $2
                          else { pattern[++n] = "^(" $2 ")$"; sentence[n] = $3 }; next }
    allow != "" && ($1 ~ "^(" allow ")$" || $2 ~ "^(" allow ")$") { next }
    { for (i = 1; i <= n; i++) if ($1 ~ pattern[i] || $2 ~ pattern[i]) { print i "\t" $1 "\t" sentence[i]; next } }' \
    "$tmp/call.rules" "$tmp/calls.plain" | sort -t"$tab" -k1,1n -k2,2 | cut -f2- >"$tmp/called"
demangle "$tmp/called" | awk -F"$tab" '{ printf "  %s (it calls %s)\n", $2, $1 }' >>"$out"
# Instructions of its host code (objdump -d), by their mnemonics: a `host` line (a clock read by rdtsc
# calls nothing).
rules_for host >"$tmp/host.rules"
if [ -s "$tmp/host.rules" ]; then
    objdump -d --no-show-raw-insn "$dir/student.o" |
        awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ { split($2, w, " "); print w[1] }' | sort -u >"$tmp/host.ops"
    awk -F"$tab" 'NR == FNR { pattern[++n] = $1; sentence[n] = $2; next }
        { for (i = 1; i <= n; i++)
              if ($0 ~ pattern[i]) { printf "  %s (its host code has %s)\n", sentence[i], $0; next } }' \
        "$tmp/host.rules" "$tmp/host.ops" >>"$out"
fi

# ==== What nvcc says of itself ====
# Its commands (--dryrun), through a wrapper script or a symlink as from the toolkit's bin/: its include
# and library folders, between quotes on its INCLUDES, SYSTEM_INCLUDES and LIBRARIES lines ("-I/x",
# "-isystem" "/x", "-L/x"), and the host compiler it preprocesses with, whose system folders it uses.
# shellcheck disable=SC2086  # nvcc_line is a command line, split on purpose
$nvcc_line --dryrun -c -x cu /dev/null -o "$tmp/dry.o" >"$tmp/dryrun" 2>&1 ||
    need "nvcc, the course's ('$nvcc_line --dryrun' failed: $(tail -n 1 "$tmp/dryrun"))"
quoted() { awk -F'"' -v var="$1" 'index($0, "#$ " var "=") == 1 { for (i = 2; i <= NF; i += 2) print $i }' \
               "$tmp/dryrun"; }
# shellcheck disable=SC2086  # the flags of make's lab-flags-LIB lines, split on purpose (no spaces in them)
words() { printf '%s\n' $lib_flags; }
folders() {  # folders -I|-L: the folders of those flags (-I/x, -isystem /x, -L/x) among the words of stdin
    awk -v flag="$1" '{ word[++n] = $0 } END { for (i = 1; i <= n; i++)
        if (word[i] == flag || (flag == "-I" && word[i] == "-isystem")) print word[++i]
        else if (index(word[i], flag) == 1 && length(word[i]) > 2) print substr(word[i], 3) }'
}
cc=$(awk '/^#\$ / && / -E / && / -x c\+\+ / { print $2; exit }' "$tmp/dryrun")
command -v "${cc:=gcc}" >/dev/null 2>&1 || need "the host compiler nvcc uses, '$cc'"
{ { quoted INCLUDES; quoted SYSTEM_INCLUDES; words; } | folders -I
  "$cc" -E -x c++ -v /dev/null 2>&1 >/dev/null | awk '/search starts here:$/ { on = 1; next }
      /^End of search list/ { on = 0 } on && NF { sub(/^ /, ""); print }'; } >"$tmp/includes"
{ quoted LIBRARIES; words; } | folders -L >"$tmp/libdirs"
# Headers from the CUDA Toolkit, the libraries the lab links and the system only, by their real paths
# (not the course's solutions, not a file of one's own that the checksum never saw).
xargs -r -d '\n' realpath -m -- <"$tmp/includes" >"$tmp/roots"
awk -F"$tab" 'NR == FNR { root[++n] = $0 "/"; next }
    { for (i = 1; i <= n; i++) if (index($2, root[i]) == 1) next
      print "  a lab'"'"'s file includes the CUDA Toolkit'"'"'s headers and the system'"'"'s only (it includes " $2 ")"
      exit }' "$tmp/roots" "$tmp/header.paths" >>"$out"

# ==== Names it defines ====
# A name the file defines (strongly) that a library the runner links defines too would take the place of
# that library's function in the runner: cudart's, the C and C++ libraries', the lab's. Kernels and
# functions in the global namespace (_Z and a digit: no library here defines one) are left out, and with
# them, in most files, every name: the libraries' names are read only when one is left.
# (weak, indirect and unique definitions too, where the name has C linkage: a weak write takes libc's place
# all the same; C++'s weak ones are the inline functions and templates every file instantiates)
nm -g --defined-only "$dir/student.o" |
    awk 'NF == 3 && ($2 ~ /^[TDBRGSC]$/ || ($2 ~ /^[WViu]$/ && $3 !~ /^_Z/)) && $3 !~ /^_Z[0-9]/ {
         sub(/@.*/, "", $3); print $3 }' |
    sort -u >"$tmp/defined"
if [ -s "$tmp/defined" ]; then
    { while read -r d; do
          for f in libcudart_static.a libcudart.so; do [ -f "$d/$f" ] && echo "$d/$f"; done
      done <"$tmp/libdirs"
      for f in libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1; do
          f=$("$cc" -print-file-name=$f) && [ -f "$f" ] && echo "$f"
      done
      words | sed -n 's/^-l\(.\)/\1/p' | while read -r name; do
          while read -r d; do
              case $name in :*) f=$d/${name#:} ;; *) f=$d/lib$name.so; [ -f "$f" ] || f=$d/lib$name.a ;; esac
              [ -f "$f" ] && { echo "$f"; break; }
          done <"$tmp/libdirs"
      done; } | sort -u >"$tmp/libraries"
    while read -r library; do
        case $library in *.a) symbols=-g ;; *) symbols=-D ;; esac
        nm "$symbols" --defined-only "$library" 2>/dev/null |
            awk -v lib="${library##*/}" 'NF == 3 { sub(/@.*/, "", $3); print $3 "\t" lib }'
    done <"$tmp/libraries" >"$tmp/theirs"
    awk -F"$tab" 'NR == FNR { lib[$1] = $2; next } ($1 in lib) { print $1 "\t" lib[$1] }' \
        "$tmp/theirs" "$tmp/defined" >"$tmp/clash"
    demangle "$tmp/clash" | awk -F"$tab" '{ c = ($1 ~ /[(:]/) ? "" : " with C linkage"
        printf "  it defines %s%s, which would take the place of %s'"'"'s (rename it, or make it static)\n", $1, c, $2
        }' >>"$out"
fi

[ -s "$out" ] || exit 0
awk '!seen[$0]++' "$out"
exit 1

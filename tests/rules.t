#!/bin/sh
# labs/rules.sh, the labs' rules read from the machine code (labs/rules.txt). Its readers first, on
# listings written here: labs/sass.awk (an opcode a line, the predicate apart, ptxas's constant moves
# not taken for arithmetic) and labs/elf.awk (the cubins' global sections, the device functions they
# call). Then files compiled as labs/grade compiles one, with the course's nvcc line: each way to hide
# what a rule refuses (an instruction with a comment in its name, a .global in inline asm, a module
# registered by hand, a fat binary of its own beside nvcc's, code loaded by name, a library's name defined
# again, a clock read by an instruction of the host code, a wait for the whole GPU where a lab asks for its
# stream's) is refused, and the honest shapes the old text checks refused are not (a byte-order mark, an
# extern "C" kernel, a path with red, atom, spaces, quotes and unicode in it, std::vector, scratch memory,
# events and streams, a copy to a symbol on the GPU, nvcc through a wrapper script or a symlink), nor a
# stream's wait by an event. No GPU needed; the files are skipped where cuobjdump and nvdisasm cannot be
# had (sh tests/install_tools.sh fetches them).
. tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$PWD

# ==== The readers ====
# A listing of cuobjdump -sass as it prints one: an instruction's line, its encoding's line below it.
cat >"$tmp/listing" <<'EOF'

Fatbin elf code:
================
arch = sm_90
code version = [1,8]

	code for sm_90
		Function : _Z4taskPfS_
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                                  /* 0x00000a00ff017b82 */
                                                                                           /* 0x000fe40000000800 */
        /*0010*/               @P0 REDG.E.ADD.STRONG.GPU desc[UR4][R2.64], R5 ;            /* 0x000000050200798e */
                                                                                           /* 0x000fe2000c10e184 */
        /*0020*/              @!PT HFMA2.MMA R3, -RZ, RZ, 0, 2.384185791015625e-07 ;      /* 0x00000004ff037435 */
                                                                                           /* 0x000fe200000001ff */
        /*0030*/                   HFMA2 R4, R5, R6, -RZ ;                                 /* 0x0000000605047231 */
                                                                                           /* 0x000fe200000000ff */
        /*0040*/                   EXIT ;                                                  /* 0x000000000000794d */
                                                                                           /* 0x000fea0003800000 */
        ..........
EOF
awk -f labs/sass.awk "$tmp/listing" | cut -f1-3 | tr '\t' ' ' >"$tmp/ops"
printf '%s\n' "sm_90 _Z4taskPfS_ LDC" "sm_90 _Z4taskPfS_ REDG.E.ADD.STRONG.GPU" "sm_90 _Z4taskPfS_ MOV" \
    "sm_90 _Z4taskPfS_ HFMA2" "sm_90 _Z4taskPfS_ EXIT" | cmp -s - "$tmp/ops"
ok $? "sass.awk: an opcode a line, after any predicate; HFMA2 Rd, -RZ, RZ, A, B is a MOV, HFMA2 of registers not" \
    "$(cat "$tmp/ops")"
awk -v blocks=1 -f labs/sass.awk "$tmp/listing" >"$tmp/blocks"
[ "$(wc -l <"$tmp/blocks")" = 10 ] &&
    grep -q -x -F "sm_90$(printf '\t')_Z4taskPfS_$(printf '\t')/*0040*/ EXIT ; /* 0x000000000000794d */" "$tmp/blocks"
ok $? "sass.awk -v blocks=1: every line of the function, encodings too, its spaces squeezed" "$(cat "$tmp/blocks")"
# A listing of cuobjdump -elf: a cubin's sections and symbols, then the PTX's header (no sections).
cat >"$tmp/listing" <<'EOF'
arch = sm_90
Sections:
Index Offset   Size ES Align                      Type    Flags Link     Info Name
   1e   3da0     30  0  8                     PROGBITS        2    0        0 .nv.constant4
   1f   3dd0   4000  0  4                     PROGBITS        2    0        0 .nv.constant3
   2c   5080    200  0 80                     PROGBITS        6    3 1800002c .text._Z4taskPfS_
   37   5d00     10  0  1                     PROGBITS        3    0        0 .nv.global.init
   38   5d10    3f4  0  4                       NOBITS        3    0        0 .nv.global
   39   6104   1000  0  4                       NOBITS       43    0       35 .nv.shared._Z4taskPfS_

.section .symtab
   Num            Value             Size  Type          Bind    Vis        Other                     Ndx  Name
   0x6                0            0x3e8  OBJECT        LOCAL   DEFAULT    -                        0x38  kept
   0x7            0x3e8              0xc  OBJECT        LOCAL   DEFAULT    -                        0x38  $__stash__12
   0x8                0             0x10  OBJECT        LOCAL   DEFAULT    -                        0x37  $str
   0x9                0           0x4000  OBJECT        LOCAL   DEFAULT    -                        0x1f  table
  0x2b                0                0  FUNC          GLOBAL  DEFAULT    -                           0  vprintf
  0x2c                0            0x200  FUNC          GLOBAL  DEFAULT    ENTRY                    0x2c  _Z4taskPfS_
  0x2d                0                0  FUNC          GLOBAL  DEFAULT    -                           0  malloc

arch = sm_120
code version = [8,8]
EOF
awk -f labs/elf.awk "$tmp/listing" | tr '\t' '|' >"$tmp/elf"
counted="elf.awk: .nv.global, .nv.global.init and .nv.constant3 (__constant__) counted (not the compiler's"
printf '%s\n' "calls|sm_90|vprintf" "calls|sm_90|malloc" "bytes|sm_90|17396| table 16384, kept 1000, \$__stash__12 12" \
    "code|sm_90|1" |
    cmp -s - "$tmp/elf"
ok $? "$counted constant4, shared or \$str), the objects, calls, code" "$(cat "$tmp/elf")"
# The same symbols as cuobjdump 13.2 and before print them (the GPU machines' 13.0 does): the type in
# info's low four bits (0x1 an object, 0x12 a global function), the section index in shndx.
sed -e '/^\.section \.symtab/,/^$/d' -e '/^arch = sm_120/,$d' "$tmp/listing" >"$tmp/old"
cat >>"$tmp/old" <<'EOF'
.section .symtab
 index           value           size      info    other  shndx    name
 0x6               0            0x3e8       0x1        0   0x38     kept
 0x7           0x3e8              0xc       0x1        0   0x38     $__stash__12
 0x8               0             0x10       0x1        0   0x37     $str
 0x9               0           0x4000       0x1        0   0x1f     table
0x2b               0                0      0x12        0      0     vprintf
0x2c               0            0x200      0x12        0   0x2c     _Z4taskPfS_
0x2d               0                0      0x12        0      0     malloc

arch = sm_120
code version = [8,8]
EOF
awk -f labs/elf.awk "$tmp/old" | tr '\t' '|' | cmp -s - "$tmp/elf"
ok $? "elf.awk reads cuobjdump 13.2's symbol table (index, info, shndx) as 13.3's" \
    "$(awk -f labs/elf.awk "$tmp/old" | tr '\t' '|')"

# ==== rules.sh's command line ====
sh labs/rules.sh ch1_map >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "^usage: sh labs/rules.sh LAB DIR" "$tmp/out"
ok $? "rules.sh without a folder: exit 2, its usage" "exit $code; $(cat "$tmp/out")"
sh labs/rules.sh ch1_map "$tmp" "$tmp" "$tmp" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "^usage: sh labs/rules.sh LAB DIR" "$tmp/out"
ok $? "rules.sh with four arguments: exit 2, its usage" "exit $code; $(cat "$tmp/out")"
sh labs/rules.sh ch1_map "$tmp/nowhere" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "student.o: no such file" "$tmp/out"; ok $? "rules.sh, a folder without student.o: exit 2" \
    "exit $code; $(cat "$tmp/out")"
mkdir "$tmp/empty" && : >"$tmp/empty/student.o" && : >"$tmp/empty/student.d"
LAB_RULES=$tmp/none.txt sh labs/rules.sh ch1_map "$tmp/empty" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "labs/rules.sh: $tmp/none.txt: no such file" "$tmp/out"
ok $? "rules.sh with LAB_RULES a file that is not there: exit 2, named" "exit $code; $(cat "$tmp/out")"
CUOBJDUMP=$tmp/none sh labs/rules.sh ch1_map "$tmp/empty" >"$tmp/out" 2>&1; code=$?
[ $code = 2 ] && grep -q "needs cuobjdump.*sh tests/install_tools.sh" "$tmp/out"
ok $? "rules.sh without cuobjdump: exit 2, saying how to get it" "exit $code; $(cat "$tmp/out")"

# ==== Files compiled as labs/grade compiles them ====
if [ ! -d tests/rules ]; then  # (a hand-out: its files hold solutions, make labs-handout leaves them out)
    skip "labs/rules.sh on compiled files" "a hand-out: no tests/rules/"
    done_testing
    exit
fi
cuobjdump=$(make -s --no-print-directory lab-cuobjdump 2>/dev/null)
if [ -z "$cuobjdump" ]; then
    skip "labs/rules.sh on compiled files" "no cuobjdump here (sh tests/install_tools.sh fetches NVIDIA's)"
    done_testing
    exit
fi
nvcc_line=$(make -s --no-print-directory lab-nvcc 2>/dev/null)
nvcc=${nvcc_line%% *}
export CUOBJDUMP="$cuobjdump" LAB_NVCC="$nvcc_line"
jobs=${RULES_JOBS:-$tmp/jobs}
aside=${RULES_JOBS:+$RULES_JOBS.aside}  # (the files below named in the jobs, nvcc's wrappers: kept too)
aside=${aside:-$tmp}
mkdir -p "$aside"
# Each file's folder under $jobs: its source as LAB.cu (a #line first, naming the file as labs/grade
# does, its " and \ as _), its lab, and what to do differently (nvcc through a wrapper, a symlink).
# RULES_JOBS=DIR keeps the folders in DIR (tests/mutants.sh, whose changes are to labs/rules.sh and what
# it reads): a file is compiled again only where its source or the course's nvcc line has changed.
job() {  # job NAME LAB SOURCE [LINE-NAME]: a folder for one compile of SOURCE, graded as LAB
    d=$jobs/$1
    mkdir -p "$d" && echo "$2" >"$d/lab"
    { printf '#line 1 "%s"\n' "$(printf '%s' "${4:-$3}" | tr '"\\' '__')"; cat "$3"; } >"$d/$2.cu"
}
for f in tests/rules/*.cu; do
    name=$(basename "$f" .cu)
    job "$name" "${name%%.*}" "$f"
done
# The byte-order mark must come first: the build step strips it before its #line (nvcc takes it first).
cp tests/rules/ch2_warp_sum.byte_order_mark.cu "$jobs/ch2_warp_sum.byte_order_mark/ch2_warp_sum.cu"
printf '#define KEPT(a, x, y) ((a) * (x) + (y))\n' >"$jobs/ch1_map.own_header/kept.h"
# The same header by a path that starts in the system's folder and leaves it (by its real path, it is not).
sed "s|\"kept.h\"|\"/usr/include/../..$jobs/ch1_map.own_header/kept.h\"|" tests/rules/ch1_map.own_header.cu \
    >"$aside/dotdot.cu"
job ch1_map.dotdot_header ch1_map "$aside/dotdot.cu"
# A path with red, atom, spaces, quotes and unicode: the folder the file is compiled in and its #line.
odd="red.atom. \"quoted\" 'single' ünïcode"
job "$odd" ch2_block_sum tests/rules/ch2_block_sum.odd_path.cu "$jobs/$odd/ch2_block_sum.odd_path.cu"
# ch3_graph's kernels are given: the hand-out, the hand-out moved down three lines (its code is the
# same), with one constant of mix changed, with a kernel of its own; the course's solution.
job ch3_graph.handout ch3_graph labs/ch3_graph.cu
printf '/*\n * moved\n */\n' | cat - labs/ch3_graph.cu >"$aside/moved.cu"
job ch3_graph.moved ch3_graph "$aside/moved.cu"
sed 's/2654435761u/2654435769u/' labs/ch3_graph.cu >"$aside/changed.cu"
job ch3_graph.changed ch3_graph "$aside/changed.cu"
{ cat labs/ch3_graph.cu; printf '__global__ void fused(unsigned *a, int m) { a[0] = m; }\n'; } >"$aside/own.cu" &&
    job ch3_graph.own_kernel ch3_graph "$aside/own.cu"
# The solutions that come closest to a rule of their lab: the lock's CAS, the dot's atomicAdd, the
# tensor cores without fp32 arithmetic, the given kernels, the wait for one stream.
for lab in ch4_mutex ch4_dot ch5_mma ch3_graph ch3_debug_stream; do
    [ -f "labs/solutions/$lab.cu" ] && job "$lab.solution" "$lab" "labs/solutions/$lab.cu"
done
# A clock read by an instruction of the host code (rdtsc), no call: the `host` rules (tests/cheats' own).
job ch3_events.host_rdtsc ch3_events tests/cheats/ch3_events.host_clock_by_rdtsc.cu
# A fat binary of the file's own read by cuobjdump in place of nvcc's (a second .nv_fatbin section, first),
# and a header it stops on after nvcc's (the rules could not be read: exit 2, not graded): tests/cheats' own.
job ch1_map.fat_binary_first ch1_map tests/cheats/ch1_map.atomics_behind_an_empty_fat_binary.cu
job ch1_map.fat_binary_unreadable ch1_map tests/cheats/ch1_map.atomics_behind_an_unreadable_fat_binary.cu
# nvcc reached through a wrapper script (NVCC=) and through a symlink to the toolkit's bin/ on PATH, in
# a folder of their own: neither is in the toolkit, whose folder make's guess (lab-cuda-dir) misses.
mkdir -p "$aside/wrapper" && printf '#!/bin/sh\nexec "%s" "$@"\n' "$nvcc" >"$aside/wrapper/nvcc"
chmod +x "$aside/wrapper/nvcc"
ln -sfn "$(dirname "$nvcc")" "$aside/symlinked"
job ch1_map.wrapper ch1_map tests/rules/ch1_map.host_shapes.cu
NVCC=$aside/wrapper/nvcc make -s --no-print-directory lab-nvcc 2>/dev/null >"$jobs/ch1_map.wrapper/nvcc"
echo "NVCC=$aside/wrapper/nvcc" >"$jobs/ch1_map.wrapper/env"  # (one assignment, read whole)
job ch1_map.symlink ch1_map tests/rules/ch1_map.host_shapes.cu
PATH=$aside/symlinked:$PATH env -u NVCC make -s --no-print-directory lab-nvcc 2>/dev/null \
    >"$jobs/ch1_map.symlink/nvcc"
echo "PATH=$aside/symlinked:$PATH" >"$jobs/ch1_map.symlink/env"
for way in wrapper symlink; do
    d=$jobs/ch1_map.$way
    case $(cat "$d/nvcc") in "$aside"/*) true ;; *) false ;; esac &&
        cuda_dir=$(env -u NVCC "$(cat "$d/env")" make -s --no-print-directory lab-cuda-dir 2>/dev/null) &&
        [ ! -f "$cuda_dir/include/cuda_runtime.h" ]
    ok $? "nvcc through a $way: make's lab-nvcc uses it, and its lab-cuda-dir is no toolkit" \
        "$(cat "$d/nvcc"); lab-cuda-dir: $cuda_dir"
done
# Compiled, then checked, as many at a time as there are processors (nvcc, then nvdisasm for each cubin);
# a job's env file sets NVCC or PATH, and then make's answers, not LAB_NVCC, are rules.sh's.
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
export ROOT="$root"
printf '%s\0' "$jobs"/* | xargs -0 -n 1 -P "$cpus" sh -c 'cd "$1" && lab=$(cat lab) &&
    sum=$(sha256sum <"$lab.cu"; echo "$LAB_NVCC"; cat nvcc 2>/dev/null || :) &&
    { [ ! -f compiled ] || [ "$(cat sum)" != "$sum" ]; } &&
    rm -rf keep && mkdir keep && line=$(cat nvcc 2>/dev/null || echo "$LAB_NVCC") &&
    { $line -c "$lab.cu" -o student.o -MD -MF student.d --keep --keep-dir keep >compile.log 2>&1
      echo $? >compiled; echo "$sum" >sum; }' sh
handout=$jobs/ch3_graph.handout
printf '%s\0' "$jobs"/* | xargs -0 -I {} -P "$cpus" sh -c 'cd "$1" || exit; lab=$(cat lab)
    if [ -f env ]; then unset LAB_NVCC NVCC; export "$(cat env)"; fi
    [ "$lab" = ch3_graph ] || set -- "$1"
    sh "$ROOT/labs/rules.sh" "$lab" "$PWD" ${2:+"$2"} >out 2>&1; echo $? >status' sh {} "$handout"

# What rules.sh says of each: "accepted" (exit 0, nothing said), or its first refusal (exit 1): the
# sentence's words up to its colon, then a pattern for what was found, in the parentheses at the end.
verdict() {  # verdict NAME SENTENCE [FOUND]: the job NAME's exit and first refusal
    d=$jobs/$1
    if [ "$2" = accepted ]; then
        [ "$(cat "$d/status")" = 0 ] && [ ! -s "$d/out" ]
    else
        [ "$(cat "$d/status")" = 1 ] && head -n 1 "$d/out" | grep -F -q -- "  $2" &&
            head -n 1 "$d/out" | grep -E -q -- "\($3\)\$"
    fi
    ok $? "$1: $2" "compiled: $(cat "$d/compiled"), exit $(cat "$d/status"); $(tail -n 5 "$d/compile.log")
$(head -n 6 "$d/out")"
}
atomics="no atomics"
shuffles="no warp shuffles"
modules="kernels come from your file, compiled by nvcc"
memory="no memory of your own on the GPU"
given="the kernels are given, unchanged, and no others"
sm="sm_[0-9a-z]+"  # (the lowest architecture built, the first reported: sm_75, or this GPU's alone)
verdict ch2_block_sum.red_comment "$atomics" \
    "in block_sum\(float const\*, long long, float\*\) for $sm: REDG?\.E\.ADD\.F32.*"
verdict ch2_block_sum.shfl_comment "$shuffles" "in (down\(float, int\)|block_sum\(.*\)) for $sm: SHFL\.DOWN"
verdict ch5_mma.fma_comment "no floating-point arithmetic in your kernels" "in mma_matmul\(.*\) for $sm: FFMA"
verdict ch1_map.asm_global "$memory" \
    "[0-9]+ bytes of global variables in the code for $sm, 1 KiB at most: \\\$__kept__[0-9]+ 1048576"
verdict ch1_map.device_malloc "$memory" "the code for $sm calls malloc: malloc or new in a kernel"
verdict ch1_map.hand_registered "$modules" "2 references to __cudaRegisterFatBinary, where nvcc's code makes 1"
verdict ch1_map.load_by_name "$modules" "it calls cuModuleLoadData"
verdict ch1_map.fat_binary_first "$modules" "2 sections named \.nv_fatbin, where nvcc makes 1"
verdict ch1_map.fat_binary_unreadable "$modules" "bytes of its own beside nvcc's fat binary in the \.nv_fatbin section"
verdict ch1_map.fat_binary_pointer "$modules" \
    "\.nvFatBinSegment points at \.nv_fatbin \.nv_fatbin where nvcc's wrapper points once, at the start of \.nv_fatbin"
verdict ch4_mutex.shared_float_add "the only atomics are the lock's" "in summarize\(.*\) for $sm: ATOMS\.CAST\.SPIN"
verdict ch4_dot.lock "no mutex" "in dot\(.*\) for $sm: ATOMG\.E\.CAS\..*"
verdict ch5_tiled.wmma "no tensor cores" "in matmul\(.*\) for $sm: HMMA\..*"
verdict ch5_mma.wmma "no wmma" "it includes .*/mma\.h"
verdict ch1_map.library_names "it defines operator new(unsigned long)" "rename it, or make it static"
verdict ch1_map.own_header "a lab's file includes the CUDA Toolkit's headers and the system's only" \
    "it includes /.*/kept\.h"
verdict ch1_map.dotdot_header "a lab's file includes the CUDA Toolkit's headers and the system's only" \
    "it includes $jobs/ch1_map.own_header/kept\.h"
verdict ch5_tiled.cublas "no cuBLAS" "it includes .*/cublas_v2\.h"
verdict ch3_events.host_clock "no clock of the host" "it calls clock_gettime"
verdict ch3_events.host_rdtsc "no clock of the host" "its host code has rdtsc"
verdict ch3_events.gpu_clock "no clock of the GPU's read in a kernel" \
    "in stamp\(.*\) for $sm: CS2R R[0-9]+, SR_GLOBALTIMERLO"
verdict ch1_block_index.clock_in_kernel "no clock of the GPU's read in a kernel" \
    "in whoami\(.*\) for $sm: CS2R R[0-9]+, SR_CLOCKLO"
verdict ch3_pipeline.own_streams "the streams are given" "it calls cudaStreamCreate"
verdict ch3_debug_stream.device_synchronize "wait for the stream your work is on" "it calls cudaDeviceSynchronize"
verdict ch1_map.on_the_cpu "no copies between the host and the GPU" "it calls cudaMemcpy"
verdict ch3_graph.changed "$given" \
    "mix\(unsigned int const\*, unsigned int\*, int, unsigned int\) is not the one given: .*"
verdict ch3_graph.own_kernel "$given" "fused\(unsigned int\*, int\) is a kernel of your own"
for name in ch2_warp_sum.byte_order_mark ch4_dot.extern_c_kernel ch1_map.host_shapes ch1_map.wrapper \
            ch1_map.symlink ch3_graph.handout ch3_graph.moved ch2_block_sum.asserts_and_printfs "$odd" \
            ch3_debug_stream.event_wait; do
    verdict "$name" accepted
done
for lab in ch4_mutex ch4_dot ch5_mma ch3_graph ch3_debug_stream; do
    [ -d "$jobs/$lab.solution" ] && verdict "$lab.solution" accepted
done
# The other refusals each of these files gets, beside the first.
also() {  # also NAME PATTERN WHAT: a line of NAME's refusals matches PATTERN
    grep -q -E -- "$2" "$jobs/$1/out"; ok $? "$1: also $3" "$(cat "$jobs/$1/out")"
}
also ch1_map.load_by_name "^  $modules: .*\(it calls cudaGetDriverEntryPoint\)" "an entry point fetched by name"
also ch1_map.load_by_name "^  $modules: .*\(it calls dlsym\)" "the dynamic loader"
also ch1_map.load_by_name "^  $modules: .*\(it calls cudaLibraryLoadData\)" "the runtime's library loader"
also ch1_map.library_names "^  it defines cudaDeviceSynchronize with C linkage, .* of libcudart" \
    "cudaDeviceSynchronize with C linkage (cudart's)"
also ch1_map.on_the_cpu "^  no host memory the GPU can reach: .* \(it calls cudaHostAlloc\)" "mapped host memory"
also ch5_tiled.cublas "^  no cuBLAS: .* \(it calls cublasSgemm" "cuBLAS's call"
! grep -q "vprintf" "$jobs/ch1_map.device_malloc/out"
ok $? "ch1_map.device_malloc: its printf is no refusal" "$(cat "$jobs/ch1_map.device_malloc/out")"

# The old checks read text: a grep of the PTX (nvcc --keep's, every architecture's) misses the
# instructions a comment hides, and finds an atomic in an honest file's path (the PTX's .file line).
old_grep() {  # old_grep NAME PATTERN: the old rule's grep over NAME's PTX
    cat "$jobs/$1"/keep/*.ptx | grep -E -m 1 -- "(^|[^A-Za-z0-9_.\$%])$2"
}
for case in "ch2_block_sum.red_comment (atom|red|cp\.reduce)\." \
            "ch2_block_sum.shfl_comment (shfl|vote|match|redux)\." \
            "ch5_mma.fma_comment (fma|mad|add|sub|mul|div)(\.r[nzmp])?(\.ftz)?(\.sat)?\.(f32|f64|f16|bf16)"; do
    hit=$(old_grep "${case%% *}" "${case#* }")
    [ -z "$hit" ]
    ok $? "${case%% *}: the old grep of the PTX misses what rules.sh refuses" "$hit"
done
hit=$(old_grep "$odd" "(atom|red|cp\.reduce)\.")
[ -n "$hit" ]; ok $? "$odd: the old grep of the PTX refuses the path that rules.sh accepts" "no hit"
done_testing

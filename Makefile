# CUDA by Numba Examples, in CUDA C. `make help` lists the targets.
#   make ch2 && ./ch2_reduction/better      build one chapter, run one program
#   make test                               the test suite (works without a GPU)
#   make ARCH="80 90"                       build for other GPUs than the one found

CH1 := add_scalars add_array grid_stride adjust_log device_query
CH2 := naive better library reduce2d blobs warp_shuffle ladder
CH3 := normalize streams events stream_timing vector_add_streams graphs heat heat_mpi peers multi_gpu
CH4 := add_one histogram histogram_wide histogram_sweep mutex dot_mutex scan equalize
CH5 := naive shared blas sgemm_ladder sgemm_tensor sgemm_hopper

CH1_PROGRAMS := $(addprefix ch1_embarrassing/,$(CH1))
CH2_PROGRAMS := $(addprefix ch2_reduction/,$(CH2))
CH3_PROGRAMS := $(addprefix ch3_streams_events/,$(CH3))
CH4_PROGRAMS := $(addprefix ch4_atomics_mutex/,$(CH4))
CH5_PROGRAMS := $(addprefix ch5_matmul/,$(CH5))
PROGRAMS := $(CH1_PROGRAMS) $(CH2_PROGRAMS) $(CH3_PROGRAMS) $(CH4_PROGRAMS) $(CH5_PROGRAMS)

# A bare make builds everything (the notes' stand-ins below for what is left out must not be the first goal).
.DEFAULT_GOAL := all

# The CUDA Toolkit: nvcc on PATH, else the usual place. Without it only help, clean, figures, notebook,
# colab, classroom and runner-check work.
NVCC     ?= $(or $(shell command -v nvcc),$(wildcard /usr/local/cuda/bin/nvcc),nvcc)
CC       := gcc
CUDA_DIR ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC)))
ifeq ($(CUDA_DIR),)
  ifneq ($(filter-out help clean figures notebook colab classroom runner-check,$(or $(MAKECMDGOALS),all)),)
    $(error nvcc not found: install the CUDA Toolkit, put its bin/ on PATH, or make NVCC=/path/to/nvcc)
  endif
endif

# Architecture: the GPU in this machine if there is one, else a list that covers Turing to Blackwell
# (an sm_80 binary also runs on 8.6 and 8.9, sm_100 on 10.3, sm_120 on 12.1), minus anything this nvcc
# has dropped; PTX for the newest lets future GPUs compile it at start-up.
GPU_SM   := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d .)
NVCC_SMS := $(patsubst compute_%,%,$(shell $(NVCC) --list-gpu-arch 2>/dev/null))
ARCH     ?= $(or $(filter $(NVCC_SMS),$(GPU_SM)),$(filter $(NVCC_SMS),75 80 90 100 120))
NEWEST   := $(shell echo $(ARCH) | tr " " "\n" | sort -n | tail -n 1)
GENCODE  := $(foreach sm,$(ARCH),-gencode arch=compute_$(sm),code=sm_$(sm)) \
            -gencode arch=compute_$(NEWEST),code=compute_$(NEWEST)

# Warnings are errors in our own code: nvcc's and the host compiler's (CUB and cuBLAS headers are
# system headers, so their warnings stay out). -lineinfo lets compute-sanitizer and Nsight name source
# lines; DEBUG=1 builds for cuda-gdb instead (-G: device code unoptimised, much slower).
# Your flags add to these, after them: NVCCFLAGS= or EXTRA_NVCCFLAGS=, CFLAGS= or EXTRA_CFLAGS=, and
# HOST_COMPILER=g++-13 for nvcc's -ccbin (a new distribution's default g++ may be newer than nvcc takes).
COURSE_CFLAGS    := -std=c11 -O2 -Wall -Wextra -Werror -pedantic -I$(CUDA_DIR)/include
COURSE_NVCCFLAGS := -std=c++17 $(if $(filter 1,$(DEBUG)),-G -g,-O3 -lineinfo) $(GENCODE) --Werror all-warnings \
                    -Xcompiler -Wall,-Wextra,-Werror $(if $(HOST_COMPILER),-ccbin $(HOST_COMPILER))
ALL_CFLAGS    = $(COURSE_CFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_NVCCFLAGS = $(COURSE_NVCCFLAGS) $(NVCCFLAGS) $(EXTRA_NVCCFLAGS) $(PROGRAM_FLAGS)
LDLIBS        := -lm

# Everything is rebuilt when a flag that changes the code changes (ARCH, DEBUG, your flags, nvcc, MPI_HOME):
# .build-flags holds the last build's, rewritten only when they differ.
BUILD_FLAGS := $(NVCC) $(shell $(NVCC) --version 2>/dev/null | tail -n 1) $(COURSE_NVCCFLAGS) $(NVCCFLAGS) \
               $(EXTRA_NVCCFLAGS) | $(CC) $(ALL_CFLAGS) | $(MPI_HOME)
# A goal that only answers a question (the scripts ask for the nvcc line, tests/rules.t through a wrapper of
# nvcc) leaves it as it is: asking must not rebuild everything at the next make.
ANSWERS := help lab-nvcc lab-cuda-dir lab-cuobjdump lab-wrap lab-sanitizer lab-settings lab-list lab-arch \
           lab-flags-cublas lab-flags-nccl lab-flags-mpi lab-mpirun
ifneq ($(BUILD_FLAGS),$(shell cat .build-flags 2>/dev/null))
  ifneq ($(filter-out $(ANSWERS),$(or $(MAKECMDGOALS),all)),)
    $(shell echo '$(BUILD_FLAGS)' >.build-flags)
  endif
endif

# The multi-GPU programs never use NVLink SHARP (multicast objects): two GPUs do not need it.
export NCCL_NVLS_ENABLE ?= 0

COMMON := $(patsubst %.c,%.o,$(wildcard common/*.c))
comma := ,
# A note for the user, on stderr: make's $(info) writes to stdout, which labs/grade and the tests read
# (make -s lab-nvcc, lab-flags-LIB, lab-list), and a note there would become part of a command line.
# A part left out (MPI, NCCL) is said once, by the make whose goals build what needs it (NOTE_GOALS, or
# the program itself), never by make help, make ch2 or labs/grade's questions, nor again by the makes
# that the tests and labs/grade start under it (MAKE_NOTES_SAID, exported to them).
say = printf '%s\n' '$(subst ','"'"',$(1))' >&2
NOTE_GOALS := all ch3 test test-programs sanitize small-gpu lab-programs labs lab-mistakes gradebook
SAY_NOTES := $(if $(MAKE_NOTES_SAID),,$(filter $(NOTE_GOALS),$(or $(MAKECMDGOALS),all)))
export MAKE_NOTES_SAID := $(or $(MAKE_NOTES_SAID),$(if $(SAY_NOTES),1))
note = $(if $(SAY_NOTES),$(shell $(call say,$(1))))

# NCCL, for multi_gpu and heat_mpi (a library of its own, not part of the CUDA Toolkit): installed beside
# the toolkit, in the system (Debian's or NVIDIA's libnccl-dev), or a Python wheel (pip install
# nvidia-nccl-cu12); NCCL_HOME=DIR points elsewhere (DIR/include/nccl.h, DIR/lib*/libnccl.so.2). Without
# it the other programs build and one line says what was left out.
# NCCL=none builds as if there were none, so that a machine with NCCL can check the course without it.
ifeq ($(NCCL),none)
  NCCL_LIB :=
  NCCL_MISSING := no NCCL (NCCL=none)
else
  NCCL_WHEEL = $(shell python3 -c 'import nvidia.nccl as m; print(m.__path__[0])' 2>/dev/null)
  NCCL_BESIDE = $(firstword $(foreach d,$(CUDA_DIR) /usr /usr/local,$(if $(wildcard $(d)/include/nccl.h),$(d))))
  NCCL_HOME ?= $(or $(NCCL_BESIDE),$(NCCL_WHEEL))
  NCCL_LIB  := $(firstword $(dir $(wildcard $(addprefix $(NCCL_HOME),/lib/libnccl.so.2 /lib64/libnccl.so.2 \
                 /lib/$(shell gcc -print-multiarch)/libnccl.so.2))))
  NCCL_MISSING := no NCCL found (nccl.h and libnccl.so.2 under $(or $(NCCL_HOME),$(CUDA_DIR), /usr or /usr/local))
endif
NCCL_LINK := -L$(NCCL_LIB) -l:libnccl.so.2 -Xlinker -rpath=$(NCCL_LIB)
ch3_streams_events/multi_gpu ch3_streams_events/heat_mpi: PROGRAM_FLAGS = -I$(NCCL_HOME)/include $(MPI_FLAGS)
ch3_streams_events/multi_gpu ch3_streams_events/heat_mpi: LDLIBS += $(NCCL_LINK)

# MPI, for heat_mpi (one process per GPU): what mpicc would add (Open MPI's --showme, MPICH's -show), or
# MPI_HOME=DIR (DIR/include/mpi.h, DIR/lib/libmpi.so); MPI=none builds as if there were none. Run as
# root (a container), Open MPI needs mpirun --allow-run-as-root; the tests set the two variables that
# allow it.
MPICC ?= mpicc
ifneq ($(MPI),none)
  MPICC_SHOW = $(or $(shell $(MPICC) --showme 2>/dev/null),$(shell $(MPICC) -show 2>/dev/null))
  MPI_SHOW := $(if $(MPI_HOME),-I$(MPI_HOME)/include -L$(MPI_HOME)/lib -lmpi,$(MPICC_SHOW))
endif
MPI_FLAGS := $(patsubst -I%,-isystem %,$(filter -I%,$(MPI_SHOW)))
MPI_LINK := $(filter -L% -l%,$(MPI_SHOW)) $(patsubst -L%,-Xlinker -rpath=%,$(filter -L%,$(MPI_SHOW)))
ch3_streams_events/heat_mpi: LDLIBS += $(MPI_LINK)

# What is left out, said once each, and told to the tests (NOT_BUILT: PROGRAM:PART,PART ...), which skip
# those programs' runs naming the part.
# Each note names what to install (none after NCCL=none or MPI=none, which are on purpose); make
# lab-flags-nccl and lab-flags-mpi say it too, for labs/grade's "not run (no LIB here)".
ifeq ($(NCCL_LIB),)
  NCCL_HINT := $(if $(filter none,$(NCCL)),,; install libnccl-dev and libnccl2 (NVIDIA's CUDA repository) or \
                 pip install nvidia-nccl-cu12, or NCCL_HOME=DIR points at one)
  NCCL_LEFT_OUT := ch3_streams_events/multi_gpu$(comma) heat_mpi and the lab ch3_allreduce
  NCCL_NOTE := make: $(NCCL_MISSING); $(NCCL_LEFT_OUT) are not built$(NCCL_HINT)
  $(call note,$(NCCL_NOTE))
  NOT_BUILT := ch3_streams_events/multi_gpu:NCCL
ch3_streams_events/multi_gpu:
	@$(call say,$(NCCL_NOTE)); exit 1
endif
ifeq ($(filter -lmpi%,$(MPI_SHOW)),)
  MPI_MISSING := $(if $(filter none,$(MPI)),no MPI (MPI=none),no MPI found ($(MPICC) or MPI_HOME=DIR))
  MPI_HINT := $(if $(filter none,$(MPI)),,; install Open MPI (Debian/Ubuntu: libopenmpi-dev openmpi-bin))
  MPI_NOTE := make: $(MPI_MISSING); ch3_streams_events/heat_mpi and the lab ch3_halo are not built$(MPI_HINT)
  $(call note,$(MPI_NOTE))
  HEAT_MPI_NEEDS := MPI
endif
ifeq ($(NCCL_LIB),)
  HEAT_MPI_NEEDS := $(if $(HEAT_MPI_NEEDS),$(HEAT_MPI_NEEDS)$(comma))NCCL
endif
ifneq ($(HEAT_MPI_NEEDS),)
  NOT_BUILT += ch3_streams_events/heat_mpi:$(HEAT_MPI_NEEDS)
ch3_streams_events/heat_mpi:
	@$(if $(MPI_NOTE),$(call say,$(MPI_NOTE));) $(if $(NCCL_NOTE),$(call say,$(NCCL_NOTE));) exit 1
endif
CH3_PROGRAMS := $(filter-out $(foreach p,$(NOT_BUILT),$(firstword $(subst :, ,$(p)))),$(CH3_PROGRAMS))
PROGRAMS := $(filter-out $(foreach p,$(NOT_BUILT),$(firstword $(subst :, ,$(p)))),$(PROGRAMS))
export OMPI_ALLOW_RUN_AS_ROOT ?= 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM ?= 1

# The vendor BLAS comparisons link cuBLAS.
ch5_matmul/blas ch5_matmul/sgemm_ladder ch5_matmul/sgemm_tensor ch5_matmul/sgemm_hopper: LDLIBS += -lcublas

# sgemm_hopper's TMA and wgmma exist only in code built for sm_90a (Hopper's own features, which later
# GPUs need not keep): where ARCH has 90, that one file is built for 90a instead.
ch5_matmul/sgemm_hopper: ALL_NVCCFLAGS = $(subst arch=compute_90$(comma)code=sm_90,arch=compute_90a$(comma)code=sm_90a,\
                                          $(COURSE_NVCCFLAGS)) $(NVCCFLAGS) $(EXTRA_NVCCFLAGS) $(PROGRAM_FLAGS)

.PHONY: all ch1 ch2 ch3 ch4 ch5 test test-programs mutants sanitize small-gpu fuzz figures tables sass ptx profile \
        clean help lab labs lab-mistakes labs-handout lab-programs lab-nvcc lab-cuda-dir lab-wrap lab-sanitizer \
        lab-mistake-files gradebook classroom runner-check lab-list notebook colab lab-flags-cublas lab-flags-nccl \
        lab-flags-mpi lab-mpirun lab-settings lab-arch
all: $(PROGRAMS)
ch1: $(CH1_PROGRAMS)
ch2: $(CH2_PROGRAMS)
ch3: $(CH3_PROGRAMS)
ch4: $(CH4_PROGRAMS)
ch5: $(CH5_PROGRAMS)

common/%.o: common/%.c common/*.h .build-flags
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The one pattern rule: every program is one .cu file linked with common/.
%: %.cu $(COMMON) common/*.h .build-flags
	$(NVCC) $(ALL_NVCCFLAGS) $< $(COMMON) -o $@ $(LDLIBS)

tests/unit_common: tests/unit_common.c tests/unit_output.c tests/unit_cli.c tests/unit_text.c tests/unit.h $(COMMON) \
                   .build-flags
	$(CC) $(ALL_CFLAGS) $(filter %.c %.o,$^) -o $@ -L$(CUDA_DIR)/lib64 -lcudart_static -ldl -lpthread -lrt $(LDLIBS)

# The test suite: TAP tests run by prove, then one line on what was skipped and why (without a GPU,
# every run of a program; without MPI or NCCL, the runs of what was not built, naming the part).
# GNUPLOT=none tests as if gnuplot were not installed (with MPI=none NCCL=none: what CI checks too).
# TESTS="tests/gpu.t ..." runs those files only; LAB_SUBSET="LAB ..." grades only those labs on a GPU
# (tests/labs.t), for a GPU session cut in parts.
GNUPLOT ?= gnuplot
# (what the tests run, built first in one make: tests/device_parallel.sh builds it before its parts, whose
# make test calls would otherwise build it side by side, one linking a program another part runs)
test-programs: all tests/unit_common lab-programs lab-mistake-files output/labs/unit_clock output/labs/unit_random \
      output/labs/unit_channel
test: test-programs
	@mkdir -p output/test && rm -f output/test/skipped.txt
	@PROGRAMS="$(PROGRAMS)" NOT_BUILT="$(NOT_BUILT)" GNUPLOT="$(GNUPLOT)" LABS="$(LABS)" COURSE_URL="$(COURSE_URL)" \
	    CLASSROOM_RUNS_ON="$(CLASSROOM_RUNS_ON)" \
	    LAB_MISTAKES="$(LAB_MISTAKES)" MPI_FLAGS="$(MPI_FLAGS)" NCCL_INCLUDE="$(if $(NCCL_LIB),$(NCCL_HOME)/include)" \
	    LAB_SUBSET="$(LAB_SUBSET)" SKIP_LOG="$(CURDIR)/output/test/skipped.txt" \
	    prove $(or $(TESTS),tests/*.t); status=$$?; \
	    sh tests/skipped.sh output/test/skipped.txt; exit $$status

# The mutation run (tests/mutants.sh): small changes planted one at a time in a copy, each against the
# quickest tests that read its file; MUTANTS_SAMPLE=N, MUTANTS_ONLY=REGEX, MUTANTS_JOBS=J (its header).
mutants: all tests/unit_common lab-programs
	@sh tests/mutants.sh

# compute-sanitizer's four tools over every program at small sizes (GPU machine only);
# make sanitize ONLY=ch4 checks the runs that match a pattern.
sanitize: all
	PROGRAMS="$(PROGRAMS)" NOT_BUILT="$(NOT_BUILT)" ONLY="$(ONLY)" prove tests/sanitize.sh

# The suite on emulated small GPUs, through MPS (GPU machine only): a GTX 1650, a T4, the whole GPU;
# make small-gpu EMULATE=t4 runs one of them.
small-gpu: all
	PROGRAMS="$(PROGRAMS)" sh tests/small_gpu.sh output/small_gpu $(EMULATE)

# libFuzzer on the image reader and the option parser, with address and undefined-behaviour
# sanitizers (clang and its fuzzer runtime); FUZZ_SECONDS for each, 60 by default.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
tests/fuzz/fuzz_pnm: tests/fuzz/fuzz_pnm.c common/image.c common/output.c common/*.h
	clang $(FUZZ_FLAGS) $(filter %.c,$^) -o $@ -lm
# cli.c is common/'s top layer: the files below it come along, and CUDA's runtime for size_to_fit (never called).
tests/fuzz/fuzz_cli: tests/fuzz/fuzz_cli.c common/cli.c common/csv.c common/device.c common/check.c \
                     common/output.c common/*.h tests/fuzz/exit_hook.h
	clang $(FUZZ_FLAGS) -I$(CUDA_DIR)/include -include tests/fuzz/exit_hook.h $(filter %.c,$^) -o $@ \
	    -L$(CUDA_DIR)/lib64 -lcudart_static -ldl -lpthread -lrt -lm
fuzz: tests/fuzz/fuzz_pnm tests/fuzz/fuzz_cli
	sh tests/fuzz/run.sh $(FUZZ_SECONDS)

figures:
	@GNUPLOT="$(GNUPLOT)" sh plots/figures.sh

# The READMEs' results tables, rewritten from the CSV in figures/data/ (make test fails when they differ).
tables:
	@sh tests/tables.sh --write

# The Colab notebook (course.ipynb). COURSE_URL is the course's repository on GitHub, set here and
# nowhere else by whoever publishes the course (https://github.com/OWNER/NAME): make notebook writes
# it into the notebook's first cell, a form that clones it (empty, the form asks for the hand-out
# archive, make labs-handout's, and unpacks it), and the README's Colab badge from it (empty: how to
# upload the notebook instead), and the notebook's lab cells from labs/ and LABS (make test fails when
# they differ). make colab prints the Colab link for this clone's origin on GitHub. Both need python3.
COURSE_URL :=
notebook:
	@LABS="$(LABS)" COURSE_URL="$(COURSE_URL)" python3 tests/notebook.py --write
colab:
	@COURSE_URL="$(COURSE_URL)" python3 tests/notebook.py --colab

# Look at what nvcc made of a program, and profile it (GPU machine):
#   make sass P=ch2_reduction/better          the machine code (SASS) for the first ARCH (SM=90 for another)
#   make ptx P=ch2_reduction/better           the PTX embedded for the newest ARCH
#   make profile P=ch2_reduction/better ARGS="-n 1e8 -r 3"   Nsight Compute on its first kernels, then
#                                             Nsight Systems' timeline, into output/profile/
#   make profile P=ch3_streams_events/heat_mpi NP=2   the timeline of mpirun -np 2 (every rank's process)
SM ?= $(firstword $(ARCH))
sass ptx profile: $(P)
	@CUDA_DIR=$(CUDA_DIR) sh tests/look.sh $@ "$(P)" "$(SM)" "$(ARGS)"

# For clangd (and editors that use it): how each file is compiled, with clang's CUDA flags; see .clangd.
compile_commands.json: Makefile
	@{ echo "["; \
	  for f in $(PROGRAMS:=.cu); do \
	    echo "  {\"directory\": \"$(CURDIR)\", \"file\": \"$$f\", \"command\": \"clang++ -x cuda -std=c++17 \
--cuda-path=$(CUDA_DIR) --cuda-gpu-arch=sm_$(SM) -nocudalib -isystem $(CUDA_DIR)/include/cccl \
$(if $(NCCL_LIB),-I$(NCCL_HOME)/include) -c $$f\"},"; done; \
	  for f in $(COMMON:.o=.c) tests/unit_common.c tests/unit_output.c tests/unit_cli.c tests/unit_text.c; do \
	    echo "  {\"directory\": \"$(CURDIR)\", \"file\": \"$$f\", \"command\": \"gcc $(COURSE_CFLAGS) -c $$f\"},"; done; \
	} | sed '$$ s/},$$/}/' >$@ && echo "]" >>$@ && echo "compile_commands.json: $$(grep -c '"file"' $@) files"

clean:
	rm -rf $(PROGRAMS) ch3_streams_events/multi_gpu ch3_streams_events/heat_mpi common/*.o tests/unit_common \
	    tests/fuzz/fuzz_pnm tests/fuzz/fuzz_cli .build-flags compile_commands.json output

help:
	@echo "make [-j\"\$$(nproc)\"] TARGET [KNOB=value ...]"
	@echo "targets:"
	@echo "  all (default), ch1 ... ch5     build every program, or one chapter's"
	@echo "  test                           the test suite; works without a GPU (GPU parts are skipped)"
	@echo "  test TESTS=... LAB_SUBSET=...  some of its files; on a GPU, grade some labs only"
	@echo "  mutants [MUTANTS_SAMPLE=N]     the mutation run: does some test notice each planted change?"
	@echo "  sanitize [ONLY=pattern]        every small run under compute-sanitizer (GPU)"
	@echo "  small-gpu [EMULATE=t4]         the suite on emulated small GPUs through MPS (GPU)"
	@echo "  fuzz [FUZZ_SECONDS=60]         libFuzzer on the image reader and the option parser (clang)"
	@echo "  figures                        every figure as PNG in figures/ (runs the programs on a GPU)"
	@echo "  tables                         the READMEs' results tables, from the CSV in figures/data/"
	@echo "  notebook                       course.ipynb's first cell (a form) and lab cells, the README's badge (python3)"
	@echo "  colab                          the Colab link of course.ipynb for this clone's origin (python3)"
	@echo "  sass P=program [SM=90]         the machine code of one program (first ARCH, or SM)"
	@echo "  ptx P=program                  its PTX (for the newest ARCH)"
	@echo "  profile P=program [ARGS=...]   Nsight Compute, then Nsight Systems, on one program (GPU)"
	@echo "  profile ... NP=2               the timeline of an MPI program's 2 ranks under mpirun (heat_mpi)"
	@echo "  compile_commands.json          for clangd and editors"
	@echo "  lab L=NAME [FILE=path]         grade a lab's file: rules, correctness, sanitizers, speed (sh labs/grade)"
	@echo "  labs [SOLUTIONS=1] [CSV=file]  every lab, one table (the files in labs/, or the solutions)"
	@echo "  gradebook SUBMISSIONS=dir [BOOK=output/labs/class]   a class: a folder per student, one CSV,"
	@echo "                                 a Markdown table, a figure; a grade a GPU at a time, on every GPU;"
	@echo "                                 without a GPU, built and checked against the rules only"
	@echo "  gradebook ... SLURM=PARTITION  the same book from a Slurm job array, a task a student"
	@echo "                                 (SLURM=1: the default partition; SLURM_MINUTES=, SLURM_OPTIONS=)"
	@echo "  classroom [CLASSROOM_LABS=...] .github/workflows/classroom.yml, GitHub Classroom's: a test a lab"
	@echo "  runner-check                   on a Classroom runner: what a grade needs, and what it lacks"
	@echo "  lab-mistakes [CSV=file]        every planted mistake caught by its report (GPU); REPORT=slow: the slow only"
	@echo "  labs-handout                   output/labs-handout.tar.gz: the course without the solutions"
	@echo "  clean                          remove what was built and output/"
	@echo "knobs (now):"
	@echo "  ARCH=\"$(ARCH)\"   compute capabilities to build for (this GPU's, or Turing to Blackwell)"
	@echo "  DEBUG=1            -G -g for cuda-gdb instead of -O3 -lineinfo"
	@echo "  NVCCFLAGS=, EXTRA_NVCCFLAGS=, CFLAGS=, EXTRA_CFLAGS=   added after the course's flags"
	@echo "  HOST_COMPILER=g++-13   the host compiler nvcc uses (-ccbin)"
	@echo "  NVCC=$(NVCC)"
	@echo "  NCCL_HOME=$(NCCL_HOME)   where NCCL is, for ch3_streams_events/multi_gpu and heat_mpi"
	@echo "  MPI_HOME=DIR, MPICC=mpicc      where MPI is, for ch3_streams_events/heat_mpi"
	@echo "  NCCL=none MPI=none GNUPLOT=none   build and test as if that part were missing"
	@echo "  COMPUTE_SANITIZER=$(or $(COMPUTE_SANITIZER),(none found))   the compute-sanitizer the labs use"
	@echo "  COURSE_URL=$(or $(COURSE_URL),(unset))   the course's GitHub address, for make notebook's badge"
	@echo "  CLASSROOM_RUNS_ON=\"$(CLASSROOM_RUNS_ON)\"   the runner labels of make classroom's workflow"
	@echo "a change of ARCH, DEBUG or a flag rebuilds everything (.build-flags)"

# ==== Labs (labs/README.md) ====
# A lab is graded by labs/grade: the student's file is compiled alone and linked into a runner
# (labs/runner/runner.c and the lab's stub labs/runner/LAB.cu); the judge (labs/judge/LAB.cu, with lab.c,
# channel.c, timed.c, sample.cu and libraries.cu) is another program, built here without it. Warnings are
# not errors in the student's file: a skeleton as handed out has unused parameters.
# The five first steps, then the chapters' labs, chapter by chapter: inside a chapter, a debugging lab
# after the labs whose lesson it tests, the hardest last (labs/README.md's table; tests/labs.t).
LABS := ch1_block_index ch1_one_thread_each ch1_two_inputs ch1_grid_2d ch2_shared_reverse \
        ch1_map ch1_image ch1_debug_bounds ch1_transpose \
        ch2_dynamic_shared ch2_block_sum ch2_warp_sum ch2_cooperative_groups \
        ch2_debug_barrier ch2_debug_warp ch2_debug_divergent \
        ch3_pipeline ch3_events ch3_debug_stream ch3_debug_async ch3_graph ch3_stencil ch3_allreduce ch3_halo \
        ch4_histogram ch4_dot ch4_mutex ch4_debug_atomic ch4_debug_init ch4_block_scan ch4_lookback_scan ch4_equalize \
        ch5_tiled ch5_register_tile ch5_cublas ch5_mma
# Labs whose runner stub needs a library (labs/rules.txt "LAB link LIB") are built only where make finds
# it; elsewhere labs/grade says "not run (no LIB here)" before it builds anything.
LABS_NEED_NCCL := ch3_allreduce
LABS_NEED_MPI := ch3_halo
MPI_FOUND := $(filter -lmpi%,$(MPI_SHOW))
LABS_BUILT := $(filter-out $(if $(NCCL_LIB),,$(LABS_NEED_NCCL)) $(if $(MPI_FOUND),,$(LABS_NEED_MPI)),$(LABS))
LAB_MISTAKES := $(shell awk '!/^\#/ && NF { print $$1 "." $$2 }' labs/solutions/mistakes.txt 2>/dev/null)
LAB_NVCC = $(NVCC) -std=c++17 -O3 -lineinfo --extended-lambda $(GENCODE) -Xcompiler -Wall \
           $(if $(HOST_COMPILER),-ccbin $(HOST_COMPILER)) $(NVCCFLAGS) $(EXTRA_NVCCFLAGS)
JUDGE_NVCC = $(NVCC) $(COURSE_NVCCFLAGS) $(NVCCFLAGS) $(EXTRA_NVCCFLAGS)
# lab.h's library: lab.c, channel.c (the runner's process) and timed.c (the timed runs), in C.
LAB_JUDGE_C := output/labs/lab.o output/labs/channel.o output/labs/timed.o
LAB_JUDGE_OBJECTS := $(LAB_JUDGE_C) output/labs/libraries.o output/labs/sample.o output/labs/fill.o $(COMMON)

$(LAB_JUDGE_C): output/labs/%.o: labs/judge/%.c labs/judge/*.h common/*.h .build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@
# (kept: make would delete the judges' shared objects after a build, as intermediate files)
.PRECIOUS: output/labs/%.o
output/labs/%.o: labs/judge/%.cu labs/judge/*.h common/*.h .build-flags
	@mkdir -p $(@D)
	$(JUDGE_NVCC) -c $< -o $@
output/labs/judge/%: labs/judge/%.cu labs/judge/*.h $(LAB_JUDGE_OBJECTS) .build-flags
	@mkdir -p $(@D)
	$(JUDGE_NVCC) -Ilabs/judge $< $(LAB_JUDGE_OBJECTS) -o $@ -lcublas -lm
# The judge's clock on made-up runs, and its report of a call's outcome from a made-up runner, without a
# GPU (tests/clock.t, tests/channel.t).
output/labs/unit_clock output/labs/unit_channel: output/labs/unit_%: tests/unit_%.c labs/judge/*.h \
                                                 $(LAB_JUDGE_OBJECTS) .build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ilabs/judge -I$(CUDA_DIR)/include -c $< -o $@.o
	$(JUDGE_NVCC) $@.o $(LAB_JUDGE_OBJECTS) -o $@ -lcublas -lm
# The judges' random numbers in their ranges (tests/random.t).
output/labs/unit_random: tests/unit_random.c labs/judge/random.h .build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ilabs/judge $< -o $@ -lm
output/labs/runner.o output/labs/launches.o: output/labs/%.o: labs/runner/%.c labs/runner/runner.h \
                                             labs/judge/protocol.h .build-flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(CUDA_DIR)/include -c $< -o $@
output/labs/runner/%.o: labs/runner/%.cu labs/runner/runner.h labs/judge/protocol.h .build-flags
	@mkdir -p $(@D)
	$(JUDGE_NVCC) $(LAB_STUB_FLAGS) -c $< -o $@
# The stubs that include nccl.h or mpi.h: the library's headers. NCCL's, unless it is in /usr (an -I or
# -isystem /usr/include would put it before the C++ library's own headers, and break them).
NCCL_INCLUDE_FLAG = $(if $(NCCL_LIB),$(if $(filter /usr /usr/,$(NCCL_HOME)),,-I$(NCCL_HOME)/include))
output/labs/runner/ch3_allreduce.o: LAB_STUB_FLAGS = $(NCCL_INCLUDE_FLAG)
output/labs/runner/ch3_halo.o: LAB_STUB_FLAGS = $(MPI_FLAGS)

# The course's side of every lab (its own code: warnings are errors); make test then grades the skeletons,
# the solutions and the mistakes. ONLY_LABS="LAB ..." makes those labs' only (labs/gradebook: a class's labs,
# not all thirty-six, which take minutes where no GPU narrows the architectures to build for).
LABS_MADE = $(if $(ONLY_LABS),$(filter $(ONLY_LABS),$(LABS_BUILT)),$(LABS_BUILT))
lab-programs: $(addprefix output/labs/judge/,$(LABS_MADE)) $(patsubst %,output/labs/runner/%.o,$(LABS_MADE)) \
              output/labs/runner.o output/labs/launches.o output/labs/runner/touch.o
# For labs/grade: how it compiles a student's file, and the compute-sanitizer of this toolkit.
lab-nvcc:
	@echo '$(LAB_NVCC)'
lab-cuda-dir:
	@echo '$(CUDA_DIR)'
# For labs/rules.sh: the cuobjdump that reads a file's machine code (and runs nvdisasm, beside it or on PATH):
# the toolkit's, else one on PATH, else tests/install_tools.sh's (NVIDIA's wheels), else nothing;
# LAB_CUOBJDUMP=PATH another.
LAB_CUOBJDUMP ?= $(or $(wildcard $(CUDA_DIR)/bin/cuobjdump),$(shell command -v cuobjdump),\
                     $(wildcard $(CURDIR)/.tools/bin/cuobjdump))
.PHONY: lab-cuobjdump
lab-cuobjdump:
	@echo '$(LAB_CUOBJDUMP)'
# The runner's link: every launch function wrapped by labs/runner/launches.c, which counts the kernels, and
# the reading of an event's time, counted too.
LAB_LAUNCHES := __cudaLaunchKernel __cudaLaunchKernel_ptsz cudaLaunchKernel cudaLaunchKernel_ptsz \
                cudaLaunchCooperativeKernel cudaLaunchCooperativeKernel_ptsz \
                cudaLaunchKernelExC cudaLaunchKernelExC_ptsz cudaEventElapsedTime cudaEventElapsedTime_v2
lab-wrap:
	@echo '$(foreach f,$(LAB_LAUNCHES),-Xlinker --wrap=$(f))'
COMPUTE_SANITIZER ?= $(or $(wildcard $(CUDA_DIR)/bin/compute-sanitizer),$(shell command -v compute-sanitizer))
lab-sanitizer:
	@echo '$(COMPUTE_SANITIZER)'
# All of them at once, "NAME: VALUE" a line, for labs/grade: one make (it asks nvidia-smi, nvcc and mpicc,
# a second or more on a machine of several GPUs) for a grade, not one a value.
lab-settings:
	@echo 'nvcc: $(LAB_NVCC)'; echo 'cuda-dir: $(CUDA_DIR)'; echo 'cuobjdump: $(LAB_CUOBJDUMP)'
	@echo 'wrap: $(foreach f,$(LAB_LAUNCHES),-Xlinker --wrap=$(f))'; echo 'sanitizer: $(COMPUTE_SANITIZER)'
	@echo 'mpirun: $(if $(MPI_HOME),$(MPI_HOME)/bin/mpirun,mpirun)'

# make lab L=NAME [FILE=path]: L and FILE reach labs/grade through the environment (make exports what is
# given on its command line), never through the shell's parsing of a recipe. Its exit status is make's
# (0, or 2 for anything but PASS): autograders call labs/grade itself, whose status is the grade.
lab: lab-programs
	@[ -n "$$L" ] || { echo "make lab L=NAME [FILE=path]: which lab? $(LABS)" >&2; exit 2; }
	@sh labs/grade "$$L" $${FILE:+"$$FILE"}

labs: lab-programs
	@CSV="$(CSV)" sh labs/table.sh $(if $(filter 1,$(SOLUTIONS)),solutions,students) $(LABS)

lab-mistakes: lab-programs lab-mistake-files
	@CSV="$(CSV)" REPORT="$(REPORT)" sh labs/mistakes.sh

labs-handout:
	@sh labs/handout.sh output/labs-handout.tar.gz

# A class: make gradebook SUBMISSIONS=dir [BOOK=output/labs/class] grades every student's files
# (labs/gradebook, which builds the judges of the class's labs only); SLURM=PARTITION, SLURM_MINUTES and
# SLURM_OPTIONS reach it through the environment, for a Slurm job array (labs/gradebook_slurm.sh; lab-arch
# GPU_SM= gives it the architectures a machine without a GPU builds for, which any node runs). make
# classroom writes GitHub Classroom's workflow (labs/classroom.sh), a test a lab of CLASSROOM_LABS, on a
# runner labelled CLASSROOM_RUNS_ON (a YAML value: a list in brackets, or one label); make runner-check, on
# that runner, says what a grade needs and what it lacks (labs/runner_check.sh).
CLASSROOM_RUNS_ON ?= [self-hosted, gpu]
CLASSROOM_LABS ?= $(LABS)
gradebook:
	@sh labs/gradebook "$$SUBMISSIONS" $${BOOK:+"$$BOOK"}
WORKFLOW := .github/workflows/classroom.yml
classroom:
	@mkdir -p $(dir $(WORKFLOW)) && sh labs/classroom.sh "$(CLASSROOM_RUNS_ON)" $(CLASSROOM_LABS) >$(WORKFLOW).new && \
	    mv $(WORKFLOW).new $(WORKFLOW) && echo "written: $(WORKFLOW) ($(words $(CLASSROOM_LABS)) tests)" || \
	    { rm -f $(WORKFLOW).new; exit 1; }
runner-check:
	@sh labs/runner_check.sh
lab-list:
	@echo $(LABS)
lab-arch:
	@echo '$(ARCH)'
# For labs/grade: a library a lab's file uses (labs/rules.txt "LAB link LIB"): how to compile against it
# ("compile: FLAGS") and link it ("link: FLAGS"); no link line where this machine has none.
lab-flags-cublas:
	@echo 'compile:'; echo 'link: -lcublas'
lab-flags-nccl:
	@echo 'compile: $(NCCL_INCLUDE_FLAG)'
	@$(if $(NCCL_LIB),echo 'link: $(NCCL_LINK)',$(call say,$(NCCL_NOTE)))
# mpirun by its name (Open MPI takes the folder of an mpirun given by its path as its installation's
# prefix: /bin/mpirun would make it /), or MPI_HOME's.
lab-mpirun:
	@echo '$(if $(MPI_HOME),$(MPI_HOME)/bin/mpirun,mpirun)'
lab-flags-mpi:
	@echo 'compile: $(MPI_FLAGS)'; $(if $(MPI_FOUND),echo 'link: $(MPI_LINK)',$(call say,$(MPI_NOTE)))

# A planted mistake's source: the solution changed by its line of labs/solutions/mistakes.txt.
.PRECIOUS: output/labs/mistakes/%.cu
.SECONDEXPANSION:
output/labs/mistakes/%.cu: labs/solutions/mistakes.txt labs/solutions/$$(basename $$*).cu labs/plant.sh
	@sh labs/plant.sh $* $@
lab-mistake-files: $(addprefix output/labs/mistakes/,$(addsuffix .cu,$(LAB_MISTAKES)))

# CUDA by Numba Examples, in CUDA C. `make help` lists the targets.
#   make ch2 && ./ch2_reduction/better      build one chapter, run one program
#   make test                               the test suite (works without a GPU)
#   make ARCH="80 90"                       build for other GPUs than the one found

CH1 := add_scalars add_array grid_stride adjust_log device_query
CH2 := naive better library reduce2d blobs warp_shuffle ladder
CH3 := normalize streams events stream_timing vector_add_streams graphs peers multi_gpu
CH4 := add_one histogram histogram_wide histogram_sweep mutex dot_mutex scan equalize
CH5 := naive shared blas sgemm_ladder

CH1_PROGRAMS := $(addprefix ch1_embarrassing/,$(CH1))
CH2_PROGRAMS := $(addprefix ch2_reduction/,$(CH2))
CH3_PROGRAMS := $(addprefix ch3_streams_events/,$(CH3))
CH4_PROGRAMS := $(addprefix ch4_atomics_mutex/,$(CH4))
CH5_PROGRAMS := $(addprefix ch5_matmul/,$(CH5))
PROGRAMS := $(CH1_PROGRAMS) $(CH2_PROGRAMS) $(CH3_PROGRAMS) $(CH4_PROGRAMS) $(CH5_PROGRAMS)

# Architecture: the GPU in this machine if there is one, else a list that covers Turing to Blackwell
# (an sm_80 binary also runs on 8.6 and 8.9, sm_100 on 10.3, sm_120 on 12.1), minus anything this nvcc
# has dropped; PTX for the newest lets future GPUs compile it at start-up.
NVCC     ?= nvcc
CC       := gcc
CUDA_DIR ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC)))
GPU_SM   := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d .)
NVCC_SMS := $(patsubst compute_%,%,$(shell $(NVCC) --list-gpu-arch 2>/dev/null))
ARCH     ?= $(or $(filter $(NVCC_SMS),$(GPU_SM)),$(filter $(NVCC_SMS),75 80 90 100 120))
NEWEST   := $(shell echo $(ARCH) | tr " " "\n" | sort -n | tail -n 1)
GENCODE  := $(foreach sm,$(ARCH),-gencode arch=compute_$(sm),code=sm_$(sm)) \
            -gencode arch=compute_$(NEWEST),code=compute_$(NEWEST)

# Warnings are errors in our own code: nvcc's and the host compiler's (CUB and cuBLAS headers are
# system headers, so their warnings stay out). -lineinfo lets compute-sanitizer name source lines.
CFLAGS    := -std=c11 -O2 -Wall -Wextra -Werror -pedantic -I$(CUDA_DIR)/include
NVCCFLAGS := -std=c++17 -O3 -lineinfo $(GENCODE) --Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
LDLIBS    := -lm

# The multi-GPU programs never use NVLink SHARP (multicast objects): two GPUs do not need it.
export NCCL_NVLS_ENABLE ?= 0

COMMON := $(patsubst %.c,%.o,$(wildcard common/*.c))

# NCCL, for multi_gpu: the CUDA Toolkit's own (CUDA 13 ships it), a system install, or a Python wheel
# (pip install nvidia-nccl-cu12); NCCL_HOME=DIR points elsewhere (DIR/include/nccl.h, DIR/lib*/libnccl.so.2).
# Without it the other programs build and one line says what was left out.
NCCL_WHEEL = $(shell python3 -c 'import nvidia.nccl as m; print(m.__path__[0])' 2>/dev/null)
NCCL_HOME ?= $(or $(firstword $(foreach d,$(CUDA_DIR) /usr /usr/local,$(if $(wildcard $(d)/include/nccl.h),$(d)))),$(NCCL_WHEEL))
NCCL_LIB  := $(firstword $(dir $(wildcard $(addprefix $(NCCL_HOME),/lib/libnccl.so.2 /lib64/libnccl.so.2 \
               /lib/$(shell gcc -print-multiarch)/libnccl.so.2))))
ifeq ($(NCCL_LIB),)
  $(info make: no NCCL found (nccl.h and libnccl.so.2 under $(or $(NCCL_HOME),$(CUDA_DIR), /usr or /usr/local)); \
    ch3_streams_events/multi_gpu is not built; NCCL_HOME=DIR points at one)
  CH3_PROGRAMS := $(filter-out ch3_streams_events/multi_gpu,$(CH3_PROGRAMS))
  PROGRAMS := $(filter-out ch3_streams_events/multi_gpu,$(PROGRAMS))
ch3_streams_events/multi_gpu:
	@echo "ch3_streams_events/multi_gpu needs NCCL, and none was found: NCCL_HOME=DIR points at one" >&2; exit 1
endif
ch3_streams_events/multi_gpu: NVCCFLAGS += -I$(NCCL_HOME)/include
ch3_streams_events/multi_gpu: LDLIBS += -L$(NCCL_LIB) -l:libnccl.so.2 -Xlinker -rpath=$(NCCL_LIB)

# The vendor BLAS comparisons link cuBLAS.
ch5_matmul/blas ch5_matmul/sgemm_ladder: LDLIBS += -lcublas

.PHONY: all ch1 ch2 ch3 ch4 ch5 test sanitize small-gpu fuzz figures clean help
all: $(PROGRAMS)
ch1: $(CH1_PROGRAMS)
ch2: $(CH2_PROGRAMS)
ch3: $(CH3_PROGRAMS)
ch4: $(CH4_PROGRAMS)
ch5: $(CH5_PROGRAMS)

common/%.o: common/%.c common/*.h
	$(CC) $(CFLAGS) -c $< -o $@

# The one pattern rule: every program is one .cu file linked with common/.
%: %.cu $(COMMON) common/*.h
	$(NVCC) $(NVCCFLAGS) $< $(COMMON) -o $@ $(LDLIBS)

tests/unit_common: tests/unit_common.c $(COMMON)
	$(CC) $(CFLAGS) $^ -o $@ -L$(CUDA_DIR)/lib64 -lcudart_static -ldl -lpthread -lrt $(LDLIBS)

# The test suite: TAP tests run by prove. Without a GPU the GPU parts report as skipped.
test: all tests/unit_common
	PROGRAMS="$(PROGRAMS)" prove tests/*.t

# compute-sanitizer's four tools over every program at small sizes (GPU machine only);
# make sanitize ONLY=ch4 checks the runs that match a pattern.
sanitize: all
	PROGRAMS="$(PROGRAMS)" ONLY="$(ONLY)" prove tests/sanitize.sh

# The suite on emulated small GPUs, through MPS (GPU machine only): a GTX 1650, a T4, the whole GPU;
# make small-gpu EMULATE=t4 runs one of them.
small-gpu: all
	PROGRAMS="$(PROGRAMS)" sh tests/small_gpu.sh output/small_gpu $(EMULATE)

# libFuzzer on the image reader and the option parser, with address and undefined-behaviour
# sanitizers (clang and its fuzzer runtime); FUZZ_SECONDS for each, 60 by default.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
tests/fuzz/fuzz_pnm: tests/fuzz/fuzz_pnm.c common/image.c common/output.c common/*.h
	clang $(FUZZ_FLAGS) $(filter %.c,$^) -o $@
tests/fuzz/fuzz_cli: tests/fuzz/fuzz_cli.c common/cli.c common/output.c common/*.h tests/fuzz/exit_hook.h
	clang $(FUZZ_FLAGS) -include tests/fuzz/exit_hook.h $(filter %.c,$^) -o $@
fuzz: tests/fuzz/fuzz_pnm tests/fuzz/fuzz_cli
	sh tests/fuzz/run.sh $(FUZZ_SECONDS)

figures:
	@sh plots/figures.sh

clean:
	rm -f $(PROGRAMS) common/*.o tests/unit_common tests/fuzz/fuzz_pnm tests/fuzz/fuzz_cli

help:
	@echo "targets: all ch1 ch2 ch3 ch4 ch5 test sanitize small-gpu fuzz figures clean"
	@echo "ARCH=\"$(ARCH)\" (override with make ARCH=\"80 90\")"

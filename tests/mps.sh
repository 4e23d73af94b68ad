# mps.sh: small GPUs emulated on a big one through CUDA's Multi-Process Service (MPS), for
# tests/small_gpu.sh and tests/notebook.sh (sourced, not run). MPS gives each client program a share of
# the SMs (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE) and a cap on device memory (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT).
#   mps_start DIR          the daemon, its pipe and log under DIR (exported for the clients); exit 1 if not
#   mps_stop               the daemon and its server, once their clients are gone
#   mps_emulate NAME SMS   the clients' limits for NAME on a GPU of SMS SMs: gtx1650 (14 SMs, 4 GiB),
#                          t4 (40 SMs, 15 GiB) or full (none); status 2 for another NAME
# The daemon starts without the clients' limits: set in its environment they would become every
# client's default. On a machine of several GPUs, MPS_GPU=N gives the daemon GPU N alone (NVIDIA's way:
# CUDA_VISIBLE_DEVICES set for the daemon, and unset for its clients, which see that GPU as device 0).
mps_start() {
    export CUDA_MPS_PIPE_DIRECTORY="$1/pipe" CUDA_MPS_LOG_DIRECTORY="$1/log"
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    [ -z "${MPS_GPU:-}" ] || export CUDA_VISIBLE_DEVICES="$MPS_GPU"
    env -u CUDA_MPS_ACTIVE_THREAD_PERCENTAGE -u CUDA_MPS_PINNED_DEVICE_MEM_LIMIT nvidia-cuda-mps-control -d ||
        { echo "Bail out! the MPS daemon did not start"; exit 1; }
    [ -z "${MPS_GPU:-}" ] || unset CUDA_VISIBLE_DEVICES
}
mps_stop() {
    echo quit | nvidia-cuda-mps-control >/dev/null 2>&1
    for i in 1 2 3 4 5 6 7 8 9 10; do  # the server leaves once its clients are gone
        pgrep -x nvidia-cuda-mps >/dev/null 2>&1 || break  # the control daemon and server (names cut to 15)
        sleep 1
    done
}
# The share of SMS that gives at least WANT SMs, in whole percent.
mps_percent() { echo "$1 $2" | awk '{ p = int(100 * $1 / $2 + 0.999); print (p > 100 ? 100 : p) }'; }
mps_emulate() {
    case $1 in
    gtx1650) export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$(mps_percent 14 "$2") CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=4G ;;
    t4) export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$(mps_percent 40 "$2") CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=15G ;;
    full) unset CUDA_MPS_ACTIVE_THREAD_PERCENTAGE CUDA_MPS_PINNED_DEVICE_MEM_LIMIT ;;
    *) return 2 ;;
    esac
}

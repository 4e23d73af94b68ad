/* protocol.h: the messages between a lab's judge and its runner (labs/README.md, "How a lab is judged").
 * The runner is the student's file linked with labs/runner/runner.cu: its only job is to take inputs,
 * call the student's launch function and hand the outputs back. The judge (inputs, reference, checks,
 * timing, verdict) is another process, built without the student's code. They talk over one UNIX
 * socket that the judge listens on; every message is a header, then its payload:
 *   runner -> judge  HELLO   the device's name, or why the runner could not start CUDA
 *   judge -> runner  CALL    the arguments of one call (struct lab_call_wire), then the bytes of each
 *                            buffer the judge fills; the runner allocates every buffer itself, to its
 *                            exact size (so that memcheck sees one element past its end), poisons
 *                            the others, calls, waits for the GPU. A device buffer marked LAB_GUARD
 *                            (every one, in the runs no sanitizer watches) has LAB_GUARD_BYTES of
 *                            poison after its end, sent back after the call: a write past the end
 *                            shows there even where the file behaves well under the tool
 *   runner -> judge  DONE    the call's outcome (struct lab_done_wire), then the bytes of each buffer
 *                            the judge asked back, each followed by its guard if it has one
 *   judge -> runner  SHARE   a buffer for the timed runs (struct lab_share_wire): device memory the
 *                            runner allocates and poisons, answered with DONE and its CUDA IPC handle,
 *                            which the judge opens (the student's kernels use memory of their own
 *                            process: memory opened from another process can be slower); or host
 *                            memory the judge made, its file descriptor sent with the message, which
 *                            the runner maps and pins. A CALL whose arguments are LAB_SHARED uses them:
 *                            nothing is copied, only DONE comes back
 *   judge -> runner  TOUCH   the runner launches a kernel of its own that does nothing, then DONE: the
 *                            GPU then works for the runner's process when a timed call starts
 *   judge -> runner  NOOP    answered with DONE once the GPU is idle: the round trip the judge's clock
 *                            subtracts
 *   judge -> runner  QUIT    the runner exits 0 */
#ifndef LABS_PROTOCOL_H
#define LABS_PROTOCOL_H
#include <stdint.h>

#define LAB_MAGIC 0x3162616cu  /* "lab1" */
#define LAB_MAX_ARGS 16
#define LAB_MAX_SHARED 16

enum lab_message { LAB_HELLO = 1, LAB_CALL, LAB_DONE, LAB_SHARE, LAB_NOOP, LAB_TOUCH, LAB_QUIT };
enum lab_kind { LAB_INT = 1, LAB_FLOAT, LAB_DEVICE, LAB_HOST };
enum lab_flags {
    LAB_FILL = 1,    /* the judge sends the buffer's first contents (else: poison, 0xff bytes) */
    LAB_RETURN = 2,  /* the runner sends the buffer back after the call */
    LAB_SHARED = 4,  /* the buffer is shared with the judge (SHARE), number `shared` */
    LAB_GUARD = 8    /* a device buffer with LAB_GUARD_BYTES of poison after its end, sent back after the call */
};
#define LAB_GUARD_BYTES 4096

struct lab_header {
    uint32_t magic, type;
    uint64_t bytes;  /* of the payload that follows */
};

struct lab_arg_wire {
    uint32_t kind, flags;
    uint64_t bytes;  /* a buffer's size */
    int64_t i;       /* LAB_INT */
    double f;        /* LAB_FLOAT */
    uint32_t shared, unused;
};

struct lab_call_wire {
    uint32_t count, unused;
    struct lab_arg_wire arg[LAB_MAX_ARGS];
};

#define LAB_ERROR_BYTES 484  /* a DONE's text: a CUDA error's name and description */

struct lab_done_wire {
    int32_t status;    /* 0: the call and the GPU's work ended well; 1: a CUDA error, in `error`, that stays
                        * (sticky: a kernel's fault, the context lost); 3: one that did not (a launch refused);
                        * 2: the runner's own trouble before the student's code ran */
    uint32_t launches; /* kernels the call launched, counted by the runner's wrappers of the launch calls */
    uint32_t elapsed;  /* its calls of cudaEventElapsedTime, counted the same way (ch3_events' rule) */
    char error[LAB_ERROR_BYTES];
};

struct lab_hello_wire {
    int32_t status;  /* 0: CUDA started; else the cudaError_t that stopped it, described in `text` */
    char text[252];  /* the device's name */
};

/* SHARE: one buffer. A host buffer's file descriptor (a memfd) comes in the message's control data. */
struct lab_share_wire {
    uint32_t kind, unused;  /* LAB_DEVICE or LAB_HOST */
    uint64_t bytes;
};

#endif

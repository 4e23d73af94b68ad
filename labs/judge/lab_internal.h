/* lab_internal.h: what the three files of lab.h's library share, and no judge needs: channel.c (the runner's
 * process and the channel to it), timed.c (the timed runs) and lab.c (the rest). A judge includes lab.h. */
#ifndef LABS_LAB_INTERNAL_H
#define LABS_LAB_INTERNAL_H
#include "lab.h"

#include <sys/types.h>

/* The runner's process (lab->runner), started at the first call that needs it. */
struct lab_runner {
    pid_t pid;
    int channel;      /* the connected socket */
    int output;       /* the read end of the runner's stdout and stderr */
    char dir[128];    /* a private folder holding the socket, in lab->channel_dir */
    char partial[512];  /* an output line not yet ended */
    int partial_bytes;
};

/* channel.c */
void runner_setup(struct lab *lab);  /* lab->runner, stopped when the judge exits or is stopped by a signal */
int start_runner(struct lab *lab);   /* unless it runs already: 0, or 1 after saying why it did not start */
void stop_runner(struct lab_runner *r, double grace);  /* `grace` seconds to end by itself, then killed */
double grace(const struct lab *lab);                   /* what a runner ending by itself may take */
void relay_output(struct lab_runner *r, int flush);    /* what it printed, "  | " in front */
int wait_for(struct lab *lab, int fd, short events);   /* 0, or -1: the deadline passed */
int channel_read(struct lab *lab, void *buffer, size_t bytes);  /* 0; 1: channel closed; 2: deadline passed */
int channel_write(struct lab *lab, const void *buffer, size_t bytes);
int send_header(struct lab *lab, uint32_t type, uint64_t bytes);
int runner_lost(struct lab *lab, int how, const char *doing);  /* after a failed read or write: says why; 1 */
int read_done(struct lab *lab, const char *doing);  /* a call's outcome: 0, or 1 after saying why */

/* lab.c */
struct lab_arg_wire *next_arg(struct lab_call *c, uint32_t kind);  /* a call's next argument, zeroed */


#endif

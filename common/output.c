/* output.c: see output.h. */
#define _POSIX_C_SOURCE 200809L
#include "output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_BYTES 4096

/* The files open now. A signal handler reads the table, so an entry is marked live only once its
 * temporary name is complete, and unmarked before anything else changes. */
static struct output {
    FILE *f;
    char path[PATH_BYTES], temp[PATH_BYTES + 32];  /* temp is "" when the path is written in place */
    volatile sig_atomic_t live;
} outputs[8];

static void remove_temporary_files(void)
{
    for (int i = 0; i < (int)(sizeof outputs / sizeof outputs[0]); i++)
        if (outputs[i].live && outputs[i].temp[0])
            unlink(outputs[i].temp);  /* async-signal-safe */
}

/* Ctrl-C, kill, a closed terminal or pipe: remove the temporary files, then die of the same signal. */
static void on_signal(int sig)
{
    remove_temporary_files();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_cleanup(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    atexit(remove_temporary_files);  /* exit(1) from a failed CUDA call mid-run */
    const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (int i = 0; i < (int)(sizeof signals / sizeof signals[0]); i++) {
        struct sigaction old, action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)  /* nohup stays nohup */
            sigaction(signals[i], &action, NULL);
    }
    /* Past a file-size limit (ulimit -f) a write then fails with EFBIG, and is reported, instead of
     * killing the program with its temporary file left behind. */
    signal(SIGXFSZ, SIG_IGN);
}

/* mkdir -p. Returns 0, or -1 with errno set and the folder that failed in `failed`. */
static int make_dirs(const char *dir, char *failed, size_t size)
{
    char path[PATH_BYTES];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(failed, size, "%.64s...", dir);
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            struct stat st;
            if (mkdir(path, 0777) != 0 && !(errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
                if (errno == EEXIST)
                    errno = ENOTDIR;
                snprintf(failed, size, "%s", path);
                return -1;
            }
            *p = saved;
            if (saved == '\0')
                return 0;
        }
    }
}

/* The folder a file goes in, and its name: "a/b.csv" -> "a", "b.csv"; "b.csv" -> ".", "b.csv". */
static const char *split_path(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, size, ".");
    else if (slash == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
    return slash ? slash + 1 : path;
}

/* Where the folder `dir` would be made: the deepest folder of it that exists, in `existing`, and the first
 * that does not, in `missing` ("" when all of it exists). Makes nothing: a run refused later, or one that
 * finds no GPU, must not leave empty folders behind. Returns 0, or -1 with errno set when a part of the
 * path is a file or cannot be looked at (its name in `missing`). */
static int deepest_folder(const char *dir, char *existing, char *missing, size_t size)
{
    char path[PATH_BYTES];
    snprintf(path, sizeof path, "%s", dir);
    snprintf(existing, size, "%s", path[0] == '/' ? "/" : ".");
    missing[0] = '\0';
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        struct stat st;
        if (stat(path, &st) != 0) {
            snprintf(missing, size, "%s", path);
            return errno == ENOENT ? 0 : -1;
        }
        if (!S_ISDIR(st.st_mode)) {
            snprintf(missing, size, "%s", path);
            errno = ENOTDIR;
            return -1;
        }
        snprintf(existing, size, "%s", path);
        *p = saved;
        if (saved == '\0')
            return 0;
    }
}

const char *output_path_problem(const char *path, int is_dir)
{
    static char why[2 * PATH_BYTES + 128];
    char dir[PATH_BYTES], existing[PATH_BYTES], missing[PATH_BYTES];
    struct stat st;
    size_t length = strlen(path);
    if (length == 0 || length >= PATH_BYTES - 32)
        return "is empty or too long";
    int exists = stat(path, &st) == 0;
    if (is_dir) {
        if (exists && !S_ISDIR(st.st_mode))
            return "is not a folder";
        snprintf(dir, sizeof dir, "%s", path);
    } else {
        if (path[length - 1] == '/' || (exists && S_ISDIR(st.st_mode)))
            return "is a folder: give a file name";
        /* A file the user may not write stays as it is, as a shell's > would leave it (the rename that
         * replaces it asks only the folder). Root may write any file, as with >. */
        if (exists && access(path, W_OK) != 0) {
            snprintf(why, sizeof why, "cannot be written: %s", strerror(errno));
            return why;
        }
        if (exists && !S_ISREG(st.st_mode))  /* a device or a FIFO: written in place */
            return NULL;
        split_path(path, dir, sizeof dir);
    }
    if (deepest_folder(dir, existing, missing, sizeof existing) != 0) {
        snprintf(why, sizeof why, "needs the folder '%s', which cannot be made: %s", missing, strerror(errno));
        return why;
    }
    /* Can a file, or the first missing folder, be made there? The test the write will pass: a temporary
     * file in the deepest folder that exists, removed at once. */
    char probe[PATH_BYTES + 32];
    snprintf(probe, sizeof probe, "%s/.probe.XXXXXX", existing);
    int fd = mkstemp(probe);
    if (fd < 0) {
        if (missing[0])
            snprintf(why, sizeof why, "needs the folder '%s', which cannot be made: %s", missing, strerror(errno));
        else
            snprintf(why, sizeof why, "cannot be written: no file can be made in '%s': %s", dir, strerror(errno));
        return why;
    }
    close(fd);
    unlink(probe);
    return NULL;
}

static void fail(struct output *o, const char *what, int err)
{
    fprintf(stderr, "cannot write %s: %s\n", o->path, err ? strerror(err) : what);
    exit(1);  /* the atexit handler removes the temporary file; an old file stays as it was */
}

FILE *output_open(const char *path)
{
    install_cleanup();
    struct output *o = NULL;
    for (int i = 0; i < (int)(sizeof outputs / sizeof outputs[0]) && !o; i++)
        if (!outputs[i].live)
            o = &outputs[i];
    if (!o || snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path - 32) {
        fprintf(stderr, "cannot write %s: %s\n", path, o ? "name too long" : "too many files open at once");
        exit(1);
    }
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && access(path, W_OK) != 0)  /* as a shell's >: a file the user may not write is not replaced */
        fail(o, NULL, errno);
    if (exists && !S_ISREG(st.st_mode)) {
        o->temp[0] = '\0';
        o->f = fopen(path, "w");
        if (!o->f)
            fail(o, NULL, errno);
        o->live = 1;
        return o->f;
    }
    char dir[PATH_BYTES], failed[PATH_BYTES];
    const char *name = split_path(path, dir, sizeof dir);
    if (make_dirs(dir, failed, sizeof failed) != 0) {
        fprintf(stderr, "cannot create output folder %s: %s\n", failed, strerror(errno));
        exit(1);
    }
    snprintf(o->temp, sizeof o->temp, "%s/.%s.XXXXXX", dir, name);
    int fd = mkstemp(o->temp);
    if (fd < 0)
        fail(o, NULL, errno);
    o->live = 1;
    /* mkstemp makes the file private. A file replaced keeps its mode, as a shell's > would, and its owner
     * and group: root may give them back, others may keep its group where they belong to it; else the file
     * is theirs now, as any file they make, with no set-id bits from another's. A new file gets the usual
     * 0666 & ~umask. */
    if (exists) {
        if (fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, (uid_t)-1, st.st_gid) != 0)
            st.st_mode &= 0777;
        fchmod(fd, st.st_mode & 07777);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    o->f = fdopen(fd, "w");
    if (!o->f)
        fail(o, NULL, errno);
    return o->f;
}

static struct output *find(FILE *f)
{
    for (int i = 0; i < (int)(sizeof outputs / sizeof outputs[0]); i++)
        if (outputs[i].live && outputs[i].f == f)
            return &outputs[i];
    fprintf(stderr, "output_close: not a file from output_open\n");
    exit(1);
}

void output_failed(FILE *f)
{
    int err = errno;
    fail(find(f), "a write failed", err);
}

void output_close(FILE *f)
{
    struct output *o = find(f);
    /* ferror is sticky: a write that failed earlier, even one the program did not look at, shows here. */
    if (ferror(f))
        fail(o, "a write failed", 0);
    if (fflush(f) != 0 || (o->temp[0] && fsync(fileno(f)) != 0))
        fail(o, NULL, errno);
    o->f = NULL;
    if (fclose(f) != 0)
        fail(o, NULL, errno);
    if (o->temp[0] && rename(o->temp, o->path) != 0)
        fail(o, NULL, errno);
    o->live = 0;
}

/* What the tests run inside boxes: system calls the filter refuses, and the two ends of the
 * covert channels between boxes (locks and file events on files every box sees).
 *
 *   probe call personality|memfd_secret|modify_ldt   one call, its result on stdout
 *   probe hold FIFO PATH...  lock every PATH, say whether it could, keep the locks until FIFO
 *                         (opened once the locks are tried) ends
 *   probe probe PATH...   which locks on PATH are visible: first a child's of this box ("self"),
 *                         then whatever the other box holds ("other")
 *   probe watch PATH...   whether every PATH can be watched (inotify; dnotify on directories)
 *
 * PATH "stdin" is the program's standard input, reopened through /proc/self/fd/0 where a new
 * open file description is needed. Locks taken: flock(2) on everything; on files also a POSIX
 * read lock on byte 0 and an open-file-description read lock on byte 1 (read locks: the files
 * are read-only, and a write lock probe through F_GETLK / F_OFD_GETLK sees them). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PATHS 32

static const char *real_path(const char *path) {
    return strcmp(path, "stdin") == 0 ? "/proc/self/fd/0" : path;
}

static int open_path(const char *path) {
    return open(real_path(path), O_RDONLY | O_CLOEXEC);
}

static int is_dir(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

static int call(const char *name) {
    long r;
    if (strcmp(name, "personality") == 0) {
        /* The query and the default pass; ASLR off, READ_IMPLIES_EXEC and PER_LINUX32 must not
         * take effect, whatever the calls answer. */
        r = syscall(SYS_personality, 0xffffffffUL);
        printf("query %ld\n", r);
        r = syscall(SYS_personality, 0UL);
        printf("default %ld\n", r);
        unsigned long asked[] = {0x0040000UL, 0x0400000UL, 0x0008UL};
        for (int i = 0; i < 3; i++) {
            errno = 0;
            r = syscall(SYS_personality, asked[i]);
            printf("set %#lx %s\n", asked[i], r == -1 ? strerrorname_np(errno) : "accepted");
        }
        r = syscall(SYS_personality, 0xffffffffUL);
        printf("now %#lx\n", (unsigned long)r);
        return 0;
    }
    if (strcmp(name, "memfd_secret") == 0) {
        r = syscall(447, 0UL);
        printf("memfd_secret %s\n", r == -1 ? strerrorname_np(errno) : "accepted");
        return 0;
    }
    if (strcmp(name, "modify_ldt") == 0) {
        char table[64];
        r = syscall(SYS_modify_ldt, 0, table, sizeof table);
        printf("modify_ldt %s\n", r == -1 ? strerrorname_np(errno) : "accepted");
        return 0;
    }
    fprintf(stderr, "unknown call %s\n", name);
    return 2;
}

/* Takes every lock on `path` without waiting (a lock held elsewhere fails with EWOULDBLOCK or
 * EAGAIN); 0 or an errno. The descriptors stay open, and the locks with them. */
static int lock_all(const char *path) {
    int fd = open_path(path);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0)
        return errno;
    if (is_dir(fd))
        return 0;
    struct flock posix = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    if (fcntl(fd, F_SETLK, &posix) != 0)
        return errno;
    int ofd_fd = open_path(path);
    struct flock ofd = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 1, .l_len = 1};
    if (ofd_fd < 0 || fcntl(ofd_fd, F_OFD_SETLK, &ofd) != 0)
        return errno;
    return 0;
}

/* Prints, for every lock kind on `path`, whether someone else holds it. */
static void report_locks(const char *who, const char *path) {
    int fd = open_path(path);
    if (fd < 0) {
        printf("%s %s open %s\n", who, path, strerrorname_np(errno));
        return;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        printf("%s %s flock free\n", who, path);
        flock(fd, LOCK_UN);
    } else {
        printf("%s %s flock %s\n", who, path, errno == EWOULDBLOCK ? "locked" : strerrorname_np(errno));
    }
    if (!is_dir(fd)) {
        struct flock posix = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
        if (fcntl(fd, F_GETLK, &posix) != 0)
            printf("%s %s posix %s\n", who, path, strerrorname_np(errno));
        else
            printf("%s %s posix %s\n", who, path, posix.l_type == F_UNLCK ? "free" : "locked");
        struct flock ofd = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 1, .l_len = 1};
        if (fcntl(fd, F_OFD_GETLK, &ofd) != 0)
            printf("%s %s ofd %s\n", who, path, strerrorname_np(errno));
        else
            printf("%s %s ofd %s\n", who, path, ofd.l_type == F_UNLCK ? "free" : "locked");
    }
    close(fd);
}

static int hold(const char *until, int n, char **paths) {
    int failed = 0;
    for (int i = 0; i < n; i++) {
        int err = lock_all(paths[i]);
        if (err != 0) {
            printf("cannot lock %s: %s\n", paths[i], strerrorname_np(err));
            failed = 1;
        }
    }
    if (!failed)
        printf("held\n");
    fflush(stdout);
    /* The test opens the other end once this box has tried (so the other box looks while the
     * locks are held) and closes it once the other box has looked. */
    int wait = open(until, O_RDONLY | O_CLOEXEC);
    if (wait < 0) {
        perror(until);
        return 3;
    }
    char buf[64];
    while (read(wait, buf, sizeof buf) > 0) {
    }
    return 0;
}

/* A child of this box holds the locks while the parent looks (so the probes can see a lock at
 * all), then the parent looks again with nobody here holding any. */
static int probe(int n, char **paths) {
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0)
        return 3;
    pid_t child = fork();
    if (child == 0) {
        close(to_child[1]);
        close(from_child[0]);
        int err = 0;
        for (int i = 0; i < n && err == 0; i++)
            err = lock_all(paths[i]);
        if (write(from_child[1], &err, sizeof err) != sizeof err)
            _exit(3);
        char buf;
        while (read(to_child[0], &buf, 1) > 0) {
        }
        _exit(0);
    }
    close(from_child[1]);
    close(to_child[0]);
    int err = 0;
    if (read(from_child[0], &err, sizeof err) != sizeof err)
        return 3;
    if (err != 0)
        printf("self cannot lock: %s\n", strerrorname_np(err));
    for (int i = 0; i < n; i++)
        report_locks("self", paths[i]);
    close(to_child[1]);
    waitpid(child, NULL, 0);
    for (int i = 0; i < n; i++)
        report_locks("other", paths[i]);
    return 0;
}

/* Whether this box can be told of another box's use of every PATH: inotify on the path, dnotify
 * on a directory. */
static int watch(int n, char **paths) {
    int inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (inotify < 0)
        printf("inotify_init1 %s\n", strerrorname_np(errno));
    for (int i = 0; i < n; i++) {
        if (inotify >= 0) {
            int w = inotify_add_watch(inotify, real_path(paths[i]), IN_OPEN | IN_ACCESS);
            printf("inotify %s %s\n", paths[i], w < 0 ? strerrorname_np(errno) : "watching");
        }
        int fd = open_path(paths[i]);
        if (fd >= 0 && is_dir(fd)) {
            int r = fcntl(fd, F_NOTIFY, DN_ACCESS | DN_MULTISHOT);
            printf("dnotify %s %s\n", paths[i], r < 0 ? strerrorname_np(errno) : "watching");
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3 || argc - 2 > MAX_PATHS) {
        fprintf(stderr, "usage: probe call|hold|probe|watch ARG...\n");
        return 2;
    }
    char *mode = argv[1];
    int n = argc - 2;
    char **args = argv + 2;
    if (strcmp(mode, "call") == 0)
        return call(args[0]);
    if (strcmp(mode, "hold") == 0)
        return n < 2 ? 2 : hold(args[0], n - 1, args + 1);
    if (strcmp(mode, "probe") == 0)
        return probe(n, args);
    if (strcmp(mode, "watch") == 0)
        return watch(n, args);
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}

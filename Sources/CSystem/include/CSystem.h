#ifndef CSYSTEM_H
#define CSYSTEM_H

// Small C shims for what Glibc's Swift module does not expose (epoll, accept4, eventfd,
// SO_PEERCRED) plus sockaddr_un handling, which is error-prone from Swift.
// Every function returns a non-negative value on success and -errno on failure, so Swift
// callers never have to read the thread-local errno after an intervening call.

#include <stddef.h>
#include <stdint.h>

/// One readiness event: `data` is the caller's token given to csys_epoll_add/mod.
typedef struct {
    uint32_t events;
    uint64_t data;
} csys_event;

enum {
    CSYS_EPOLLIN = 0x001,
    CSYS_EPOLLOUT = 0x004,
    CSYS_EPOLLERR = 0x008,
    CSYS_EPOLLHUP = 0x010,
    CSYS_EPOLLRDHUP = 0x2000,
};

int csys_epoll_create(void);
int csys_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int csys_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data);
int csys_epoll_del(int epfd, int fd);
/// Waits for events; fills at most `max` entries of `out`. Returns the count (0 on timeout).
int csys_epoll_wait(int epfd, csys_event *out, int max, int timeout_ms);

/// Accepts one connection as nonblocking and close-on-exec.
int csys_accept(int listen_fd);
/// A nonblocking, close-on-exec eventfd used to wake an epoll loop from other threads.
int csys_eventfd(void);
int csys_eventfd_signal(int fd);
int csys_eventfd_drain(int fd);

/// Creates a nonblocking, close-on-exec Unix stream socket bound to `path` and listening.
/// -EADDRINUSE if the path exists; -ENAMETOOLONG if the path does not fit sockaddr_un.
int csys_unix_listen(const char *path, int backlog);
/// As csys_unix_listen, with the socket file created with exactly `mode` (e.g. 0660): set on the socket before
/// bind, with the umask cleared of those bits for the bind alone, so no chmod by path follows (a path another user
/// could swap for a link between bind and chmod). The umask is the process's: call it before other threads create
/// files, or accept that a file created in that instant gets `mode`'s complement as its umask.
int csys_unix_listen_mode(const char *path, int backlog, unsigned int mode);
/// Connects a close-on-exec Unix stream socket to `path` (blocking connect).
int csys_unix_connect(const char *path);
/// 1 if `fd` is a listening stream socket, 0 if not, -errno on failure.
int csys_is_listening_socket(int fd);

int csys_set_nonblocking(int fd, int on);
/// SO_PEERCRED of a connected Unix socket.
int csys_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/// send(2) with MSG_NOSIGNAL so a vanished peer gives EPIPE instead of killing the process.
ptrdiff_t csys_send(int fd, const void *buf, size_t len);
ptrdiff_t csys_recv(int fd, void *buf, size_t len);
/// Polls one descriptor; returns the revents (0 on timeout).
int csys_poll(int fd, short events, int timeout_ms);
int csys_close(int fd);

/// syncfs(2): flushes every file of the file system holding `fd` in one go. The static export
/// makes hundreds of renames durable with it instead of one fsync (a journal commit) per file.
int csys_syncfs(int fd);

/// Starts a detached thread that calls `body(context)`, named `name` (cut to the 15 bytes Linux keeps; NULL for
/// none): the thread Foundation's `Thread` would start, without Foundation. 0 or -errno.
int csys_thread_start(const char *name, void (*body)(void *context), void *context);

// ThreadSanitizer's annotations, present only in a program built with -sanitize=thread (the weak references are
// null otherwise, so these cost one test of a constant). Synchronization.Mutex locks in an uninstrumented library,
// so TSan sees no order between two critical sections of one Mutex; Locking's `Lock` reports each one with these:
// acquire on `address` once locked, release before unlocking.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

/// Tells ThreadSanitizer (if present) that what was released on `address` happens before what follows.
static inline void csys_sanitizer_acquire(const void *address) {
    if (__tsan_acquire) __tsan_acquire((void *)address);
}

/// Tells ThreadSanitizer (if present) that what came before happens before the next acquire on `address`.
static inline void csys_sanitizer_release(const void *address) {
    if (__tsan_release) __tsan_release((void *)address);
}

#endif

// _GNU_SOURCE is needed for accept4 and struct ucred; it stays inside this file on purpose
// (defining it for Swift breaks Glibc's bind/connect signatures).
#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define RET(x) do { int r__ = (x); return r__ < 0 ? -errno : r__; } while (0)

int csys_epoll_create(void) { RET(epoll_create1(EPOLL_CLOEXEC)); }

int csys_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    RET(epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev));
}

int csys_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    RET(epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev));
}

int csys_epoll_del(int epfd, int fd) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    RET(epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev));
}

int csys_epoll_wait(int epfd, csys_event *out, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n;
    do {
        n = epoll_wait(epfd, evs, max, timeout_ms);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return -errno;
    for (int i = 0; i < n; i++) {
        out[i].events = evs[i].events;
        out[i].data = evs[i].data.u64;
    }
    return n;
}

int csys_accept(int listen_fd) {
    int fd;
    do {
        fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd < 0 ? -errno : fd;
}

int csys_eventfd(void) { RET(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)); }

int csys_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t n = write(fd, &one, sizeof one);
    return (n < 0 && errno != EAGAIN) ? -errno : 0;
}

int csys_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t n = read(fd, &value, sizeof value);
    return (n < 0 && errno != EAGAIN) ? -errno : 0;
}

static int fill_address(struct sockaddr_un *addr, const char *path) {
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof addr->sun_path) return -ENAMETOOLONG;
    memcpy(addr->sun_path, path, len);
    return 0;
}

int csys_unix_listen(const char *path, int backlog) {
    struct sockaddr_un addr;
    int r = fill_address(&addr, path);
    if (r < 0) return r;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, backlog) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

static pthread_mutex_t umask_lock = PTHREAD_MUTEX_INITIALIZER;

int csys_unix_listen_mode(const char *path, int backlog, unsigned int mode) {
    struct sockaddr_un addr;
    int r = fill_address(&addr, path);
    if (r < 0) return r;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    // Linux creates the socket file with the socket inode's mode less the umask.
    if (fchmod(fd, (mode_t)(mode & 07777)) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    // The umask is the process's: binds in this process take turns, so none restores another's temporary mask.
    pthread_mutex_lock(&umask_lock);
    mode_t previous = umask((mode_t)(~mode & 0777));
    int bound = bind(fd, (struct sockaddr *)&addr, sizeof addr);
    int bind_errno = errno;
    umask(previous);
    pthread_mutex_unlock(&umask_lock);
    if (bound < 0 || listen(fd, backlog) < 0) {
        int e = bound < 0 ? bind_errno : errno;
        close(fd);
        return -e;
    }
    return fd;
}

int csys_unix_connect(const char *path) {
    struct sockaddr_un addr;
    int r = fill_address(&addr, path);
    if (r < 0) return r;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int c;
    do {
        c = connect(fd, (struct sockaddr *)&addr, sizeof addr);
    } while (c < 0 && errno == EINTR);
    if (c < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

int csys_is_listening_socket(int fd) {
    int value = 0;
    socklen_t len = sizeof value;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &len) < 0) return -errno;
    return value ? 1 : 0;
}

int csys_set_nonblocking(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -errno;
    flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    RET(fcntl(fd, F_SETFL, flags));
}

int csys_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) return -errno;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

ptrdiff_t csys_send(int fd, const void *buf, size_t len) {
    ssize_t n;
    do {
        n = send(fd, buf, len, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n < 0 ? -errno : n;
}

ptrdiff_t csys_recv(int fd, void *buf, size_t len) {
    ssize_t n;
    do {
        n = recv(fd, buf, len, 0);
    } while (n < 0 && errno == EINTR);
    return n < 0 ? -errno : n;
}

int csys_poll(int fd, short events, int timeout_ms) {
    struct pollfd p = {.fd = fd, .events = events, .revents = 0};
    int n;
    do {
        n = poll(&p, 1, timeout_ms);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return -errno;
    return n == 0 ? 0 : p.revents;
}

int csys_close(int fd) { RET(close(fd)); }

int csys_syncfs(int fd) { RET(syncfs(fd)); }

struct csys_thread_start {
    void (*body)(void *);
    void *context;
    char name[16];
};

static void *csys_thread_main(void *argument) {
    struct csys_thread_start start = *(struct csys_thread_start *)argument;
    free(argument);
    if (start.name[0] != 0) pthread_setname_np(pthread_self(), start.name);
    start.body(start.context);
    return NULL;
}

int csys_thread_start(const char *name, void (*body)(void *context), void *context) {
    struct csys_thread_start *start = calloc(1, sizeof *start);
    if (start == NULL) return -ENOMEM;
    start->body = body;
    start->context = context;
    if (name != NULL) strncpy(start->name, name, sizeof start->name - 1);
    pthread_t thread;
    int error = pthread_create(&thread, NULL, csys_thread_main, start);
    if (error != 0) {
        free(start);
        return -error;
    }
    pthread_detach(thread);
    return 0;
}

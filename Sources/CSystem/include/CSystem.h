#ifndef CSYSTEM_H
#define CSYSTEM_H
// Small C shims for what Glibc's Swift module does not expose (epoll, accept4).
int csystem_placeholder(void);
#endif

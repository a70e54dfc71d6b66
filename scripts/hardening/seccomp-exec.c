/*
 * seccomp-exec: run a command under the seccomp filters showcased.service asks systemd for, so
 * scripts/hardening-smoke.sh can check the daemon survives them without systemd as PID 1.
 *
 *   seccomp-exec ALLOWED_SYSCALL_NUMBERS_FILE COMMAND [ARG...]
 *
 * Reproduces, for x86-64:
 *   SystemCallArchitectures=native   other ABIs (i386, x32) are refused
 *   SystemCallFilter=…               only the numbers listed in the file are allowed (the script
 *                                    expands @system-service minus @privileged and @resources with
 *                                    `systemd-analyze syscall-filter`); everything else fails with
 *   SystemCallErrorNumber=EPERM      EPERM rather than SIGSYS
 *   MemoryDenyWriteExecute=yes       mmap with PROT_WRITE|PROT_EXEC, mprotect/pkey_mprotect adding
 *                                    PROT_EXEC and shmat with SHM_EXEC fail with EPERM (the same
 *                                    rules systemd installs)
 *   RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
 *                                    socket() of any other family fails with EAFNOSUPPORT
 * and sets no_new_privs (NoNewPrivileges=yes), which an unprivileged seccomp filter requires.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_INSNS 4096
static struct sock_filter prog[MAX_INSNS];
static int n;

static void emit(struct sock_filter insn) {
    if (n >= MAX_INSNS) {
        fprintf(stderr, "seccomp-exec: filter too long\n");
        exit(2);
    }
    prog[n++] = insn;
}

#define LD(off) emit((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off)))
#define JEQ(k, t, f) emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f)))
#define JGE(k, t, f) emit((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (k), (t), (f)))
#define AND(k) emit((struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, (k)))
#define RET(k) emit((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (k)))

#define NR offsetof(struct seccomp_data, nr)
#define ARCH offsetof(struct seccomp_data, arch)
#define ARG(i) (offsetof(struct seccomp_data, args) + (i) * sizeof(__u64)) /* low 32 bits (LE) */

/* Refuse syscall `nr` with `err` when (args[arg] & mask) == value; fall through otherwise. */
static void refuse_when(int nr, int arg, __u32 mask, __u32 value, int err) {
    LD(NR);
    JEQ(nr, 0, 4);
    LD(ARG(arg));
    AND(mask);
    JEQ(value, 0, 1);
    RET(SECCOMP_RET_ERRNO | err);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: seccomp-exec ALLOWED_SYSCALL_NUMBERS_FILE COMMAND [ARG...]\n");
        return 64;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) {
        perror(argv[1]);
        return 66;
    }

    LD(ARCH);
    JEQ(AUDIT_ARCH_X86_64, 1, 0);
    RET(SECCOMP_RET_KILL_PROCESS);
    LD(NR);
    JGE(__X32_SYSCALL_BIT, 0, 1);
    RET(SECCOMP_RET_ERRNO | EPERM);

    refuse_when(SYS_mmap, 2, 0x2 | 0x4, 0x2 | 0x4, EPERM); /* PROT_WRITE|PROT_EXEC */
    refuse_when(SYS_mprotect, 2, 0x4, 0x4, EPERM);         /* PROT_EXEC */
    refuse_when(SYS_pkey_mprotect, 2, 0x4, 0x4, EPERM);
    refuse_when(SYS_shmat, 2, 0100000, 0100000, EPERM);    /* SHM_EXEC */

    LD(NR);
    JEQ(SYS_socket, 0, 5);
    LD(ARG(0));
    JEQ(1, 3, 0);  /* AF_UNIX */
    JEQ(2, 2, 0);  /* AF_INET */
    JEQ(10, 1, 0); /* AF_INET6 */
    RET(SECCOMP_RET_ERRNO | EAFNOSUPPORT);

    LD(NR);
    int nr, allowed = 0;
    while (fscanf(list, "%d", &nr) == 1) {
        JEQ(nr, 0, 1);
        RET(SECCOMP_RET_ALLOW);
        allowed++;
    }
    fclose(list);
    if (allowed == 0) {
        fprintf(stderr, "seccomp-exec: %s lists no system call\n", argv[1]);
        return 65;
    }
    RET(SECCOMP_RET_ERRNO | EPERM);

    struct sock_fprog fprog = {.len = (unsigned short)n, .filter = prog};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        perror("seccomp-exec: PR_SET_NO_NEW_PRIVS");
        return 71;
    }
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) {
        perror("seccomp-exec: seccomp");
        return 71;
    }
    execvp(argv[2], argv + 2);
    perror("seccomp-exec: exec");
    return 127;
}

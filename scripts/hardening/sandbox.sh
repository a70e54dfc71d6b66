#!/usr/bin/env bash
# Runs a command the way systemd/showcased.service confines showcased, as far as that can be done
# without systemd as PID 1 (needs root: it uses a private mount namespace).
#
#   scripts/hardening/sandbox.sh --state DIR [--rw DIR]... [--listen SOCKET] -- COMMAND [ARG...]
#
#   --state DIR     scratch directory for the compiled seccomp helper and the syscall list
#   --rw DIR        stays writable (the unit's RuntimeDirectory=/CacheDirectory=); repeatable
#   --ro-bind SRC DST  bind SRC read-only over the existing file DST (e.g. a CA bundle for a test)
#   --listen PATH   socket activation: systemd-socket-activate listens on PATH and execs the
#                   command on the first connection with LISTEN_FDS/LISTEN_PID (as the .socket does)
# Environment: SANDBOX_UID / SANDBOX_GID (default 65534, "nobody": an unprivileged user).
#
# Reproduced from the unit (read from systemd/showcased.service where it says so):
#   User=/Group=, CapabilityBoundingSet=, AmbientCapabilities=, NoNewPrivileges=  setpriv
#   SystemCallFilter= (the unit's lines, expanded by systemd-analyze), SystemCallErrorNumber=EPERM,
#   SystemCallArchitectures=native, MemoryDenyWriteExecute=yes,
#   RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6                  seccomp-exec.c (beside this)
#   ProtectSystem=strict (every mount read-only but --rw), ProtectKernelTunables=, ProtectControlGroups=
#   PrivateTmp= (/tmp, /var/tmp empty tmpfs), ProtectHome= (/home, /root, /run/user hidden)
#   PrivateDevices= (a /dev with null zero full random urandom only)
#   ProtectProc=invisible, ProcSubset=pid (a fresh /proc: hidepid=invisible,subset=pid)
#   UMask=0077
# Not reproduced: RestrictNamespaces=, LockPersonality=, RestrictRealtime=, RestrictSUIDSGID=,
# ProtectClock=/ProtectHostname=/ProtectKernelModules=/ProtectKernelLogs= beyond what the syscall
# filter already refuses, PrivateMounts=, RemoveIPC=, KeyringMode=, DevicePolicy= (cgroup device
# controller): none of them gives a Swift binary anything it uses.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
unit=$here/../../systemd/showcased.service

die() { echo "sandbox: $*" >&2; exit 70; }

if [ -z "${SANDBOX_INNER:-}" ]; then
    [ "$(id -u)" -eq 0 ] || die "needs root (a private mount namespace and setpriv)"
    state='' listen='' rw=() binds=()
    while [ $# -gt 0 ]; do
        case $1 in
            --state) state=$2; shift 2 ;;
            --rw) rw+=("$(readlink -f "$2")"); shift 2 ;;
            --listen) listen=$2; shift 2 ;;
            --ro-bind) binds+=("$(readlink -f "$2")" "$3"); shift 3 ;;
            --) shift; break ;;
            *) die "unknown option $1" ;;
        esac
    done
    [ -n "$state" ] && [ $# -gt 0 ] || die "usage: sandbox.sh --state DIR [--rw DIR]... [--listen SOCKET] -- COMMAND..."
    mkdir -p "$state"

    # The unit must still ask for what seccomp-exec.c reproduces; otherwise this run proves nothing.
    key() { sed -n "s/^$1=//p" "$unit"; }
    [ "$(key MemoryDenyWriteExecute)" = yes ] || die "unit: MemoryDenyWriteExecute changed; update seccomp-exec.c"
    [ "$(key RestrictAddressFamilies)" = "AF_UNIX AF_INET AF_INET6" ] || die "unit: RestrictAddressFamilies changed; update seccomp-exec.c"
    [ "$(key SystemCallErrorNumber)" = EPERM ] || die "unit: SystemCallErrorNumber changed; update seccomp-exec.c"
    [ "$(key SystemCallArchitectures)" = native ] || die "unit: SystemCallArchitectures changed; update seccomp-exec.c"
    [ "$(uname -m)" = x86_64 ] || die "seccomp-exec.c knows x86-64 only"

    cc -O2 -o "$state/seccomp-exec" "$here/seccomp-exec.c"

    # SystemCallFilter=: allowed = union of the allow lines − union of the ~ lines (systemd's rule).
    expand() { # NAME: a syscall or @set, printed as syscall names
        case $1 in
            @*) systemd-analyze syscall-filter "$1" | tail -n +2 | sed 's/^ *//' | grep -v -e '^#' -e '^$' \
                    | while read -r s; do expand "$s"; done ;;
            *) echo "$1" ;;
        esac
    }
    : >"$state/allow.names"
    : >"$state/deny.names"
    while read -r value; do
        case $value in
            '~'*) for s in ${value#\~}; do expand "$s"; done >>"$state/deny.names" ;;
            *) for s in $value; do expand "$s"; done >>"$state/allow.names" ;;
        esac
    done < <(key SystemCallFilter)
    header=$(echo '#include <asm/unistd.h>' | cc -E -dM - | sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9]*\)$/\1 \2/p')
    comm -23 <(sort -u "$state/allow.names") <(sort -u "$state/deny.names") \
        | awk 'NR == FNR { nr[$1] = $2; next } $1 in nr { print nr[$1] }' <(echo "$header") - \
        >"$state/allow.nrs"
    [ -s "$state/allow.nrs" ] || die "no system call left in the unit's SystemCallFilter="

    export SANDBOX_INNER=1 SANDBOX_STATE=$state SANDBOX_LISTEN=$listen
    SANDBOX_RW=$(printf '%s\n' "${rw[@]}")
    SANDBOX_BINDS=$(printf '%s\n' "${binds[@]}")
    export SANDBOX_RW SANDBOX_BINDS
    exec unshare -m --propagation private "$0" "$@"
fi

# ---- inside the private mount namespace, still root ----
uid=${SANDBOX_UID:-65534}
gid=${SANDBOX_GID:-65534}
mapfile -t rw <<<"$SANDBOX_RW"

for d in "${rw[@]}"; do [ -z "$d" ] || mount --bind "$d" "$d"; done
mapfile -t binds <<<"$SANDBOX_BINDS"
for ((i = 0; i + 1 < ${#binds[@]}; i += 2)); do
    mount --bind "${binds[i]}" "${binds[i + 1]}" # made read-only with everything else below
done

# PrivateDevices=: build the new /dev aside, then move it over the old one.
newdev=$(mktemp -d /tmp/sandbox-dev.XXXXXX)
mount -t tmpfs -o mode=0755,nosuid,noexec tmpfs "$newdev"
for n in null zero full random urandom; do
    touch "$newdev/$n"
    mount --bind "/dev/$n" "$newdev/$n"
done
mkdir "$newdev/shm" && mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$newdev/shm"
ln -s /proc/self/fd "$newdev/fd"
ln -s /proc/self/fd/0 "$newdev/stdin"
ln -s /proc/self/fd/1 "$newdev/stdout"
ln -s /proc/self/fd/2 "$newdev/stderr"
mount --move "$newdev" /dev
rmdir "$newdev"

# PrivateTmp=, ProtectHome=.
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /var/tmp
for h in /home /root /run/user; do
    [ -d "$h" ] && mount -t tmpfs -o ro,mode=0755,nosuid,nodev tmpfs "$h"
done

# ProtectProc=invisible, ProcSubset=pid.
mount -t proc -o nosuid,nodev,noexec,hidepid=invisible,subset=pid proc /proc

# ProtectSystem=strict (+ ProtectKernelTunables=, ProtectControlGroups=): everything read-only
# except /dev, /proc, the fresh /tmp and the --rw directories.
keep_rw() {
    case $1 in /dev | /dev/* | /proc | /proc/* | /tmp | /var/tmp) return 0 ;; esac
    local d
    for d in "${rw[@]}"; do [ "$1" = "$d" ] && return 0; done
    return 1
}
while read -r target; do
    target=$(printf '%b' "$target") # findmnt -r escapes blanks as \x20
    keep_rw "$target" || mount -o remount,bind,ro "$target" 2>/dev/null || true
done < <(findmnt -rn -o TARGET | sort -u)
if touch /usr/.sandbox-probe 2>/dev/null; then
    rm -f /usr/.sandbox-probe
    die "the root file system is still writable; refusing to pretend"
fi

umask 0077
cd /
run=(setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all --bounding-set=-all
    --no-new-privs "$SANDBOX_STATE/seccomp-exec" "$SANDBOX_STATE/allow.nrs" "$@")
if [ -n "$SANDBOX_LISTEN" ]; then
    exec systemd-socket-activate -l "$SANDBOX_LISTEN" "${run[@]}"
fi
exec "${run[@]}"

#!/usr/bin/env bash
# The scale-out path run for real, by `make test` (check-export-sync): showcase-export-sync.service's rclone
# command copies an export tree to a real SFTP server, and a second nginx serves the copy.
#   1. the command is read out of the unit's set-up comment and out of README "Serving many web hosts" (they
#      must be the same argv, and both must reset ExecStart= first); only the two paths that name this
#      machine's files are replaced: the export directory and the --config file. The remote ("showcase-cdn:…")
#      stays as written: the test's rclone.conf defines it as an alias for the SFTP remote below;
#   2. Debian's OpenSSH sshd runs by hand, not as a daemon (-D -e), on a free loopback port with its own
#      config, host key, authorized key and pid file in a temporary directory; rclone's sftp backend logs in
#      with a key only and checks the host key against a known_hosts file made from it;
#   3. the export written by showcase-export-sample (the daemon's writer) is synced, and nginx with the shipped
#      etc/nginx/showcase.conf serves the origin tree and, as a second nginx, the synced copy: every document
#      has the same bytes, ETag, Last-Modified and Content-Type from both (rclone's sftp backend keeps mtimes,
#      and nginx's ETag is mtime and size); the manifest and the .json.gz files are not copied (the command
#      excludes them), so the mirror answers a gzip client with the plain document;
#   4. a second sync of the unchanged tree transfers nothing: rclone says so and no remote file is rewritten
#      (inode, size, mtime and ctime of every remote file as before);
#   5. an overlay edit (the daemon's rewrite of the changed documents) uploads exactly those documents; a
#      same-size change with the mtime kept is uploaded too, so --checksum really compares content (an SFTP
#      account without a shell has no md5sum for rclone to run, and rclone then falls back to size only);
#   6. dropping a storefront removes its documents from the origin tree (the writer, as the daemon does) and,
#      after the next sync, from the remote: the mirror nginx answers 404 for them.
# Run it as root, as make test does. Not as root, sshd can let in only the user it runs as, and only if that
# account has a login shell (rclone runs md5sum through it) and is not locked (UsePAM no): not uid 65534.
# The sync never writes its rclone.conf (rclone would, to remember what it detected about the SFTP server;
# the unit's /etc is read-only under ProtectSystem=strict) and never falls back to --size-only.
set -euo pipefail
cd "$(dirname "$0")/.."

CHECK=check-export-sync
. scripts/lib.sh

command -v rclone >/dev/null || fail "rclone is missing (make deps installs it)"
[ -x /usr/sbin/sshd ] || fail "/usr/sbin/sshd is missing (make deps installs openssh-server)"
command -v ssh-keygen >/dev/null || fail "ssh-keygen is missing (make deps installs openssh-client)"
command -v nginx >/dev/null || fail "nginx is missing (make deps installs it)"
command -v curl >/dev/null || fail "curl is missing (make deps installs it)"
command -v python3 >/dev/null || fail "python3 is missing (make deps installs it)"
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
sample=$bin_dir/showcase-export-sample
[ -x "$sample" ] || fail "no built showcase-export-sample in $bin_dir (run swift build first)"

unit=systemd/showcase-export-sync.service
[ -f "$unit" ] || fail "$unit is missing"

work=$(mktemp -d)
sshd_pid='' origin_pid='' mirror_pid=''
cleanup() {
    stop_pid "$mirror_pid"
    stop_pid "$origin_pid"
    stop_pid "$sshd_pid"
    rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"

# 1. The command, as systemd will split it (double quotes group words; none of systemd's specifiers or
#    variables is used, which the parser refuses), from both places an operator copies it from.
python3 - "$unit" README.md >"$work/argv" <<'PY' || fail "could not read the rclone command from $unit and README.md"
import shlex, sys

def drop_in(lines, source):
    """The ExecStart= line after an `ExecStart=` reset, with its continuation lines, split into words."""
    for index, line in enumerate(lines):
        if line.startswith("ExecStart=/"):
            previous = lines[index - 1] if index else ""
            if previous != "ExecStart=":
                sys.exit(f"{source}: the drop-in does not reset ExecStart= before setting it "
                         "(the unit's placeholder would run first and fail)")
            text = line
            while text.endswith("\\"):
                index += 1
                text = text[:-1] + " " + lines[index]
            command = text[len("ExecStart="):]
            for bad in ("%", "$", "'"):
                if bad in command:
                    sys.exit(f"{source}: {bad} in the command: extend this parser to systemd's rules first")
            words = shlex.split(command)
            if ";" in words:
                sys.exit(f"{source}: a lone ; separates commands for systemd: extend this parser first")
            return words
    sys.exit(f"{source}: no ExecStart=/… drop-in line")

unit_lines = [line.lstrip("#").strip() for line in open(sys.argv[1], encoding="utf-8") if line.startswith("#")]
readme_lines = [line.strip() for line in open(sys.argv[2], encoding="utf-8")]
from_unit, from_readme = drop_in(unit_lines, sys.argv[1]), drop_in(readme_lines, sys.argv[2])
if from_unit != from_readme:
    sys.exit(f"the unit's command differs from the README's:\n  {from_unit}\n  {from_readme}")
print("\0".join(from_unit), end="")
PY
mapfile -d '' -t argv <"$work/argv"
[ "${#argv[@]}" -ge 4 ] || fail "the rclone command is too short: ${argv[*]}"
[ "${argv[0]}" = /usr/bin/rclone ] && [ "${argv[1]}" = sync ] || fail "the command is not /usr/bin/rclone sync: ${argv[*]}"
[ -x "${argv[0]}" ] || fail "${argv[0]} is not where Debian's rclone installs it"
source_dir=${argv[-2]} destination=${argv[-1]}
[ "$source_dir" = /var/lib/showcase/export ] || fail "the command does not sync /var/lib/showcase/export (it names $source_dir)"
case "$destination" in *:*) ;; *) fail "the command's last word is not a remote: $destination" ;; esac
remote_name=${destination%%:*} remote_path=${destination#*:}
config_file=''
for i in "${!argv[@]}"; do [ "${argv[i]}" = --config ] && config_file=${argv[i + 1]}; done
[ "$config_file" = /etc/showcase/rclone.conf ] || fail "the command does not read --config /etc/showcase/rclone.conf"
# The unit's environment (RCLONE_CACHE_DIR) comes along, pointed into the temporary directory.
mapfile -t unit_env < <(sed -n 's/^Environment=//p' "$unit")
env_args=()
for assignment in "${unit_env[@]}"; do
    case "$assignment" in
        RCLONE_CACHE_DIR=*) env_args+=("RCLONE_CACHE_DIR=$work/rclone-cache") ;;
        *) env_args+=("$assignment") ;;
    esac
done
# Only observation is added, through rclone's environment, so the argv stays the unit's: INFO lines for every
# copy and deletion, and the final stats.
env_args+=(RCLONE_VERBOSE=1)
command_here=()
for word in "${argv[@]}"; do
    case "$word" in
        "$source_dir") command_here+=("$work/export") ;;
        "$config_file") command_here+=("$work/etc/rclone.conf") ;;
        *) command_here+=("$word") ;;
    esac
done
ok "the unit's and the README's drop-ins reset ExecStart= and run the same command: $(printf '%q ' "${argv[@]}")"

# 2. sshd on loopback. As root it needs its privilege separation directory, /run/sshd (Debian's ssh.service
#    makes it as RuntimeDirectory=; nothing else here is outside $work). Not as root it runs unprivileged and
#    lets only its own user in.
if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then install -d -m 0755 /run/sshd; fi
mkdir -p "$work/ssh" "$work/etc" "$work/remote" "$work/rclone-cache"
ssh-keygen -q -t ed25519 -N '' -C showcase-check-host -f "$work/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -C showcase-check-client -f "$work/ssh/client_key"
cp "$work/ssh/client_key.pub" "$work/ssh/authorized_keys"
login=$(id -un)
cat >"$work/ssh/sshd_config" <<CONF
ListenAddress 127.0.0.1
HostKey $work/ssh/host_key
PidFile $work/ssh/sshd.pid
AuthorizedKeysFile $work/ssh/authorized_keys
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $login
UsePAM no
StrictModes no
X11Forwarding no
AllowTcpForwarding no
Subsystem sftp internal-sftp
CONF
/usr/sbin/sshd -t -f "$work/ssh/sshd_config" 2>"$work/ssh/test.log" || { cat "$work/ssh/test.log" >&2; fail "sshd rejects its configuration"; }
# The port (-o Port=) from free_port: one taken before sshd bound it means a new port and a new sshd, up to 5 times.
listening=''
for _ in 1 2 3 4 5; do
    ssh_port=$(free_port)
    /usr/sbin/sshd -D -e -f "$work/ssh/sshd_config" -o Port="$ssh_port" 2>"$work/ssh/sshd.log" &
    sshd_pid=$!
    for _ in $(seq 300); do
        grep -q "Server listening on 127.0.0.1 port $ssh_port" "$work/ssh/sshd.log" && { listening=yes; break; }
        kill -0 "$sshd_pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -z "$listening" ] || break
    kill -0 "$sshd_pid" 2>/dev/null && fail "sshd did not listen within 30 s"
    grep -q 'Address already in use' "$work/ssh/sshd.log" || { cat "$work/ssh/sshd.log" >&2; fail "sshd exited at startup"; }
done
[ -n "$listening" ] || fail "sshd found no free port in 5 tries (each was taken before it bound)"
printf '[127.0.0.1]:%s %s\n' "$ssh_port" "$(cut -d ' ' -f 1,2 "$work/ssh/host_key.pub")" >"$work/ssh/known_hosts"
# shell_type and the hash commands are what rclone would otherwise detect on first contact and write back into
# the file (README: set them in the real /etc/showcase/rclone.conf too).
cat >"$work/etc/rclone.conf" <<CONF
[loopback-sftp]
type = sftp
host = 127.0.0.1
port = $ssh_port
user = $login
key_file = $work/ssh/client_key
known_hosts_file = $work/ssh/known_hosts
shell_type = unix
md5sum_command = md5sum
sha1sum_command = sha1sum

[$remote_name]
type = alias
remote = loopback-sftp:$work/remote
CONF
config_sum=$(sha256sum <"$work/etc/rclone.conf")
mirror_root=$work/remote/$remote_path
ok "sshd (OpenSSH $(/usr/sbin/sshd -V 2>&1 | sed -n 's/^OpenSSH_\([^ ,]*\).*/\1/p' | head -n 1)) on 127.0.0.1:$ssh_port, key-only login as $login; $remote_name: is $work/remote over SFTP"

# run_sync NAME: the command, its log in $work/NAME.log; fails on a non-zero exit, an error, a fallback to size
# only, or a rewritten rclone.conf.
run_sync() {
    local status=0
    env "${env_args[@]}" timeout 120 "${command_here[@]}" >"$work/$1.log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$work/$1.log" >&2
        if [ "$(id -u)" -ne 0 ] && grep -q 'unable to authenticate' "$work/$1.log"; then
            echo "check-export-sync: sshd refused $login (see the header of this script); sshd said:" >&2
            cat "$work/ssh/sshd.log" >&2
        fi
        fail "sync $1: the unit's rclone command exited $status"
    fi
    if grep -E 'ERROR|falling back to --size-only|Failed to save config' "$work/$1.log" >&2; then
        fail "sync $1: rclone reported the lines above"
    fi
    [ "$(sha256sum <"$work/etc/rclone.conf")" = "$config_sum" ] || fail "sync $1: rclone rewrote its config file"
}
# files DIR: every regular file under DIR, relative, sorted.
files() { (cd "$1" && find . -type f | sed 's#^\./##' | LC_ALL=C sort); }
# snapshot: inode, size, mtime and ctime of every remote file.
snapshot() { (cd "$mirror_root" && find . -type f -printf '%P %i %s %T@ %C@\n' | LC_ALL=C sort); }
export_tree() { # the writer's report to $work/export.out
    "$sample" --fixtures Fixtures/lookup --config "$work/etc/showcase.yaml" --directory "$work/export" "$@" \
        >"$work/export.out" 2>&1 || { cat "$work/export.out" >&2; fail "showcase-export-sample $* failed"; }
}

# 3. The first sync of a fresh export (gzip on, 2 hosts × 3 storefronts × 2 platforms).
# The demo's hosts and storefronts without its export settings (the JSON documents alone: what this sync is about).
cp Fixtures/demo/overlay.yaml Fixtures/demo/overlay-edited.yaml "$work/etc/"
python3 scripts/replay-config.py Fixtures/demo/showcase.yaml --endpoint http://127.0.0.1:9/lookup --scratch "$work" \
    --no-export >"$work/etc/showcase.yaml" || fail "scripts/replay-config.py failed"
export_tree
run_sync first
grep -q 'Copied (new)' "$work/first.log" || fail "the first sync copied nothing"
files "$work/export" | grep -vE '(^|/)\.|\.gz$' >"$work/expected"
files "$mirror_root" >"$work/got"
diff -u "$work/expected" "$work/got" >&2 || fail "the remote does not hold exactly the origin's documents without .* and *.gz"
documents=$(wc -l <"$work/got")
[ "$documents" -ge 13 ] || fail "only $documents documents synced"
grep -q '^v1/index.json$' "$work/got" || fail "index.json was not synced"
while read -r path; do
    cmp -s "$work/export/$path" "$mirror_root/$path" || fail "$path differs on the remote"
    [ "$(stat -c %Y "$work/export/$path")" = "$(stat -c %Y "$mirror_root/$path")" ] || fail "$path lost its mtime on the remote"
done <"$work/got"
[ ! -e "$mirror_root/v1/.showcase-manifest" ] || fail "the manifest was synced"
ok "first sync: $documents documents, byte for byte and with their mtimes; no manifest, no .json.gz ($(grep -c 'Copied (new)' "$work/first.log") copied)"

# Two nginx, each with the shipped location block: the origin serves the export, the mirror the synced copy.
start_nginx "$work/nginx-origin" "$work/export" ""
origin_pid=$nginx_pid origin_port=$port
start_nginx "$work/nginx-mirror" "$mirror_root" ""
mirror_pid=$nginx_pid mirror_port=$port

# get NAME URL [curl options…]: headers to $work/NAME.h, body to $work/NAME.b, prints the status.
get() {
    local name=$1 url=$2 port_var=${1}_port
    shift 2
    curl -sS --max-time 10 -D "$work/$name.h" -o "$work/$name.b" -w '%{http_code}' "$@" "http://127.0.0.1:${!port_var}$url"
}
header() { sed -n "s/^$2: *//Ip" "$work/$1.h" | tr -d '\r' | tail -n 1; }
# same_as_origin PATH: 200 from both, same body, ETag, Last-Modified, Content-Type, Cache-Control and CORS.
same_as_origin() {
    local url=/showcase/$1 name field
    for name in origin mirror; do
        [ "$(get "$name" "$url")" = 200 ] || fail "the $name nginx did not answer 200 for $url"
    done
    cmp -s "$work/origin.b" "$work/mirror.b" || fail "$url: the mirror's body differs from the origin's"
    for field in ETag Last-Modified Content-Type Cache-Control Access-Control-Allow-Origin; do
        [ -n "$(header origin "$field")" ] || fail "$url: the origin sent no $field"
        [ "$(header origin "$field")" = "$(header mirror "$field")" ] \
            || fail "$url: $field is '$(header mirror "$field")' on the mirror, '$(header origin "$field")' on the origin"
    done
}
while read -r path; do same_as_origin "$path"; done <"$work/got"
get origin /showcase/v1/index.json >/dev/null
etag=$(header origin ETag)
[ "$(get mirror /showcase/v1/index.json -H "If-None-Match: $etag")" = 304 ] || fail "the mirror did not answer 304 to the origin's ETag"
doc=v1/com.quietharbor.TideLog/de/ios.json
get mirror "/showcase/$doc" >/dev/null
doc_etag=$(header mirror ETag)
[ "$(get origin "/showcase/$doc" -H 'Accept-Encoding: gzip')" = 200 ] && [ "$(header origin Content-Encoding)" = gzip ] \
    || fail "the origin did not serve its .json.gz"
[ "$(get mirror "/showcase/$doc" -H 'Accept-Encoding: gzip')" = 200 ] || fail "the mirror did not answer a gzip client"
[ -z "$(header mirror Content-Encoding)" ] && cmp -s "$work/mirror.b" "$work/export/$doc" \
    || fail "the mirror answered a gzip client with something but the plain document"
status=$(get mirror /showcase/v1/.showcase-manifest)
[ "$status" = 404 ] || fail "the mirror answered $status for the manifest"
ok "the mirror nginx serves all $documents documents like the origin: same bytes, ETag ($etag for index.json, 304 across servers), Last-Modified, Content-Type, Cache-Control, CORS; a gzip client gets the plain document (no .json.gz synced)"

# 4. Nothing changed: nothing is transferred and no remote file is touched.
snapshot >"$work/before"
run_sync unchanged
grep -q 'There was nothing to transfer' "$work/unchanged.log" \
    || { cat "$work/unchanged.log" >&2; fail "the second sync of an unchanged tree did not say 'There was nothing to transfer'"; }
grep -qE '^Transferred:[[:space:]]+0 B / 0 B' "$work/unchanged.log" || { cat "$work/unchanged.log" >&2; fail "the second sync transferred bytes"; }
if grep -E 'Copied|Deleted|Updated' "$work/unchanged.log" >&2; then fail "the second sync changed the remote"; fi
snapshot >"$work/after"
diff -u "$work/before" "$work/after" >&2 || fail "the second sync rewrote remote files (inode, size, mtime or ctime changed)"
ok "a second sync of the unchanged tree: 'There was nothing to transfer', Transferred 0 B, every remote file's inode and ctime as before"

# 5. An overlay edit: the writer rewrites the iOS documents it changes (and index.json); only those are uploaded.
sleep 1 # a rewritten document gets a later mtime second, so its ETag changes
export_tree --overlay "$work/etc/overlay-edited.yaml"
grep -qE ': [1-9][0-9]* written, [1-9][0-9]* unchanged, 0 removed' "$work/export.out" \
    || { cat "$work/export.out" >&2; fail "the overlay edit did not rewrite some documents and keep others"; }
changed=$(find "$work/export" -type f -name '*.json' -newer "$work/before" -printf '%P\n' | LC_ALL=C sort)
[ -n "$changed" ] || fail "the overlay edit changed no document"
run_sync edited
copied=$(sed -n 's/^.* INFO  : \(.*\): Copied (replaced existing)$/\1/p' "$work/edited.log" | LC_ALL=C sort)
[ "$copied" = "$changed" ] || fail "the sync uploaded [$(echo $copied)], the writer rewrote [$(echo $changed)]"
snapshot >"$work/after-edit"
unchanged_before=$(grep -vF -f <(printf '%s \n' $changed) "$work/before")
unchanged_after=$(grep -vF -f <(printf '%s \n' $changed) "$work/after-edit")
[ "$unchanged_before" = "$unchanged_after" ] || fail "documents the edit did not change were rewritten on the remote"
grep -q 'Windrosen für jeden Hafen' "$mirror_root/v1/com.quietharbor.TideLog/de/ios.json" || fail "the edited tagline is not on the remote"
for path in $changed; do same_as_origin "$path"; done
get mirror "/showcase/$doc" >/dev/null
[ "$(header mirror ETag)" != "$doc_etag" ] || fail "an uploaded document kept its old ETag ($doc_etag)"
ok "an overlay edit: the $(echo "$changed" | wc -l) documents the writer rewrote are uploaded and served with the origin's new ETag; the other remote files untouched"

# A same-size change with the mtime kept (not what the daemon does: the worst case for a comparison by size and
# mtime): uploaded only if --checksum really compares hashes.
mac=v1/com.quietharbor.Knotbook/us/macos.json
python3 - "$work/export/$mac" <<'PY' || fail "could not make the same-size change"
import os, re, sys
path = sys.argv[1]
stat = os.stat(path)
text = open(path, encoding="utf-8").read()
match = re.search(r'"id" *: *\d*(\d)', text) or re.search(r"\d", text)
position = match.end() - 1
changed = text[:position] + ("1" if text[position] != "1" else "2") + text[position + 1:]
open(path, "w", encoding="utf-8").write(changed)
os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
assert os.stat(path).st_size == stat.st_size
PY
! cmp -s "$work/export/$mac" "$mirror_root/$mac" || fail "the same-size change changed nothing"
run_sync same-size
grep -q "$mac: Copied (replaced existing)" "$work/same-size.log" || { cat "$work/same-size.log" >&2; fail "a same-size change with the same mtime was not uploaded"; }
cmp -s "$work/export/$mac" "$mirror_root/$mac" || fail "the remote $mac differs after the sync"
ok "a same-size change with its mtime kept is uploaded: --checksum compares md5 on the server, not size or mtime"

# 6. A dropped storefront: the writer removes its documents, the sync removes them from the remote.
export_tree --overlay "$work/etc/overlay-edited.yaml" --storefronts us,de
grep -qE ': .* written, .* unchanged, [1-9][0-9]* removed' "$work/export.out" \
    || { cat "$work/export.out" >&2; fail "dropping jp removed no document"; }
[ ! -e "$work/export/v1/com.quietharbor.TideLog/jp/ios.json" ] || fail "the writer kept the dropped storefront's documents"
run_sync dropped
deleted=$(grep -c ': Deleted$' "$work/dropped.log" || true)
[ "$deleted" -ge 4 ] || { cat "$work/dropped.log" >&2; fail "the sync deleted $deleted files for a dropped storefront"; }
files "$work/export" | grep -vE '(^|/)\.|\.gz$' >"$work/expected"
files "$mirror_root" >"$work/got"
diff -u "$work/expected" "$work/got" >&2 || fail "after dropping jp the remote does not hold exactly the origin's documents"
for host in com.quietharbor.TideLog com.quietharbor.Knotbook; do
    for platform in ios macos; do
        status=$(get mirror "/showcase/v1/$host/jp/$platform.json")
        [ "$status" = 404 ] || fail "the mirror answered $status for the dropped $host/jp/$platform.json"
    done
    [ ! -e "$mirror_root/v1/$host/jp" ] || fail "the dropped storefront's directory $host/jp is left on the remote"
done
same_as_origin v1/index.json
while read -r path; do same_as_origin "$path"; done <"$work/got"
ok "a dropped storefront: $deleted documents deleted on the remote with their directories, the mirror answers 404 for them, the rest as the origin"

echo "check-export-sync: $pass passed, 0 failed"

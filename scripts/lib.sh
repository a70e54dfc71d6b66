# Shell functions the scripts/check-*.sh that run the real daemon, nginx and headless Chromium share.
# Source it after `cd` to the repository and setting CHECK (the name messages start with):
#     CHECK=check-export-html; . scripts/lib.sh
# It defines fail/ok (and counts passes in $pass), stop_pid, free_port, start_replay, start_daemon, ctl,
# start_nginx and chromium_flags; each documents what it sets.

pass=0
fail() { echo "$CHECK: FAIL: $*" >&2; exit 1; }
ok() { echo "$CHECK: ok: $*"; pass=$((pass + 1)); }
note() { echo "$CHECK: note: $*"; }

new_work() { # a fresh work directory in $work (0755: nginx reads it as nobody), removed with every process
    #          start_replay, start_daemon and start_nginx started when the script exits
    work=$(mktemp -d)
    chmod 755 "$work"
    nginx_pid='' daemon_pid='' replay_pid=''
    trap 'stop_pid "$nginx_pid"; stop_pid "$daemon_pid"; stop_pid "$replay_pid"; rm -rf "$work"' EXIT
}

stop_pid() { # PID: SIGTERM, then wait up to 5 s
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        kill "$1" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    fi
}

free_port() { # prints a loopback TCP port that was free a moment ago: another process may take it before the
    #           server it is for binds it, so each caller retries with a new one when its bind fails (start_nginx)
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_replay() { # BIN_DIR WORK [ARGS…]: lookup-replay serving Fixtures/lookup (ARGS: --serve-icons); sets
    #              replay_pid and replay_port
    "$1/lookup-replay" --fixtures Fixtures/lookup --port 0 "${@:3}" >"$2/replay.out" 2>"$2/replay.log" &
    replay_pid=$!
    for _ in $(seq 100); do
        [ -s "$2/replay.out" ] && break
        kill -0 "$replay_pid" 2>/dev/null || { cat "$2/replay.log" >&2; fail "lookup-replay exited"; }
        sleep 0.1
    done
    replay_port=$(head -n 1 "$2/replay.out")
    [ -n "$replay_port" ] || fail "lookup-replay did not print its port"
}

demo_config() { # WORK SOCKET > config: Fixtures/demo/showcase.yaml pointed at the replay, WORK/cache, WORK/state
    #             and SOCKET
    sed -e "s#^\(  endpoint:\).*#\1 http://127.0.0.1:$replay_port/lookup#" \
        -e "s#^\(  directory:\).*#\1 $1/cache#" \
        -e "s#^\(  path:\).*#\1 $2#" \
        -e "s#^\(  rate_limit:\).*#\1 600/min#" \
        Fixtures/demo/showcase.yaml
    # The change history in WORK too, never the machine's /var/lib/showcase.
    printf 'state:\n  directory: %s/state\n' "$1"
}

ctl() { "$bin_dir/showcasectl" --socket "$socket" "$@"; }

start_daemon() { # CONFIG LOG: showcased under umask 077 (the unit's UMask=); sets daemon_pid, waits for its socket
    (umask 077 && exec "$bin_dir/showcased" --config "$1") >"$2" 2>&1 &
    daemon_pid=$!
    for _ in $(seq 200); do
        ctl status >/dev/null 2>&1 && return 0
        kill -0 "$daemon_pid" 2>/dev/null || { cat "$2" >&2; fail "showcased exited at startup"; }
        sleep 0.1
    done
    fail "showcased did not answer on $socket"
}

start_nginx() { # DIR EXPORT LOCATIONS: nginx on a free loopback port with etc/nginx/showcase.conf pointed at
    #             EXPORT plus the LOCATIONS text, unprivileged (as root: nobody, owning only DIR); logs and temp
    #             paths in DIR. Sets nginx_pid, port and base (http://127.0.0.1:PORT); waits until it answers.
    # nginx cannot bind port 0 and report the port, so the port comes from free_port, and a port taken before nginx
    # bound it (another check's server, on a busy machine) means a new port and a new nginx, up to 5 times. Ready
    # means this nginx answers: a location returns a token of this start, so a server that took the port is never
    # mistaken for it.
    local dir=$1 snippet=etc/nginx/showcase.conf attempt token
    [ -f "$snippet" ] || fail "$snippet is missing"
    mkdir -p "$dir"
    sed "s#/var/lib/showcase/export#$2#g" "$snippet" >"$dir/showcase.conf"
    token=$(cat /proc/sys/kernel/random/uuid)
    local run_as=()
    if [ "$(id -u)" -eq 0 ]; then run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --); fi
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        cat >"$dir/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 64; }
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include /etc/nginx/mime.types;
    server {
        listen 127.0.0.1:$port;
        server_name localhost;
        location = /.check-ready { access_log off; return 200 "$token"; }
        include $dir/showcase.conf;
$3
    }
}
CONF
        rm -f "$dir/error.log" "$dir/stderr.log"
        [ "${#run_as[@]}" -eq 0 ] || chown -R nobody:nogroup "$dir"
        "${run_as[@]}" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" </dev/null 2>"$dir/stderr.log" &
        nginx_pid=$!
        base=http://127.0.0.1:$port
        for _ in $(seq 300); do
            [ "$(curl -s --max-time 5 "$base/.check-ready" 2>/dev/null)" = "$token" ] && return 0
            if ! kill -0 "$nginx_pid" 2>/dev/null; then
                wait "$nginx_pid" 2>/dev/null || true
                grep -qs 'Address already in use' "$dir/error.log" "$dir/stderr.log" && continue 2
                cat "$dir/error.log" "$dir/stderr.log" >&2 2>/dev/null || true
                fail "nginx exited at startup"
            fi
            sleep 0.1
        done
        fail "nginx did not answer on $base"
    done
    fail "nginx found no free port in 5 tries (each was taken before it bound)"
}

# chromium_flags PROFILE_DIR USER_AGENT: headless Chromium as root needs --no-sandbox and a fresh profile; it
# resolves no name but 127.0.0.1, so nothing outside the test (Apple's CDN included) is ever contacted.
# Sets the array chromium_args.
chromium_flags() {
    chromium_args=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$1"
        --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" --user-agent="$2" --virtual-time-budget=5000)
}

iphone_ua='Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
ipad_ua='Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
mac_ua='Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
windows_ua='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

python_venv() { # VENV REQUIREMENT…: a venv under .build/ holding exactly these pinned packages, from PyPI once
    local venv=$1
    shift
    [ -x "$venv/bin/python3" ] && [ "$(cat "$venv/.requirements" 2>/dev/null)" = "$*" ] && return 0
    rm -rf "$venv"
    python3 -m venv "$venv" >/dev/null 2>&1 || { rm -rf "$venv"; fail "python3 -m venv $venv failed (install python3-venv)"; }
    scripts/step.sh "pip install ($venv)" 10m "$venv/bin/python3" -m pip install -q --disable-pip-version-check "$@" \
        || fail "pip install $* into $venv failed"
    echo "$*" >"$venv/.requirements"
}

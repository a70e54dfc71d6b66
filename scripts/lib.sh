# Shared pieces of the scripts/check-*.sh that run the real daemon behind lookup-replay and nginx. Source it:
#     . scripts/lib.sh
# after setting NAME (the script's name, for messages) and, for nginx, WORK (a temporary directory).

fail() { echo "$NAME: FAIL: $*" >&2; exit 1; }
ok() { echo "$NAME: ok: $*"; pass=$((pass + 1)); }
pass=0

stop_pid() { # PID: SIGTERM, then wait up to 5 s
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        kill "$1" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    fi
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_replay BIN_DIR OUT_PREFIX [ARGS…]: lookup-replay on a free loopback port; sets replay_pid and replay_port.
start_replay() {
    local bin_dir=$1 out=$2
    shift 2
    "$bin_dir/lookup-replay" --fixtures Fixtures/lookup --port 0 "$@" >"$out.out" 2>"$out.log" &
    replay_pid=$!
    for _ in $(seq 100); do
        [ -s "$out.out" ] && break
        kill -0 "$replay_pid" 2>/dev/null || { cat "$out.log" >&2; fail "lookup-replay exited"; }
        sleep 0.1
    done
    replay_port=$(head -n 1 "$out.out")
    [ -n "$replay_port" ] || fail "lookup-replay did not print its port"
}

# start_nginx EXPORT_DIR PORT [EXTRA_SERVER_LINES]: nginx, unprivileged, serving EXPORT_DIR with the shipped
# etc/nginx/showcase.conf on 127.0.0.1:PORT, everything under $WORK/nginx; sets nginx_pid.
start_nginx() {
    local export_dir=$1 port=$2 extra=${3:-}
    mkdir -p "$WORK/nginx"
    sed "s#/var/lib/showcase/export#$export_dir#g" etc/nginx/showcase.conf >"$WORK/nginx/showcase.conf"
    cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 64; }
http {
    access_log $WORK/nginx/access.log;
    client_body_temp_path $WORK/nginx/client_body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    include /etc/nginx/mime.types;
    server {
        listen 127.0.0.1:$port;
        server_name localhost;
        include $WORK/nginx/showcase.conf;
        $extra
    }
}
CONF
    local run_as=()
    if [ "$(id -u)" -eq 0 ]; then
        chown -R nobody:nogroup "$WORK/nginx"
        run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
    fi
    "${run_as[@]}" nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
    nginx_pid=$!
    for _ in $(seq 100); do
        curl -s -o /dev/null "http://127.0.0.1:$port/" && return 0
        kill -0 "$nginx_pid" 2>/dev/null || { cat "$WORK/nginx/error.log" >&2; fail "nginx exited at startup"; }
        sleep 0.1
    done
}

# start_demo_daemon BIN_DIR CONFIG_DIR REPLAY_PORT [SED_ARGS…]: Fixtures/demo's configuration with its endpoint on
# the replay, its cache and socket under $WORK, rate limit 600/min (SED_ARGS edit it further; append sections to
# CONFIG_DIR/showcase.yaml before calling through DEMO_EXTRA), showcased started under $DAEMON_UMASK (default the
# caller's) logging to $WORK/showcased.log, and returns once showcasectl status answers. Sets daemon_pid and socket,
# and defines ctl.
start_demo_daemon() {
    local bin_dir=$1 config=$2 port=$3
    shift 3
    mkdir -p "$config" "$WORK/cache" "$WORK/run"
    socket=$WORK/run/showcased.sock
    sed -e "s#^\(  endpoint:\).*#\1 http://127.0.0.1:$port/lookup#" \
        -e "s#^\(  directory:\).*#\1 $WORK/cache#" \
        -e "s#^\(  path:\).*#\1 $socket#" \
        -e "s#^\(  rate_limit:\).*#\1 600/min#" \
        "$@" Fixtures/demo/showcase.yaml >"$config/showcase.yaml"
    printf '%s' "${DEMO_EXTRA:-}" >>"$config/showcase.yaml"
    cp Fixtures/demo/overlay.yaml Fixtures/demo/overlay-edited.yaml "$config/"
    (umask "${DAEMON_UMASK:-$(umask)}" && exec "$bin_dir/showcased" --config "$config/showcase.yaml") \
        >"$WORK/showcased.log" 2>&1 &
    daemon_pid=$!
    ctl() { "$bin_dir/showcasectl" --socket "$socket" "$@"; }
    for _ in $(seq 200); do
        ctl status >/dev/null 2>&1 && return 0
        kill -0 "$daemon_pid" 2>/dev/null || { cat "$WORK/showcased.log" >&2; fail "showcased exited at startup"; }
        sleep 0.1
    done
}

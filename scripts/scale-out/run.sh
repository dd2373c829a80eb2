#!/usr/bin/env bash
# Scale-out check (issue #14): three `serve --transport http --stateless`
# instances behind a real nginx (round-robin), driven by the official MCP
# Python SDK from many bounded concurrent clients (drive.py). Checks that
# every call is answered through 1 and through 3 instances, and that
# SIGKILLing one instance under load costs no call beyond those in flight
# on it. Prints calls/s for 1 vs 3 instances (figures in bench/README.md).
#
# Needs: the release binary (cargo build --release), the venv from
# scripts/external-clients/setup.sh, and nginx (installed with apt-get when
# missing; the check is skipped, exit 0, when neither nginx nor apt is
# available). About 1.5 minutes (three 20 s phases plus start-up).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${EXTERNAL_CLIENTS_DIR:-$root/target/external-clients}"
bin="${OPENAPI2MCP_BIN:-$root/target/release/openapi2mcp}"
py="$cache/venv/bin/python"
say() { echo "scale-out: $*" >&2; }

[ -x "$bin" ] || { say "ERROR: $bin missing (cargo build --release)"; exit 2; }
[ -x "$py" ] || { say "ERROR: $py missing (scripts/external-clients/setup.sh)"; exit 2; }

nginx_bin="$(command -v nginx || true)"
[ -z "$nginx_bin" ] && [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx
if [ -z "$nginx_bin" ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    say "installing nginx with apt-get"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light >/dev/null 2>&1; } \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx >/dev/null 2>&1; }; then
      say "SKIP: apt-get could not install nginx"
      exit 0
    fi
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
  else
    say "SKIP: nginx is not installed and apt-get (as root) is not available to install it"
    exit 0
  fi
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The API: a small JSON backend with a few ms of latency, as real APIs have.
backend_port="$(free_port)"
timeout 600 "$py" "$here/drive.py" backend --port "$backend_port" > /dev/null &
pids+=($!)

ports=()
for i in 1 2 3; do
  port="$(free_port)"
  ports+=("$port")
  # No `timeout` wrapper: the pid must be the server's own, for the kill
  # below; the EXIT trap ends it.
  # Toolsets mode without sessions (issue #23): each request names its
  # toolsets by path (/mcp/x/pets) or X-MCP-Toolsets header.
  "$bin" serve -q "$root/specs/petstore.yaml" --transport http --stateless --tools toolsets \
    --listen "127.0.0.1:$port" --base-url "http://127.0.0.1:$backend_port/v1" \
    > /dev/null 2> "$work/serve-$i.log" &
  pids+=($!)
  echo $! > "$work/serve-$i.pid"
done

one_port="$(free_port)"
three_port="$(free_port)"
mkdir -p "$work/tmp"
proxy_common='
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering off;
      # A refused or reset connection (a dead instance) goes to the next
      # server. nginx never resends a POST that reached an instance, so a
      # call in flight on an instance that dies is lost, not repeated.
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 1s;
      proxy_read_timeout 60s;'
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  upstream one { server 127.0.0.1:${ports[0]}; keepalive 64; }
  upstream three {
    server 127.0.0.1:${ports[0]} max_fails=1 fail_timeout=10s;
    server 127.0.0.1:${ports[1]} max_fails=1 fail_timeout=10s;
    server 127.0.0.1:${ports[2]} max_fails=1 fail_timeout=10s;
    keepalive 64;
  }
  server { listen 127.0.0.1:$one_port; location / { proxy_pass http://one; $proxy_common } }
  server { listen 127.0.0.1:$three_port; location / { proxy_pass http://three; $proxy_common } }
}
CONF
timeout 600 "$nginx_bin" -p "$work" -c "$work/nginx.conf" > /dev/null 2>&1 &
pids+=($!)

# Wait for the instances and nginx.
for p in "${ports[@]}" "$one_port" "$three_port"; do
  for _ in $(seq 100); do
    curl -fsS "http://127.0.0.1:$p/healthz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fsS "http://127.0.0.1:$p/healthz" >/dev/null || { say "ERROR: 127.0.0.1:$p does not answer /healthz"; cat "$work"/*.log >&2; exit 1; }
done

say "$("$nginx_bin" -v 2>&1), instances on ${ports[*]}"
status=0
timeout 300 "$py" "$here/drive.py" drive \
  --one "http://127.0.0.1:$one_port/mcp/x/pets" \
  --three "http://127.0.0.1:$three_port/mcp/x/pets" \
  --kill-pid "$(cat "$work/serve-2.pid")" \
  ${SCALE_OUT_ARGS:-} || status=$?
if grep -qi panick "$work"/serve-*.log; then say "FAIL: a server panicked"; status=1; fi
exit $status

#!/usr/bin/env bash
# The client interoperability suite: runs boto3, the aws cli, s3cmd, rclone, the AWS SDK for
# JavaScript v3, MinIO's mc and s5cmd, each on buckets of its own, against a running Hangar, and
# fails on any error.
#
#   interop/run.sh ENDPOINT ACCESS_KEY SECRET_KEY      e.g. http://127.0.0.1:9000 KEY SECRET
#
# The clients come from interop/setup.sh. Environment:
#   INTEROP_CLIENTS="boto3 awscli s3cmd rclone js mc s5cmd"  the clients to run, in this order
#   INTEROP_CLIENT_TIMEOUT=240                      seconds one client may take
#   INTEROP_DEBUG=1                                 print every step's log (the HTTP exchanges too)
#   INTEROP_KEEP=1                                  keep the temp work dir (logs and files)
#   INTEROP_VENV=DIR                                the venv holding the Python clients
# Prints one PASS/FAIL/SKIP line per step and ends with "interop: N passed, N failed, N skipped".
set -euo pipefail

usage() {
  echo "usage: $0 ENDPOINT ACCESS_KEY SECRET_KEY   (ENDPOINT like http://127.0.0.1:9000)" >&2
  exit 2
}
[ $# -eq 3 ] || usage

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
endpoint="${1%/}"
venv="${INTEROP_VENV:-$here/.venv}"
clients="${INTEROP_CLIENTS:-boto3 awscli s3cmd rclone js mc s5cmd}"
js_modules="$here/js/node_modules"
# mc and s5cmd, built by setup.sh.
go_bin="$here/.bin"
client_timeout="${INTEROP_CLIENT_TIMEOUT:-240}"

# Loopback only: the suite talks to the server under test and nothing else.
case "$endpoint" in
  http://127.*:[0-9]* | http://localhost:[0-9]* | "http://[::1]:"[0-9]*) ;;
  *) echo "interop: ENDPOINT must be http://127.x.x.x:PORT, http://localhost:PORT or http://[::1]:PORT, not '$endpoint'" >&2
     exit 2 ;;
esac

missing=()
[ -x "$venv/bin/python" ] || missing+=("the Python venv $venv")
for tool in aws s3cmd; do
  [ -x "$venv/bin/$tool" ] || missing+=("$tool (in $venv)")
done
[ -x "$venv/bin/python" ] && ! "$venv/bin/python" -c 'import boto3' 2>/dev/null && missing+=("boto3 (in $venv)")
command -v rclone >/dev/null || missing+=("rclone (on the PATH)")
# The AWS SDK for JavaScript v3 needs Node.js 20 or newer.
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  missing+=("node 20 or newer (on the PATH)")
fi
[ -f "$js_modules/@aws-sdk/client-s3/package.json" ] || missing+=("the AWS SDK for JavaScript (in $js_modules)")
for tool in mc s5cmd; do
  [ -x "$go_bin/$tool" ] || missing+=("$tool (in $go_bin)")
done
if [ ${#missing[@]} -gt 0 ]; then
  printf 'interop: missing client: %s\n' "${missing[@]}" >&2
  echo "interop: install the clients with: bash $here/setup.sh" >&2
  exit 2
fi

# No proxy, no instance-metadata lookups, no user configuration: only the endpoint is reached.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
# Nor the caller's AWS, rclone, s3cmd, mc or s5cmd settings (AWS_CA_BUNDLE alone makes rclone fail
# on http; MC_HOST_<alias> would define mc aliases, S3_ENDPOINT_URL is s5cmd's endpoint).
while read -r name; do
  unset "$name"
done < <(compgen -e | grep -E '^(AWS_|RCLONE_|S3CMD_|MC_|S3_ENDPOINT_URL$)' || true)
export NO_PROXY='*' no_proxy='*'
export AWS_EC2_METADATA_DISABLED=true

INTEROP_WORK="$(mktemp -d "${TMPDIR:-/tmp}/hangar-interop.XXXXXX")"
export INTEROP_WORK
export HOME="$INTEROP_WORK/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"
mkdir -p "$HOME"
export PATH="$venv/bin:$PATH"
export INTEROP_ENDPOINT="$endpoint" INTEROP_ACCESS_KEY="$2" INTEROP_SECRET_KEY="$3"
export INTEROP_GO_BIN="$go_bin"
export INTEROP_RESULTS="$INTEROP_WORK/results"
export INTEROP_FIXTURES="$INTEROP_WORK/fixtures"
: >"$INTEROP_RESULTS"

finish() {
  local status=$?
  if [ "${INTEROP_KEEP:-0}" = 1 ]; then
    echo "interop: work dir kept at $INTEROP_WORK"
  elif [ "$status" -ne 0 ] && [ -d "$INTEROP_WORK" ]; then
    # Keep the logs that the failure report points at, drop the payloads.
    find "$INTEROP_WORK" -type f ! -path '*/logs/*' ! -name results -delete 2>/dev/null || true
    echo "interop: logs kept in $INTEROP_WORK"
  else
    rm -rf "$INTEROP_WORK"
  fi
}
trap finish EXIT
# A stop by signal (the IT's timeout, ^C) stops the running client and still cleans up.
client_pid=""
stop_client() {
  # timeout(1) leads the client's process group and passes the signal on to all of it.
  [ -z "$client_pid" ] || kill -TERM "$client_pid" 2>/dev/null || true
  exit "$1"
}
trap 'stop_client 129' HUP
trap 'stop_client 130' INT
trap 'stop_client 143' TERM

# Fixtures: a file above every client's multipart threshold (aws cli and boto3: 8 MB parts, so 3
# parts; s3cmd and rclone are run with 5 MiB parts, so 4), a small file, and a tree to sync with
# keys that need URL encoding and an empty file.
mkdir -p "$INTEROP_FIXTURES/tree/nested/deeper" "$INTEROP_FIXTURES/tree/dir with space"
head -c $((20 * 1024 * 1024)) /dev/urandom >"$INTEROP_FIXTURES/big.bin"
echo "hello from the interop suite $(date -u +%FT%TZ)" >"$INTEROP_FIXTURES/small.txt"
echo "alpha" >"$INTEROP_FIXTURES/tree/a.txt"
head -c $((300 * 1024)) /dev/urandom >"$INTEROP_FIXTURES/tree/b.bin"
echo "deep" >"$INTEROP_FIXTURES/tree/nested/deeper/c.txt"
echo "encoded" >"$INTEROP_FIXTURES/tree/dir with space/naïve+plus=&.txt"
: >"$INTEROP_FIXTURES/tree/nested/empty"

echo "interop: $endpoint, clients: $clients"
echo "interop: $("$venv/bin/python" -c 'import boto3, botocore; print("boto3", boto3.__version__, "botocore", botocore.__version__)'); $(aws --version 2>&1); $(s3cmd --version); $(rclone version | sed -n 1p); node $(node --version) @aws-sdk/client-s3 $(node -p "require('$js_modules/@aws-sdk/client-s3/package.json').version"); mc $(cat "$go_bin/.mc.built-from" 2>/dev/null || echo '(version unknown)'); s5cmd $(cat "$go_bin/.s5cmd.built-from" 2>/dev/null || echo '(version unknown)')"

started=$SECONDS
for client in $clients; do
  case "$client" in
    boto3) command=("$venv/bin/python" "$here/test_boto3.py") ;;
    awscli | s3cmd | rclone | mc | s5cmd) command=(bash "$here/test_$client.sh") ;;
    js) command=(node "$here/test_js.mjs") ;;
    *) echo "interop: unknown client '$client'" >&2; exit 2 ;;
  esac
  echo "---- $client ----"
  client_started=$SECONDS
  set +e
  # In the background, so that a signal to this script is handled at once (see stop_client).
  timeout --kill-after=10 "$client_timeout" "${command[@]}" &
  client_pid=$!
  wait "$client_pid"
  rc=$?
  client_pid=""
  set -e
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL  $client did not finish within ${client_timeout}s"
    echo "FAIL $client timeout" >>"$INTEROP_RESULTS"
  elif [ "$rc" -ne 0 ]; then
    echo "FAIL  $client script exited with $rc"
    echo "FAIL $client script-exit" >>"$INTEROP_RESULTS"
  fi
  echo "---- $client: $((SECONDS - client_started))s ----"
done

passed=$(grep -c '^PASS ' "$INTEROP_RESULTS" || true)
failed=$(grep -c '^FAIL ' "$INTEROP_RESULTS" || true)
skipped=$(grep -c '^SKIP ' "$INTEROP_RESULTS" || true)
echo "---- summary ($((SECONDS - started))s) ----"
for client in $clients; do
  printf '%-7s %3d passed, %d failed, %d skipped\n' "$client" \
    "$(grep -c "^PASS $client " "$INTEROP_RESULTS" || true)" \
    "$(grep -c "^FAIL $client " "$INTEROP_RESULTS" || true)" \
    "$(grep -c "^SKIP $client " "$INTEROP_RESULTS" || true)"
done
if [ "$failed" -gt 0 ]; then
  echo "failed steps:"
  grep '^FAIL ' "$INTEROP_RESULTS" | sed 's/^FAIL /  /'
fi
echo "interop: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

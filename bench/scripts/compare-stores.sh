#!/usr/bin/env bash
# Hangar against MinIO and Garage on this machine, one store after the other in one run, each on a
# fresh data folder with its own defaults (Hangar: sync=always; MinIO and Garage do not sync each
# write): warp's put 256 B, mixed 4 KiB, mixed 10 MiB and get 1 MiB, then a fresh start of each
# store timed by the load generator's `coldstart` (first answer, then one client's first 1,000 GETs
# of 1 KiB to 4 MiB objects). Prints the table of issue 16 with Hangar's ratios to the others, and
# keeps every tool's own output in OUT. See docs/benchmarks.md ("Against MinIO and Garage").
#
#   WARP=/path/to/warp MINIO=/path/to/minio GARAGE=/path/to/garage bench/scripts/compare-stores.sh OUT
#
# WARP is required (MinIO's benchmark tool; v1.1.3 with github.com/minio/pkg/v3's rng fixed so that
# every object's bytes differ: docs/benchmarks.md says how). A store whose binary is not given is
# left out. DURATION: warp's duration per benchmark (default 30s); WARMUP: an uncounted warp mixed
# 4 KiB before them, the same for every store (default 15s); RUNS: coldstart's fresh starts per
# store (default 3); SKIP_BUILD=1 uses what is built; JAVA: a JDK 21+ java (default: JAVA_HOME's).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: compare-stores.sh OUT}
WARP=${WARP:?WARP must name the warp binary}
MINIO=${MINIO:-}
GARAGE=${GARAGE:-}
DURATION=${DURATION:-30s}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-15s}
JAVA=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}
mkdir -p "$OUT"
OUT=$(readlink -f "$OUT")
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  ./mvnw -B -q -ntp -DskipTests -pl distribution,bench -am package
fi
WORK=$(mktemp -d)
PID=
stop() {
  if [ -n "$PID" ]; then
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    PID=
  fi
}
trap 'stop; rm -rf "$WORK"' EXIT

KEY=COMPAREKEY0000000001
SECRET=compare-secret-0000000000000000000000000
PORT=19300
# Garage only takes keys of its own shape: GK and 24 hex digits, a secret of 64.
GARAGE_KEY=GK0123456789abcdef01234567
GARAGE_SECRET=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

wait_port() {
  for _ in $(seq 1 600); do
    curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0
    kill -0 "$PID" 2>/dev/null || { echo "$2 exited; see $OUT/$2.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "$2 did not listen on $1 within 60 s; see $OUT/$2.log" >&2
  exit 1
}

start_hangar() {
  rm -rf "$WORK/hangar"
  HANGAR_DATA_DIR="$WORK/hangar" HANGAR_S3_PORT=$PORT HANGAR_MANAGEMENT_PORT=$((PORT + 1)) HANGAR_WEBSITE_PORT=$((PORT + 2)) \
    HANGAR_ROOT_ACCESS_KEY=$KEY HANGAR_ROOT_SECRET_KEY=$SECRET distribution/target/hangar/hangar >> "$OUT/hangar.log" 2>&1 &
  PID=$!
  wait_port $PORT hangar
}

start_minio() {
  rm -rf "$WORK/minio"
  MINIO_ROOT_USER=$KEY MINIO_ROOT_PASSWORD=$SECRET "$MINIO" server "$WORK/minio" --address 127.0.0.1:$PORT \
    --console-address 127.0.0.1:$((PORT + 1)) >> "$OUT/minio.log" 2>&1 &
  PID=$!
  wait_port $PORT minio
}

start_garage() {
  rm -rf "$WORK/garage"
  mkdir -p "$WORK/garage"
  cat > "$WORK/garage/garage.toml" <<TOML
metadata_dir = "$WORK/garage/meta"
data_dir = "$WORK/garage/data"
db_engine = "lmdb"
replication_factor = 1
rpc_bind_addr = "127.0.0.1:$((PORT + 1))"
rpc_public_addr = "127.0.0.1:$((PORT + 1))"
rpc_secret = "$(openssl rand -hex 32 2>/dev/null || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"

[s3_api]
s3_region = "us-east-1"
api_bind_addr = "127.0.0.1:$PORT"
root_domain = ".s3.garage.localhost"
TOML
  local garage=("$GARAGE" -c "$WORK/garage/garage.toml")
  "${garage[@]}" server >> "$OUT/garage.log" 2>&1 &
  PID=$!
  wait_port $PORT garage
  local node
  node=$("${garage[@]}" node id -q | cut -d@ -f1)
  "${garage[@]}" layout assign -z dc1 -c 10G "$node" >> "$OUT/garage.log" 2>&1
  "${garage[@]}" layout apply --version 1 >> "$OUT/garage.log" 2>&1
  "${garage[@]}" key import --yes -n compare "$GARAGE_KEY" "$GARAGE_SECRET" >> "$OUT/garage.log" 2>&1
  "${garage[@]}" key allow --create-bucket "$GARAGE_KEY" >> "$OUT/garage.log" 2>&1
}

# warp_all STORE KEY SECRET
warp_all() {
  local store=$1 key=$2 secret=$3
  local common=(--host 127.0.0.1:$PORT --access-key "$key" --secret-key "$secret" --region us-east-1 --duration "$DURATION" --noclear)
  # The same warm-up for every store, not counted: a JVM compiles its hot paths in its first seconds,
  # and how a fresh server does is what coldstart measures below.
  echo "$store: warm-up (warp mixed 4 KiB, $WARMUP, not counted)" >&2
  "$WARP" mixed "${common[@]}" --duration "$WARMUP" --obj.size 4KiB --concurrent 16 > "$OUT/$store-warmup.txt" 2>&1
  echo "$store: warp put 256 B" >&2
  "$WARP" put "${common[@]}" --obj.size 256B --concurrent 16 --benchdata "$OUT/$store-put-256B" > "$OUT/$store-put-256B.txt" 2>&1
  echo "$store: warp mixed 4 KiB" >&2
  "$WARP" mixed "${common[@]}" --obj.size 4KiB --concurrent 16 --benchdata "$OUT/$store-mixed-4KiB" > "$OUT/$store-mixed-4KiB.txt" 2>&1
  echo "$store: warp mixed 10 MiB" >&2
  "$WARP" mixed "${common[@]}" --obj.size 10MiB --concurrent 20 --objects 200 --benchdata "$OUT/$store-mixed-10MiB" \
    > "$OUT/$store-mixed-10MiB.txt" 2>&1
  echo "$store: warp get 1 MiB" >&2
  "$WARP" get "${common[@]}" --obj.size 1MiB --concurrent 8 --objects 200 --benchdata "$OUT/$store-get-1MiB" > "$OUT/$store-get-1MiB.txt" 2>&1
}

STORES=(hangar)
[ -n "$MINIO" ] && STORES+=(minio)
[ -n "$GARAGE" ] && STORES+=(garage)
{
  echo "# compare-stores $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (modified)')"
  echo "# machine: $(nproc) cpus, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr); java $("$JAVA" -version 2>&1 | head -1)"
  echo "# warp: $WARP; minio: ${MINIO:-none} $( [ -n "$MINIO" ] && "$MINIO" --version | head -1); garage: ${GARAGE:-none} $( [ -n "$GARAGE" ] && "$GARAGE" --version | head -1)"
  echo "# warp duration $DURATION per benchmark after a $WARMUP warm-up; coldstart $RUNS fresh starts per store"
} > "$OUT/summary.txt"

for store in "${STORES[@]}"; do
  "start_$store"
  if [ "$store" = garage ]; then
    warp_all "$store" "$GARAGE_KEY" "$GARAGE_SECRET"
  else
    warp_all "$store" "$KEY" "$SECRET"
  fi
  stop
done

# Fresh starts, timed by the load generator (a signed ListBuckets is the first answer). Garage needs
# its layout and key made after it starts, so it is not timed this way.
LG=("$JAVA" -Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider -cp bench/target/benchmarks.jar dev.hangar.bench.LoadGenerator
  coldstart --endpoint http://127.0.0.1:$PORT --path-style --access-key $KEY --secret-key $SECRET --runs "$RUNS")
echo "hangar: coldstart" >&2
HANGAR_DATA_DIR="$WORK/hangar" HANGAR_S3_PORT=$PORT HANGAR_MANAGEMENT_PORT=$((PORT + 1)) HANGAR_WEBSITE_PORT=$((PORT + 2)) \
  HANGAR_ROOT_ACCESS_KEY=$KEY HANGAR_ROOT_SECRET_KEY=$SECRET \
  "${LG[@]}" --data "$WORK/hangar" --log "$OUT/hangar.log" -- distribution/target/hangar/hangar > "$OUT/hangar-coldstart.txt" 2>&1
echo "hangar without its start-up cache: coldstart" >&2
HANGAR_DATA_DIR="$WORK/hangar" HANGAR_S3_PORT=$PORT HANGAR_MANAGEMENT_PORT=$((PORT + 1)) HANGAR_WEBSITE_PORT=$((PORT + 2)) \
  HANGAR_ROOT_ACCESS_KEY=$KEY HANGAR_ROOT_SECRET_KEY=$SECRET \
  "${LG[@]}" --data "$WORK/hangar" --log "$OUT/hangar.log" -- "$JAVA" -jar distribution/target/hangar.jar \
  > "$OUT/hangar-nocache-coldstart.txt" 2>&1
if [ -n "$MINIO" ]; then
  echo "minio: coldstart" >&2
  MINIO_ROOT_USER=$KEY MINIO_ROOT_PASSWORD=$SECRET "${LG[@]}" --data "$WORK/minio" --log "$OUT/minio.log" -- \
    "$MINIO" server "$WORK/minio" --address 127.0.0.1:$PORT --console-address 127.0.0.1:$((PORT + 1)) > "$OUT/minio-coldstart.txt" 2>&1
fi

# The figures: warp's average of one operation (put), of all operations (mixed), of GET (get).
warp_figure() { # FILE REPORT FIELD(objs|mibs)
  [ -f "$1" ] || { echo "-"; return; }
  awk -v report="Report: $2." -v field="$3" '
    index($0, report) == 1 { found = 1; next }
    found && /\* Average:/ {
      for (i = 1; i <= NF; i++) { if ($(i) ~ /^MiB\/s/) mib = $(i - 1); if ($(i) ~ /^obj\/s/) obj = $(i - 1) }
      gsub(",", "", mib); gsub(",", "", obj); print (field == "mibs" ? mib : obj); exit }' "$1"
}
ttfb() { # FILE: warp get's median time to first byte
  [ -f "$1" ] || { echo "-"; return; }
  awk '/\* TTFB:/ { for (i = 1; i <= NF; i++) if ($(i) == "Median:") { v = $(i + 1); gsub(",", "", v); print v; exit } }' "$1"
}
coldstart() { # FILE WHAT(start|small)
  [ -f "$1" ] || { echo "-"; return; }
  if [ "$2" = start ]; then
    awk '/^start to first answer:/ { print $6 " ms"; exit }' "$1"
  else
    awk '/^small GET/ { for (i = 1; i <= NF; i++) if ($(i) == "p50") { print $(i + 1) " ms"; exit } }' "$1"
  fi
}
cliff() { # FILE: the largest p50 ratio of a size to the next smaller one
  [ -f "$1" ] || { echo "-"; return; }
  awk '$1 ~ /^[0-9]+(KiB|MiB)$/ && NF == 7 { if ($7 > max) { max = $7; at = $1 } } END { if (at) print max "x at " at; else print "-" }' "$1"
}
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'
}
row() { # NAME HANGAR MINIO GARAGE TARGET
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$(ratio "$2" "$3")" "$(ratio "$2" "$4")" "$5"
}
{
  echo
  echo "| workload | Hangar | MinIO | Garage | Hangar / MinIO | Hangar / Garage | target |"
  echo "|---|---|---|---|---|---|---|"
  row "warp put 256 B, 16 clients, obj/s" "$(warp_figure "$OUT/hangar-put-256B.txt" PUT objs)" \
    "$(warp_figure "$OUT/minio-put-256B.txt" PUT objs)" "$(warp_figure "$OUT/garage-put-256B.txt" PUT objs)" "≥ 3× MinIO, ≥ Garage"
  row "warp mixed 4 KiB, 16 clients, req/s" "$(warp_figure "$OUT/hangar-mixed-4KiB.txt" Total objs)" \
    "$(warp_figure "$OUT/minio-mixed-4KiB.txt" Total objs)" "$(warp_figure "$OUT/garage-mixed-4KiB.txt" Total objs)" "≥ 2× MinIO, ≥ 3× Garage"
  row "warp mixed 10 MiB, 20 clients, MiB/s" "$(warp_figure "$OUT/hangar-mixed-10MiB.txt" Total mibs)" \
    "$(warp_figure "$OUT/minio-mixed-10MiB.txt" Total mibs)" "$(warp_figure "$OUT/garage-mixed-10MiB.txt" Total mibs)" "≥ MinIO"
  row "warp get 1 MiB, 8 clients, MiB/s" "$(warp_figure "$OUT/hangar-get-1MiB.txt" GET mibs)" \
    "$(warp_figure "$OUT/minio-get-1MiB.txt" GET mibs)" "$(warp_figure "$OUT/garage-get-1MiB.txt" GET mibs)" "≥ MinIO"
  echo
  echo "| fresh start | Hangar | Hangar without cache | MinIO |"
  echo "|---|---|---|---|"
  echo "| warp get 1 MiB, median TTFB (not fresh) | $(ttfb "$OUT/hangar-get-1MiB.txt") | | $(ttfb "$OUT/minio-get-1MiB.txt") |"
  echo "| start to first answer, median | $(coldstart "$OUT/hangar-coldstart.txt" start) | $(coldstart "$OUT/hangar-nocache-coldstart.txt" start) | $(coldstart "$OUT/minio-coldstart.txt" start) |"
  echo "| one client, GET 1–64 KiB p50, first 1,000 requests | $(coldstart "$OUT/hangar-coldstart.txt" small) | $(coldstart "$OUT/hangar-nocache-coldstart.txt" small) | $(coldstart "$OUT/minio-coldstart.txt" small) |"
  echo "| largest p50 step to the next size (1 KiB–4 MiB) | $(cliff "$OUT/hangar-coldstart.txt") | $(cliff "$OUT/hangar-nocache-coldstart.txt") | $(cliff "$OUT/minio-coldstart.txt") |"
} >> "$OUT/summary.txt"
cat "$OUT/summary.txt"

#!/usr/bin/env bash
# Runs the seed benchmarks against the packaged server, once per sync mode, on this machine:
# 256 B PUTs with 16 clients, smallfiles, billion, lat; writes CSV, SVG plots and logs to OUT.
#
#   bench/scripts/seed-benchmarks.sh OUT [MODES...]       (default modes: always batch none)
#
# Environment: JAVA (a JDK 21+ java), BILLION_BATCHES (default 128, s3billion's), SMALL_OBJECTS
# (default 50000), PUT_SECONDS (default 60), SERVER_HEAP (default 512m), CHECKSUMS (default
# when-required: no aws-chunked CRC trailer per PUT, like warp; when-supported is the SDK's
# default, which costs the client more CPU than the server spends on a small PUT). Build first:
#   ./mvnw -q -DskipTests -pl distribution,bench -am package
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: seed-benchmarks.sh OUT [MODES...]}; shift
if [ $# -eq 0 ]; then MODES=(always batch none); else MODES=("$@"); fi
JAVA=${JAVA:-java}
BILLION_BATCHES=${BILLION_BATCHES:-128}
SMALL_OBJECTS=${SMALL_OBJECTS:-50000}
PUT_SECONDS=${PUT_SECONDS:-60}
SERVER_HEAP=${SERVER_HEAP:-512m}
SERVER_JAR=distribution/target/hangar.jar
BENCH_JAR=bench/target/benchmarks.jar
mkdir -p "$OUT"
export AWS_ACCESS_KEY_ID=BENCHKEY00000000000001 AWS_SECRET_ACCESS_KEY=bench-secret-000000000000000000000000000
LG=("$JAVA" -cp "$BENCH_JAR" dev.hangar.bench.LoadGenerator)
S3=(--endpoint http://127.0.0.1:19000 --path-style --checksums "${CHECKSUMS:-when-required}")
SERVER_PID=

stop_server() {
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}
trap stop_server EXIT

start_server() {
  local mode=$1 data=$2
  rm -rf "$data"
  HANGAR_DATA_DIR="$data" HANGAR_STORAGE_SYNC="$mode" HANGAR_S3_PORT=19000 \
    HANGAR_ROOT_ACCESS_KEY=$AWS_ACCESS_KEY_ID HANGAR_ROOT_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
    HANGAR_MANAGEMENT_PORT=19001 HANGAR_WEBSITE_ENABLED=false \
    "$JAVA" -Xmx"$SERVER_HEAP" -XX:+ExitOnOutOfMemoryError -jar "$SERVER_JAR" > "$OUT/server-$mode.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 120); do
    if curl -s -o /dev/null http://127.0.0.1:19001/actuator/health; then return 0; fi
    sleep 0.5
  done
  echo "server did not start; see $OUT/server-$mode.log" >&2
  exit 1
}

# Heap in use after a full GC (jcmd, beside the java that runs the server) and resident memory.
heap_report() {
  local mode=$1 when=$2 jcmd
  jcmd="$(dirname "$(command -v "$JAVA")")/jcmd"
  "$jcmd" "$SERVER_PID" GC.run > /dev/null
  echo "$mode $when: $("$jcmd" "$SERVER_PID" GC.heap_info | grep -m1 -o 'total.*used [0-9]*K'), rss $(( $(ps -o rss= -p "$SERVER_PID") / 1024 )) MiB" \
    | tee -a "$OUT/heap.txt"
}

for mode in "${MODES[@]}"; do
  echo "=== sync=$mode"
  start_server "$mode" "/tmp/hangar-bench-data-$mode"
  # A first, unrecorded run warms the server's JIT, so that the recorded one measures its steady state.
  "${LG[@]}" mixed "${S3[@]}" --bucket put256-warmup --size 256 --objects 16 --concurrency 16 \
    --get-distrib 0 --stat-distrib 0 --delete-distrib 0 --put-distrib 100 --duration PT30S > /dev/null
  "${LG[@]}" mixed "${S3[@]}" --bucket put256 --size 256 --objects 16 --concurrency 16 \
    --get-distrib 0 --stat-distrib 0 --delete-distrib 0 --put-distrib 100 --duration "PT${PUT_SECONDS}S" \
    --csv "$OUT/put256-$mode.csv" | tee "$OUT/put256-$mode.txt"
  "${LG[@]}" smallfiles "${S3[@]}" --bucket small --objects "$SMALL_OBJECTS" \
    --csv "$OUT/smallfiles-$mode.csv" --plot "$OUT/smallfiles-$mode.svg" | tee "$OUT/smallfiles-$mode.txt"
  "${LG[@]}" lat "${S3[@]}" --bucket lat --requests 200 --csv "$OUT/lat-$mode.csv" | tee "$OUT/lat-$mode.txt"
  "${LG[@]}" billion "${S3[@]}" --bucket billion --batches "$BILLION_BATCHES" \
    --csv "$OUT/billion-$mode.csv" --plot "$OUT/billion-$mode.svg" | tee "$OUT/billion-$mode.txt"
  heap_report "$mode" after-billion
  stop_server
  du -sh "/tmp/hangar-bench-data-$mode" | tee -a "$OUT/disk.txt"
  rm -rf "/tmp/hangar-bench-data-$mode"
done

#!/usr/bin/env bash
# Where a small request's CPU goes (docs/performance.md): one server with its defaults (sync=always),
# and for each kind of small request in turn (PUT, GET, HEAD, DELETE) the load generator's `mixed`
# making only that kind, while JDK Flight Recorder samples the server (settings=profile) from the end
# of the prefill to the end of the phase; then JfrBreakdown prints each recording's breakdown.
#
#   bench/scripts/profile-requests.sh OUT
#
# Environment: JAVA (a JDK 21+ java; jcmd beside it), SIZE (default 4KiB), CONCURRENCY (default 16),
# DURATION (default PT30S per phase), SERVER_HEAP (default 512m), SKIP_BUILD=1 to use what is built.
# Writes OUT/<phase>.jfr, OUT/<phase>.txt (the load generator's report), OUT/<phase>.md (the
# breakdown) and OUT/server.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: profile-requests.sh OUT}
JAVA=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}
JCMD=$(dirname "$(readlink -f "$(command -v "$JAVA")")")/jcmd
SIZE=${SIZE:-4KiB}
CONCURRENCY=${CONCURRENCY:-16}
DURATION=${DURATION:-PT30S}
SERVER_HEAP=${SERVER_HEAP:-512m}
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  ./mvnw -B -q -ntp -DskipTests -pl distribution,bench -am package
fi
mkdir -p "$OUT"
OUT=$(readlink -f "$OUT")
DATA=$(mktemp -d)
export AWS_ACCESS_KEY_ID=PROFILEKEY0000000001 AWS_SECRET_ACCESS_KEY=profile-secret-00000000000000000000000
HANGAR_DATA_DIR="$DATA" HANGAR_S3_PORT=19000 HANGAR_MANAGEMENT_PORT=19001 HANGAR_WEBSITE_ENABLED=false \
  HANGAR_ROOT_ACCESS_KEY=$AWS_ACCESS_KEY_ID HANGAR_ROOT_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
  "$JAVA" -Xmx"$SERVER_HEAP" -XX:+ExitOnOutOfMemoryError -jar distribution/target/hangar.jar > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 120); do
  curl -s -o /dev/null http://127.0.0.1:19001/actuator/health && break
  sleep 0.5
done
curl -s -o /dev/null http://127.0.0.1:19001/actuator/health || { echo "the server did not start; see $OUT/server.log" >&2; exit 1; }

LG=("$JAVA" -cp bench/target/benchmarks.jar dev.hangar.bench.LoadGenerator mixed
  --endpoint http://127.0.0.1:19000 --path-style --size "$SIZE" --concurrency "$CONCURRENCY" --duration "$DURATION")

# phase NAME OBJECTS GET STAT PUT DELETE [MORE OPTIONS...]
phase() {
  local name=$1 objects=$2 get=$3 stat=$4 put=$5 delete=$6; shift 6
  echo "phase $name" >&2
  "${LG[@]}" --bucket "profile-$name" --objects "$objects" --get-distrib "$get" --stat-distrib "$stat" \
    --put-distrib "$put" --delete-distrib "$delete" "$@" > "$OUT/$name.txt" 2>&1 &
  local load=$!
  until grep -q '^prefill:' "$OUT/$name.txt" 2>/dev/null; do
    kill -0 $load 2>/dev/null || { cat "$OUT/$name.txt" >&2; exit 1; }
    sleep 0.1
  done
  "$JCMD" $SERVER JFR.start name="$name" settings=profile > /dev/null
  wait $load
  "$JCMD" $SERVER JFR.dump name="$name" filename="$OUT/$name.jfr" > /dev/null
  "$JCMD" $SERVER JFR.stop name="$name" > /dev/null
  "$JAVA" -cp bench/target/benchmarks.jar dev.hangar.bench.profile.JfrBreakdown "$OUT/$name.jfr" > "$OUT/$name.md"
}

phase put 16 0 0 100 0
phase get 2500 100 0 0 0
phase head 2500 0 100 0 0
# Deletes need objects: as many prefilled as the phase may delete.
phase delete 20000 0 0 0 100 --operations 20000
echo "results in $OUT" >&2

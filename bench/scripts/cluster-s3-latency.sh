#!/usr/bin/env bash
# S3 latency of a 3-node cluster (one node per zone, replication factor 3, consistent mode) plus a
# gateway, under injected network delay between the nodes: Garage's s3lat (the load generator's
# `lat`: ListBuckets, ListObjects, PutObject, GetObject, DeleteObject, one request at a time)
# against a storage node and against the gateway, once per one-way delay. Every node delays each
# RPC message it sends by the delay, so a call between two nodes costs one round trip of 2 x delay.
#
#   bench/scripts/cluster-s3-latency.sh OUT [DELAYS_MS...]     (default delays: 0 5 20 50)
#
# With ttfb in MODES, also the time to first byte and total time of 10 MiB GETs through the
# gateway (10 chunks, none local: the read-ahead case), and the time of the 10 MiB PUTs that wrote
# them (each chunk written to the three replicas: the write-behind case).
#
# Environment: JAVA (a JDK 21+ java), MODES (default "lat ttfb"), REQUESTS (default 100 per
# endpoint), TTFB_REQUESTS (default 10), TTFB_OBJECTS (10 MiB objects PUT first, default 2), SERVER_HEAP (default 384m per node). Build first:
#   ./mvnw -q -DskipTests -pl distribution,bench -am package
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: cluster-s3-latency.sh OUT [DELAYS_MS...]}; shift
if [ $# -eq 0 ]; then DELAYS=(0 5 20 50); else DELAYS=("$@"); fi
JAVA=${JAVA:-java}
REQUESTS=${REQUESTS:-100}
TTFB_REQUESTS=${TTFB_REQUESTS:-10}
TTFB_OBJECTS=${TTFB_OBJECTS:-2}
MODES=${MODES:-lat ttfb}
SERVER_HEAP=${SERVER_HEAP:-384m}
SERVER_JAR=distribution/target/hangar.jar
BENCH_JAR=bench/target/benchmarks.jar
mkdir -p "$OUT"
DATA=$(mktemp -d)
export AWS_ACCESS_KEY_ID=BENCHKEY00000000000001 AWS_SECRET_ACCESS_KEY=bench-secret-000000000000000000000000000
# The nodes' shared cluster secret, fresh per run; it is passed to the nodes only, never printed.
CLUSTER_SECRET=$(head -c 32 /dev/urandom | base64)
# Every node takes it from the environment; /actuator/cluster wants it as a bearer token.
export HANGAR_ADMIN_TOKEN=bench-admin-token-0000000000000000
PIDS=()

stop_nodes() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$DATA"
}
trap stop_nodes EXIT

# start_node ID ZONE CAPACITY INDEX: S3 on 1N000, management on 1N001, RPC on 1N901.
start_node() {
  local id=$1 zone=$2 capacity=$3 n=$4 seeds=()
  for other in 1 2 3 4; do
    if [ "$other" != "$n" ]; then seeds+=("127.0.0.1:1${other}901"); fi
  done
  HANGAR_DATA_DIR="$DATA/$id" HANGAR_S3_PORT="1${n}000" HANGAR_MANAGEMENT_PORT="1${n}001" \
    HANGAR_WEBSITE_ENABLED=false HANGAR_STORAGE_SYNC=none \
    HANGAR_ROOT_ACCESS_KEY=$AWS_ACCESS_KEY_ID HANGAR_ROOT_SECRET_KEY=$AWS_SECRET_ACCESS_KEY \
    HANGAR_CLUSTER_NODE_ID="$id" HANGAR_CLUSTER_ZONE="$zone" HANGAR_CLUSTER_CAPACITY="$capacity" \
    HANGAR_CLUSTER_RPC_PORT="1${n}901" HANGAR_CLUSTER_SEEDS="$(IFS=,; echo "${seeds[*]}")" \
    HANGAR_CLUSTER_BOOTSTRAP_EXPECT=3 HANGAR_CLUSTER_FAULT_INJECTION=true HANGAR_CLUSTER_SECRET="$CLUSTER_SECRET" \
    "$JAVA" -Xmx"$SERVER_HEAP" -XX:+ExitOnOutOfMemoryError -jar "$SERVER_JAR" > "$OUT/$id.log" 2>&1 &
  PIDS+=($!)
}

# admin N PATH [CURL ARGS...]: a request to node N's administration API.
admin() {
  local n=$1 path=$2; shift 2
  curl -s -H "Authorization: Bearer $HANGAR_ADMIN_TOKEN" "$@" "http://127.0.0.1:1${n}001$path"
}

cluster_ready() {
  admin "$1" /actuator/cluster | grep -q '"version":1' \
    && [ "$(admin "$1" /actuator/cluster | grep -o '"state":"up"' | wc -l)" -eq 4 ]
}

start_node n1 zone-a 100 1
start_node n2 zone-b 100 2
start_node n3 zone-c 100 3
start_node gw zone-a 0 4
for _ in $(seq 1 240); do
  if cluster_ready 1 && cluster_ready 4; then break; fi
  sleep 0.5
done
cluster_ready 1 || { echo "the cluster did not form; see $OUT/*.log" >&2; exit 1; }

LG=("$JAVA" -cp "$BENCH_JAR" dev.hangar.bench.LoadGenerator)
for delay in "${DELAYS[@]}"; do
  for n in 1 2 3 4; do
    admin "$n" /actuator/cluster -f -o /dev/null -X POST -H 'Content-Type: application/json' \
      -d "{\"action\": \"faults\", \"delay\": \"${delay}ms\"}"
  done
  if [[ " $MODES " == *" ttfb "* ]]; then
    "${LG[@]}" ttfb --endpoint "http://127.0.0.1:14000" --path-style --checksums when-required \
      --bucket ttfb-gateway --size 10MiB --objects "$TTFB_OBJECTS" --requests "$TTFB_REQUESTS" --prefix "d$delay/" \
      --csv "$OUT/ttfb-gateway-${delay}ms.csv" | tee "$OUT/ttfb-gateway-${delay}ms.txt"
  fi
  [[ " $MODES " == *" lat "* ]] || continue
  for target in 1:replica 4:gateway; do
    n=${target%%:*}; role=${target##*:}
    # A short unrecorded run first: the node's JIT and its cache of the bucket's settings warm up.
    "${LG[@]}" lat --endpoint "http://127.0.0.1:1${n}000" --path-style --checksums when-required \
      --bucket "lat-$role" --requests 20 --prefix "warm-$delay/" > /dev/null
    "${LG[@]}" lat --endpoint "http://127.0.0.1:1${n}000" --path-style --checksums when-required \
      --bucket "lat-$role" --requests "$REQUESTS" --prefix "d$delay/" \
      --csv "$OUT/lat-$role-${delay}ms.csv" | tee "$OUT/lat-$role-${delay}ms.txt"
  done
done
for n in 1 4; do
  curl -s "http://127.0.0.1:1${n}001/actuator/prometheus" | grep '^hangar_cluster_rounds' > "$OUT/rounds-n$n.txt"
done
echo "results in $OUT"

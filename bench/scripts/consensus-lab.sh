#!/usr/bin/env bash
# The consensus lab in containers (docs/consensus-lab.md): leaderless against Raft on clusters of the
# Hangar image with a delay proxy on every inter-node link. Builds the image and the bench jar, starts
# a Docker engine if none answers (Debian's docker.io), and writes CSV, summary.md and PNG plots to OUT
# (default: docs/benchmarks/<today>/consensus-lab). Arguments after OUT go to the lab (--help lists
# them); without any, the default matrix: topologies 3, 5 and 6x3, RTTs 0/10/50/100 ms, both policies.
#
#   bench/scripts/consensus-lab.sh [OUT] [LAB OPTIONS...]
#   bench/scripts/consensus-lab.sh /tmp/small --topologies 3 --rtts 0,100 --rounds 20    (a small run)
#
# Environment: JAVA_HOME (a JDK 21+; else java on the PATH), SKIP_BUILD=1 to use what is built.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-docs/benchmarks/$(date -u +%F)/consensus-lab}
[ $# -gt 0 ] && shift
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1; then
    echo "no Docker engine: apt-get install -y docker.io (or start yours)" >&2
    exit 1
  fi
  echo "starting dockerd" >&2
  (dockerd >/tmp/consensus-lab-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not answer; see /tmp/consensus-lab-dockerd.log" >&2; exit 1; }
fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  ./mvnw -B -q -ntp -DskipTests -Pimage -pl distribution,bench -am install
fi

COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
DIRTY=$(git status --porcelain 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
LABEL="Commit \`$COMMIT\`$DIRTY; command \`bench/scripts/consensus-lab.sh $OUT $*\`; $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB."
mkdir -p "$OUT"
# Testcontainers on a machine without a registry: no Ryuk (its image cannot be pulled; the lab removes
# what it starts), and the engine on this host.
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=${TESTCONTAINERS_HOST_OVERRIDE:-localhost}
"$JAVA" -cp bench/target/benchmarks.jar dev.hangar.bench.lab.ConsensusLab --out "$OUT" --label "$LABEL" "$@" \
  2>&1 | tee "$OUT/lab.log"

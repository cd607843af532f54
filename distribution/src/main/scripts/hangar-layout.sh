#!/bin/sh
# Cluster layout CLI: a thin wrapper over /actuator/cluster on a Hangar node's management port.
# The cluster is a control plane only for now (membership and layout): data is NOT replicated yet,
# each node serves its own local data.
#
#   hangar-layout.sh status                      this node, the nodes it knows, the layout, staged changes
#   hangar-layout.sh stage ID ZONE CAPACITY      stage a new node or a changed zone/capacity
#   hangar-layout.sh remove ID                   stage taking a node out of the layout
#   hangar-layout.sh clear                       forget the staged changes
#   hangar-layout.sh apply VERSION               apply the staged changes on top of layout VERSION
#
# HANGAR_ADMIN: the management base URL (default http://127.0.0.1:9001).
set -eu

admin="${HANGAR_ADMIN:-http://127.0.0.1:9001}"
url="$admin/actuator/cluster"

usage() {
    sed -n '6,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

is_number() {
    case "$1" in
        '' | *[!0-9]*) return 1 ;;
        *) return 0 ;;
    esac
}

# JSON string: escapes backslashes and double quotes.
quote() {
    printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

post() {
    curl -sS -X POST "$url" -H 'Content-Type: application/json' -d "$1" -w '\n'
}

[ $# -ge 1 ] || usage
command="$1"
shift
case "$command" in
    status)
        [ $# -eq 0 ] || usage
        curl -sS "$url" -w '\n'
        ;;
    stage)
        [ $# -eq 3 ] || usage
        is_number "$3" || { echo "capacity must be a whole number: $3" >&2; exit 2; }
        post "{\"action\": \"stage\", \"node\": $(quote "$1"), \"zone\": $(quote "$2"), \"capacity\": $3}"
        ;;
    remove)
        [ $# -eq 1 ] || usage
        post "{\"action\": \"remove\", \"node\": $(quote "$1")}"
        ;;
    clear)
        [ $# -eq 0 ] || usage
        post '{"action": "clear"}'
        ;;
    apply)
        [ $# -eq 1 ] || usage
        is_number "$1" || { echo "version must be a whole number: $1" >&2; exit 2; }
        post "{\"action\": \"apply\", \"version\": $1}"
        ;;
    *)
        usage
        ;;
esac

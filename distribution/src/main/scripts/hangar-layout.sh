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
# The administration token: HANGAR_ADMIN_TOKEN, else the file HANGAR_ADMIN_TOKEN_FILE, else the one the node
# generated in its data folder, ${HANGAR_DATA_DIR:-./data}/admin-token.
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

token() {
    if [ -n "${HANGAR_ADMIN_TOKEN:-}" ]; then
        printf '%s' "$HANGAR_ADMIN_TOKEN"
        return
    fi
    token_file="${HANGAR_ADMIN_TOKEN_FILE:-${HANGAR_DATA_DIR:-./data}/admin-token}"
    if [ ! -r "$token_file" ]; then
        echo "no administration token: set HANGAR_ADMIN_TOKEN or HANGAR_ADMIN_TOKEN_FILE ($token_file is not readable)" >&2
        exit 2
    fi
    cat "$token_file"
}

# The token goes to curl on standard input (-H @-), so that no process list shows it.
call() {
    header="Authorization: Bearer $(token)"
    printf '%s\n' "$header" | curl -sS -H @- "$@" -w '\n' "$url"
}

post() {
    call -X POST -H 'Content-Type: application/json' -d "$1"
}

[ $# -ge 1 ] || usage
command="$1"
shift
case "$command" in
    status)
        [ $# -eq 0 ] || usage
        call
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

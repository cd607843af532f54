# shellcheck shell=bash
# Shared helpers of the shell client scripts (sourced, not run). run.sh exports:
#   INTEROP_ENDPOINT, INTEROP_ACCESS_KEY, INTEROP_SECRET_KEY, INTEROP_WORK (a temp dir),
#   INTEROP_FIXTURES (files every client uploads), INTEROP_RESULTS (one "PASS|FAIL|SKIP client step"
#   line per step), INTEROP_DEBUG (1: print each step's whole log).
# A script sets CLIENT before sourcing, then runs its checks through `step`.

: "${CLIENT:?set CLIENT before sourcing lib.sh}"
: "${INTEROP_ENDPOINT:?}" "${INTEROP_ACCESS_KEY:?}" "${INTEROP_SECRET_KEY:?}"
: "${INTEROP_WORK:?}" "${INTEROP_FIXTURES:?}" "${INTEROP_RESULTS:?}"

CLIENT_WORK="$INTEROP_WORK/$CLIENT"
mkdir -p "$CLIENT_WORK/logs"
STEP_NUMBER=0

# A bucket name of this client and run: lower case, unique per run.
bucket_name() {
  echo "interop-$CLIENT-$1-$(date +%s)-$RANDOM"
}

# step NAME COMMAND [ARGS...]: runs the command in a subshell with `set -euo pipefail`, its output
# going to the step's log, and records PASS, FAIL (printing the end of the log and the last HTTP
# exchanges of the debug log) or SKIP (when the command called `skip REASON`).
step() {
  local name=$1 rc started elapsed
  shift
  STEP_NUMBER=$((STEP_NUMBER + 1))
  local base
  base="$CLIENT_WORK/logs/$(printf '%02d' "$STEP_NUMBER")"
  export STEP_LOG="$base.log" STEP_DEBUG="$base.debug" STEP_SKIP="$base.skip" STEP_NOTICE="$base.notice"
  : >"$STEP_DEBUG"
  started=$(date +%s%N)
  set +e
  ( set -euo pipefail; shopt -s inherit_errexit; "$@" ) >"$STEP_LOG" 2>&1 </dev/null
  rc=$?
  set -e
  elapsed=$(( ($(date +%s%N) - started) / 1000000 ))
  local timing
  timing=$(printf '%d.%01ds' $((elapsed / 1000)) $((elapsed % 1000 / 100)))
  if [ -s "$STEP_NOTICE" ]; then
    sed 's/^/NOTICE: /' "$STEP_NOTICE"
  fi
  if [ "$rc" -eq 0 ] && [ -f "$STEP_SKIP" ]; then
    printf 'SKIP  %-7s %s (%s)\n' "$CLIENT" "$name" "$(cat "$STEP_SKIP")"
    echo "SKIP $CLIENT $name" >>"$INTEROP_RESULTS"
  elif [ "$rc" -eq 0 ]; then
    printf 'PASS  %-7s %s  %s\n' "$CLIENT" "$name" "$timing"
    echo "PASS $CLIENT $name" >>"$INTEROP_RESULTS"
  else
    printf 'FAIL  %-7s %s  %s (exit %d)\n' "$CLIENT" "$name" "$timing" "$rc"
    echo "FAIL $CLIENT $name" >>"$INTEROP_RESULTS"
    print_failure_details
  fi
  if [ "${INTEROP_DEBUG:-0}" = 1 ]; then
    sed 's/^/      | /' "$STEP_LOG"
  fi
  return 0
}

print_failure_details() {
  echo "      ---- output (last 40 lines of $STEP_LOG) ----"
  tail -n 40 "$STEP_LOG" | sed 's/^/      | /'
  if [ -s "$STEP_DEBUG" ]; then
    echo "      ---- last HTTP exchanges (full debug log: $STEP_DEBUG) ----"
    http_exchanges "$STEP_DEBUG" | tail -n 15 | cut -c1-1500 | sed 's/^/      | /'
    echo "      ---- end of the debug log ----"
    tail -n 5 "$STEP_DEBUG" | cut -c1-1500 | sed 's/^/      | /'
  fi
}

# The lines of a client debug log that show requests and answers; each script may override it.
http_exchanges() {
  cat "$1"
}

# A line printed with the step's result, whatever it is (what a client did by default, say).
# The lines the step's debug log gained since `mark=$(log_mark)` (the clients whose traces the tests read).
log_mark() {
  wc -l <"$STEP_DEBUG"
}
log_since() {
  tail -n +"$(($1 + 1))" "$STEP_DEBUG" | tr -d '\r'
}
# seen_since MARK REGEX: a line since MARK matches (case-insensitive extended regex). grep reads all
# of its input: grep -q would end the pipe early, and pipefail would fail on the SIGPIPE.
seen_since() {
  log_since "$1" | grep -iE "$2" >/dev/null
}

notice() {
  echo "NOTICE: $*"
  echo "$*" >>"$STEP_NOTICE"
}

# Marks the running step as skipped and ends it.
skip() {
  echo "$*" >"$STEP_SKIP"
  exit 0
}

fail() {
  echo "ASSERTION FAILED: $*" >&2
  exit 1
}

expect_equal() {
  local actual=$1 expected=$2 what=$3
  [ "$actual" = "$expected" ] || fail "$what: expected '$expected' but was '$actual'"
  echo "ok: $what = '$actual'"
}

expect_contains() {
  local haystack=$1 needle=$2 what=$3
  case "$haystack" in
    *"$needle"*) echo "ok: $what contains '$needle'" ;;
    *) fail "$what: expected to contain '$needle' but was: $haystack" ;;
  esac
}

expect_not_contains() {
  local haystack=$1 needle=$2 what=$3
  case "$haystack" in
    *"$needle"*) fail "$what: expected not to contain '$needle' but was: $haystack" ;;
    *) echo "ok: $what does not contain '$needle'" ;;
  esac
}

sha256() {
  sha256sum "$1" | cut -d' ' -f1
}

# same_content EXPECTED_FILE ACTUAL_FILE: the SHA-256 digests match.
same_content() {
  local expected actual
  expected=$(sha256 "$1")
  actual=$(sha256 "$2")
  [ "$expected" = "$actual" ] || fail "content of $2 (sha256 $actual) differs from $1 (sha256 $expected)"
  echo "ok: sha256 of $(basename "$2") = $actual ($(stat -c %s "$2") bytes)"
}

# same_tree EXPECTED_DIR ACTUAL_DIR: the same relative paths with the same SHA-256 digests.
same_tree() {
  local expected actual
  expected=$(cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
  actual=$(cd "$2" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
  if [ "$expected" != "$actual" ]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    fail "tree $2 differs from $1"
  fi
  echo "ok: $(echo "$actual" | grep -c .) files identical in $(basename "$2")"
}

# http_get URL OUTPUT_FILE: GETs a (presigned) URL with curl; prints the HTTP status.
http_get() {
  curl --silent --show-error --max-time 120 --noproxy '*' -o "$2" -w '%{http_code}' "$1"
}

# expect_http_status ACTUAL EXPECTED ANSWER_FILE WHAT: as expect_equal, showing the start of the
# answer's body when the status differs.
expect_http_status() {
  if [ "$1" != "$2" ]; then
    echo "answer to $4:"
    head -c 600 "$3"
    echo
  fi
  expect_equal "$1" "$2" "$4"
}

# signature_of URL: which signature a presigned URL carries, with its query parameter names:
# "SigV4 (X-Amz-Algorithm X-Amz-Credential ...)" or "SigV2 (AWSAccessKeyId Signature Expires)".
signature_of() {
  local names kind=unknown
  names=$(echo "${1#*\?}" | tr '&' '\n' | sed 's/=.*//' | paste -sd ' ' -)
  case " $names " in
    *" X-Amz-Signature "*) kind=SigV4 ;;
    *" Signature "*) kind=SigV2 ;;
  esac
  echo "$kind ($names)"
}

# A fresh empty directory under the client's work dir.
fresh_dir() {
  local dir="$CLIENT_WORK/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "$dir"
}

# Versioned steps: the step that enables versioning calls `versioning_unsupported REASON` when the
# server answers NotImplemented; every later `versioned_step` is then skipped with that reason.
VERSIONING_MARKER="$CLIENT_WORK/versioning-unsupported"

versioning_unsupported() {
  echo "$*" >"$VERSIONING_MARKER"
  echo "NOTICE: $*"
  skip "$*"
}

versioned_step() {
  if [ -f "$VERSIONING_MARKER" ]; then
    STEP_NUMBER=$((STEP_NUMBER + 1))
    printf 'SKIP  %-7s %s (versioning is not implemented by the server)\n' "$CLIENT" "$1"
    echo "SKIP $CLIENT $1" >>"$INTEROP_RESULTS"
  else
    step "$@"
  fi
}

# The presigned URL with one character of its signature changed: the first hex digit of a SigV4
# X-Amz-Signature, or the first character of a SigV2 Signature (URL-encoded base64, where a leading
# %XX escape is one character: '+', '/' or '=', which 'A' then replaces).
tamper_signature() {
  local url=$1 name head signature first rest
  case "$url" in
    *X-Amz-Signature=*) name=X-Amz-Signature ;;
    *Signature=*) name=Signature ;;
    *) fail "no signature to tamper with in $url" ;;
  esac
  head=${url%%"$name"=*}
  signature=${url#*"$name"=}
  first=${signature:0:1}
  rest=${signature:1}
  if [ "$name" = X-Amz-Signature ]; then
    if [ "$first" = 0 ]; then first=1; else first=0; fi
  else
    [ "$first" != % ] || rest=${signature:3}
    if [ "$first" = A ]; then first=B; else first=A; fi
  fi
  echo "${head}${name}=${first}${rest}"
}

# For clients that cannot list versions: boto3 (from the venv) reads or removes them.
boto3_python() {
  python3 - "$@" <<PY
import os, sys, boto3
from botocore.config import Config
s3 = boto3.client("s3", endpoint_url=os.environ["INTEROP_ENDPOINT"], region_name="us-east-1",
                  aws_access_key_id=os.environ["INTEROP_ACCESS_KEY"],
                  aws_secret_access_key=os.environ["INTEROP_SECRET_KEY"],
                  config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
$BOTO3_SCRIPT
PY
}

# versions_of BUCKET PREFIX: "N versions, N delete markers".
versions_of() {
  BOTO3_SCRIPT='
answer = s3.list_object_versions(Bucket=sys.argv[1], Prefix=sys.argv[2])
print(len(answer.get("Versions", [])), "versions,", len(answer.get("DeleteMarkers", [])), "delete markers")' \
    boto3_python "$1" "$2"
}

# purge_versions BUCKET: deletes every version and delete marker.
purge_versions() {
  BOTO3_SCRIPT='
for page in s3.get_paginator("list_object_versions").paginate(Bucket=sys.argv[1]):
    for entry in page.get("Versions", []) + page.get("DeleteMarkers", []):
        s3.delete_object(Bucket=sys.argv[1], Key=entry["Key"], VersionId=entry["VersionId"])
        print("deleted", entry["Key"], entry["VersionId"])' \
    boto3_python "$1"
}

# json_field FILE DOTTED.PATH: a field of a JSON document (empty when absent).
json_field() {
  python3 -c '
import json, sys
value = json.load(open(sys.argv[1]))
for part in sys.argv[2].split("."):
    value = value.get(part, "") if isinstance(value, dict) else ""
print(value)' "$1" "$2"
}

#!/usr/bin/env bash
# s3cmd: mb, ls, la, du, put (incl. multipart in 5 MiB parts), get, cp, mv, sync both ways
# (incl. --delete-removed), signurl, del, rb, setversioning; and a run with signature_v2 = True.
# Run by run.sh.
set -euo pipefail
CLIENT=s3cmd
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Path-style addressing (host_bucket without %(bucket)s), plain http, SigV4 in us-east-1, no
# retries so that every server error shows, multipart in 5 MiB parts (20 MiB -> 4 parts).
host="${INTEROP_ENDPOINT#http://}"
config="$CLIENT_WORK/s3cfg"
cat >"$config" <<EOF
[default]
access_key = $INTEROP_ACCESS_KEY
secret_key = $INTEROP_SECRET_KEY
host_base = $host
host_bucket = $host
use_https = False
signature_v2 = False
bucket_location = us-east-1
multipart_chunk_size_mb = 5
max_retries = 0
socket_timeout = 120
progress_meter = False
proxy_host =
EOF

# Every call logs its debug output (requests and answers) to the step's debug log.
s3cmd() {
  command s3cmd --config "$config" --debug "$@" 2>>"$STEP_DEBUG"
}

# s3cmd's own errors and the wire: the request line and headers, and each answer.
http_exchanges() {
  awk '/^DEBUG: (Sending request|format_uri)/ { print; next }
       /^DEBUG: Response:/ { answer = 1; print; next }
       answer && /^(DEBUG|INFO|WARNING|ERROR):/ { answer = 0 }
       answer { print; next }
       /^(ERROR|WARNING):/ { print }' "$1"
}

fixtures="$INTEROP_FIXTURES"
bucket=$(bucket_name main)
other=$(bucket_name copies)
versioned=$(bucket_name versions)

make_buckets() {
  s3cmd mb "s3://$bucket"
  s3cmd mb "s3://$other"
  local listing
  listing=$(s3cmd ls)
  echo "$listing"
  expect_contains "$listing" "s3://$bucket" "s3cmd ls"
  expect_contains "$listing" "s3://$other" "s3cmd ls"
}

put_get_small() {
  local dir out
  dir=$(fresh_dir small)
  s3cmd put --mime-type=text/plain --add-header=x-amz-meta-origin:s3cmd "$fixtures/small.txt" "s3://$bucket/small.txt"
  s3cmd get "s3://$bucket/small.txt" "$dir/small.txt"
  same_content "$fixtures/small.txt" "$dir/small.txt"
  out=$(s3cmd get --force "s3://$bucket/small.txt" - )
  expect_equal "$out" "$(cat "$fixtures/small.txt")" "s3cmd get to stdout"
}

put_multipart() {
  local out
  out=$(s3cmd put --multipart-chunk-size-mb=5 "$fixtures/big.bin" "s3://$bucket/big/big.bin")
  echo "$out"
  # The wire: four UploadPart requests, and CompleteMultipartUpload answering a 4-part ETag.
  expect_equal "$(grep -c "^DEBUG: format_uri(): /$bucket/big/big.bin?partNumber=" \
    "$STEP_DEBUG")" 4 "UploadPart requests"
  grep -q '<ETag>\(&quot;\|"\)[0-9a-f]\{32\}-4' "$STEP_DEBUG" || fail "CompleteMultipartUpload answered no 4-part ETag"
  echo "ok: CompleteMultipartUpload answered a 4-part ETag"
}

put_stream() {
  local dir
  dir=$(fresh_dir stream)
  # From stdin, size unknown: s3cmd streams it up in 5 MiB parts.
  s3cmd put --multipart-chunk-size-mb=5 - "s3://$bucket/big/streamed.bin" <"$fixtures/big.bin"
  expect_equal "$(grep -c "^DEBUG: format_uri(): /$bucket/big/streamed.bin?partNumber=" "$STEP_DEBUG")" 4 \
    "UploadPart requests"
  s3cmd get --force "s3://$bucket/big/streamed.bin" - >"$dir/streamed.bin"
  same_content "$fixtures/big.bin" "$dir/streamed.bin"
  s3cmd del "s3://$bucket/big/streamed.bin"
}

get_multipart() {
  local dir
  dir=$(fresh_dir download)
  # s3cmd checks the MD5 it stored at upload (x-amz-meta-s3cmd-attrs) against the download.
  s3cmd get "s3://$bucket/big/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
}

listings() {
  local top recursive all usage
  s3cmd put "$fixtures/small.txt" "s3://$bucket/list/one.txt"
  s3cmd put "$fixtures/small.txt" "s3://$bucket/list/sub/two.txt"
  top=$(s3cmd ls "s3://$bucket/list/")
  echo "$top"
  expect_contains "$top" "DIR  s3://$bucket/list/sub/" "s3cmd ls (delimited)"
  expect_contains "$top" "s3://$bucket/list/one.txt" "s3cmd ls (delimited)"
  expect_not_contains "$top" "two.txt" "s3cmd ls (delimited)"
  recursive=$(s3cmd ls --recursive "s3://$bucket/")
  echo "$recursive"
  expect_equal "$(echo "$recursive" | grep -c "s3://$bucket/")" 4 "objects listed by s3cmd ls --recursive"
  all=$(s3cmd la)
  expect_contains "$all" "s3://$bucket/big/" "s3cmd la"
  usage=$(s3cmd du "s3://$bucket")
  echo "$usage"
  expect_equal "$(echo "$usage" | awk '{ print $1 }')" \
    "$(( $(stat -c %s "$fixtures/big.bin") + 3 * $(stat -c %s "$fixtures/small.txt") ))" "bytes counted by s3cmd du"
}

copy_and_move() {
  local dir
  dir=$(fresh_dir copies)
  s3cmd cp "s3://$bucket/big/big.bin" "s3://$other/copied/big.bin"
  s3cmd get "s3://$other/copied/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  s3cmd mv "s3://$bucket/small.txt" "s3://$other/moved.txt"
  s3cmd get "s3://$other/moved.txt" "$dir/moved.txt"
  same_content "$fixtures/small.txt" "$dir/moved.txt"
  expect_not_contains "$(s3cmd ls "s3://$bucket/")" "small.txt" "source of s3cmd mv"
}

sync_up() {
  local tree="$CLIENT_WORK/tree" out
  rm -rf "$tree"
  cp -r "$fixtures/tree" "$tree"
  s3cmd sync "$tree/" "s3://$bucket/tree/"
  expect_equal "$(s3cmd ls --recursive "s3://$bucket/tree/" | grep -c "s3://")" 5 "objects after the first sync"
  out=$(s3cmd sync "$tree/" "s3://$bucket/tree/")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '^upload:' || true)" 0 "uploads of a second sync with nothing changed"
  echo "changed" >"$tree/a.txt"
  out=$(s3cmd sync "$tree/" "s3://$bucket/tree/")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '^upload:')" 1 "uploads after changing one file"
  rm "$tree/nested/deeper/c.txt"
  out=$(s3cmd sync --delete-removed "$tree/" "s3://$bucket/tree/")
  echo "$out"
  expect_contains "$out" "delete: 's3://$bucket/tree/nested/deeper/c.txt'" "sync --delete-removed"
  expect_equal "$(s3cmd ls --recursive "s3://$bucket/tree/" | grep -c "s3://")" 4 "objects after sync --delete-removed"
}

sync_down() {
  local dir
  dir=$(fresh_dir tree-download)
  s3cmd sync "s3://$bucket/tree/" "$dir/"
  same_tree "$CLIENT_WORK/tree" "$dir"
}

signed_url() {
  local dir url status
  dir=$(fresh_dir signurl)
  # s3cmd signs its URLs with SigV2 only (AWSAccessKeyId, Expires, Signature), whatever signature_v2 says.
  url=$(s3cmd signurl "s3://$bucket/big/big.bin" +300)
  echo "$url"
  echo "signature: $(signature_of "$url")"
  status=$(http_get "$url" "$dir/big.bin")
  expect_http_status "$status" 200 "$dir/big.bin" "HTTP status of the signed URL"
  same_content "$fixtures/big.bin" "$dir/big.bin"
}

deletes() {
  s3cmd del "s3://$bucket/big/big.bin"
  expect_not_contains "$(s3cmd ls --recursive "s3://$bucket/")" "big/big.bin" "s3cmd ls after s3cmd del"
  s3cmd del --recursive --force "s3://$bucket/"
  expect_equal "$(s3cmd ls --recursive "s3://$bucket/" | grep -c "s3://" || true)" 0 "objects after s3cmd del --recursive"
  s3cmd rb "s3://$bucket"
  s3cmd rb --recursive --force "s3://$other"
  local listing
  listing=$(s3cmd ls)
  expect_not_contains "$listing" "s3://$bucket" "s3cmd ls after s3cmd rb"
  expect_not_contains "$listing" "s3://$other" "s3cmd ls after s3cmd rb --recursive"
}

# ---- Signature Version 2 for every request (signature_v2 = True), as older setups configure it ----

# s3cmd signs V2 its own way: x-amz-date instead of Date (so an empty Date line), sub-resources such
# as ?acl in the resource: a second implementation of the string to sign beside botocore's.
v2config="$CLIENT_WORK/s3cfg-v2"
sed 's/^signature_v2 = False$/signature_v2 = True/' "$config" >"$v2config"

s3cmd_v2() {
  command s3cmd --config "$v2config" --debug "$@" 2>>"$STEP_DEBUG"
}

signature_v2_requests() {
  local dir listing v2bucket
  grep -q '^signature_v2 = True$' "$v2config" || fail "signature_v2 not set in $v2config"
  v2bucket=$(bucket_name sigv2)
  dir=$(fresh_dir sigv2)
  echo "signed with V2 by s3cmd" >"$dir/up.txt"
  s3cmd_v2 mb "s3://$v2bucket"
  s3cmd_v2 put --mime-type=text/plain --add-header=x-amz-meta-origin:s3cmd-v2 \
    "$dir/up.txt" "s3://$v2bucket/dir/a b+c.txt"
  listing=$(s3cmd_v2 ls --recursive "s3://$v2bucket")
  echo "$listing"
  expect_contains "$listing" "dir/a b+c.txt" "s3cmd ls with signature_v2"
  s3cmd_v2 get "s3://$v2bucket/dir/a b+c.txt" "$dir/down.txt"
  same_content "$dir/up.txt" "$dir/down.txt"
  s3cmd_v2 setacl --acl-public "s3://$v2bucket/dir/a b+c.txt"
  s3cmd_v2 info "s3://$v2bucket/dir/a b+c.txt"
  s3cmd_v2 rb --recursive --force "s3://$v2bucket"
  grep -q "'Authorization': 'AWS [^4]" "$STEP_DEBUG" \
    || fail "s3cmd sent no Signature Version 2 Authorization header (see $STEP_DEBUG)"
  echo "ok: s3cmd signed with Signature Version 2: $(grep -c "'Authorization': 'AWS [^4]" "$STEP_DEBUG") requests"
}

# ---- versioning: s3cmd turns it on and writes; boto3 reads the versions it cannot list ----

enable_versioning() {
  s3cmd mb "s3://$versioned"
  if ! s3cmd setversioning "s3://$versioned" enable; then
    if grep -q "NotImplemented" "$STEP_DEBUG"; then
      versioning_unsupported "server answered NotImplemented for PutBucketVersioning: versioned operations skipped"
    fi
    fail "s3cmd setversioning failed"
  fi
}

versioned_writes() {
  local dir
  dir=$(fresh_dir versions)
  echo "first" >"$dir/doc.txt"
  s3cmd put "$dir/doc.txt" "s3://$versioned/doc.txt"
  echo "second" >"$dir/doc.txt"
  s3cmd put "$dir/doc.txt" "s3://$versioned/doc.txt"
  s3cmd put --multipart-chunk-size-mb=5 "$fixtures/big.bin" "s3://$versioned/doc.txt"
  expect_equal "$(versions_of "$versioned" doc.txt)" "3 versions, 0 delete markers" "versions written by s3cmd"
  s3cmd get "s3://$versioned/doc.txt" "$dir/latest"
  same_content "$fixtures/big.bin" "$dir/latest"
  s3cmd del "s3://$versioned/doc.txt"
  expect_equal "$(versions_of "$versioned" doc.txt)" "3 versions, 1 delete markers" "after s3cmd del"
  expect_not_contains "$(s3cmd ls "s3://$versioned/")" "doc.txt" "s3cmd ls behind the delete marker"
  if s3cmd get "s3://$versioned/doc.txt" "$dir/gone"; then
    fail "s3cmd get found doc.txt behind its delete marker"
  fi
  s3cmd setversioning "s3://$versioned" disable
}

remove_versioned_bucket() {
  purge_versions "$versioned"
  s3cmd rb "s3://$versioned"
}

remove_unversioned_bucket() {
  s3cmd rb --recursive --force "s3://$versioned"
}

step "mb, ls" make_buckets
step "put (content type, metadata), get to a file and to stdout" put_get_small
step "put multipart (20 MiB, 4 parts of 5 MiB)" put_multipart
step "put from stdin (streamed multipart), get to stdout" put_stream
step "get of the multipart object, MD5 checked by s3cmd, sha256 compared" get_multipart
step "ls (delimited, --recursive), la, du" listings
step "cp between buckets, mv" copy_and_move
step "sync up: unchanged, changed, --delete-removed" sync_up
step "sync down, tree compared" sync_down
step "signurl fetched with curl" signed_url
step "signature_v2 = True: mb, put, ls, get, setacl (?acl), info, rb" signature_v2_requests
step "del, del --recursive, rb, rb --recursive" deletes
step "versioning: setversioning enable" enable_versioning
versioned_step "versioning: versions and delete marker written by s3cmd (read with boto3)" versioned_writes
if [ -f "$VERSIONING_MARKER" ]; then
  step "versioning: rb" remove_unversioned_bucket
else
  step "versioning: delete every version, rb" remove_versioned_bucket
fi

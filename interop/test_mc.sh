#!/usr/bin/env bash
# MinIO's mc: alias set, mb, ls (buckets, delimited, --recursive, by prefix, --summarize), du, cp up
# (metadata, tags; multipart in 16 MiB parts, streaming-signed) and down, put (5 MiB parts),
# pipe from stdin (streamed multipart), stat, cat (--offset, --tail, --part-number), server-side cp
# (CopyObject; ComposeObject, that is UploadPartCopy, from 64 MiB on), mv, mirror both ways
# (--overwrite, --remove), share download (a presigned GET), tag set/list/remove, rm, rm --recursive,
# rb, rb --force, cp --checksum (signed trailers, composite checksums), ls and rm --incomplete,
# versioning (version enable/info, ls --versions, cat and stat by version id, rm --version-id,
# delete marker, rb --force over versions) and object lock (retention, legalhold). Run by run.sh.
set -euo pipefail
CLIENT=mc
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mc_bin="${INTEROP_GO_BIN:?}/mc"
# A config dir of this run only, holding the alias "hangar": S3v4, path-style. No update check
# (mc only looks for one on release builds, but it would leave the loopback), no colours, no
# progress bars, no pager.
export MC_CONFIG_DIR="$CLIENT_WORK/config"
export MC_UPDATE=off MC_NO_COLOR=1 MC_QUIET=1 MC_DISABLE_PAGER=1

# Every call traces its requests and answers (Authorization redacted by mc; bodies of answers other
# than 200, 204 and 206) into the step's debug log, where mc's own errors go too.
mc() {
  command "$mc_bin" --debug "$@" 2>>"$STEP_DEBUG"
}

# mc has no setting that turns minio-go's retries off: a step fails instead when any request was
# answered 5xx (a retry would otherwise hide it) and says which.
no_server_errors() {
  local errors
  errors=$(tr -d '\r' <"$STEP_DEBUG" | grep -E '^mc: <DEBUG> HTTP/1\.[01] 5[0-9]{2}' || true)
  [ -z "$errors" ] || fail "the server answered $(echo "$errors" | grep -c .) requests with 5xx (mc retries them): $errors"
}

# The wire: request lines and status lines (each "mc: <DEBUG> " first), error codes and messages of
# the answers, mc's errors.
http_exchanges() {
  tr -d '\r' <"$1" | grep -E '^mc: <DEBUG> ((GET|PUT|POST|HEAD|DELETE) /|HTTP/1\.[01] [0-9]{3})|<Code>|<Message>|^mc: <ERROR>' || true
}

# count_requests MARK METHOD PATH_AND_QUERY_REGEX: requests since MARK whose request line matches.
count_requests() {
  log_since "$1" | grep -cE "^mc: <DEBUG> $2 $3 HTTP/1\.1$" || true
}

# json_value JSON DOTTED.PATH: a field of a JSON document given as a string (empty when absent).
json_value() {
  python3 -c '
import json, sys
value = json.loads(sys.argv[1])
for part in sys.argv[2].split("."):
    value = value.get(part, "") if isinstance(value, dict) else ""
print(value)' "$1" "$2"
}

# mc_step NAME FUNCTION: a step that also fails on any 5xx answer.
mc_step() {
  step "$1" checked "$2"
}
mc_versioned_step() {
  versioned_step "$1" checked "$2"
}
checked() {
  "$1"
  no_server_errors
}

fixtures="$INTEROP_FIXTURES"
bucket=$(bucket_name main)
other=$(bucket_name copies)
versioned=$(bucket_name versions)
# 70 MiB: above mc's 64 MiB threshold for copying server-side in parts (ComposeObject, that is
# UploadPartCopy), and 5 parts of 16 MiB when uploaded. Made here, as no other client needs it.
huge="$CLIENT_WORK/huge.bin"

alias_and_buckets() {
  mc alias set hangar "$INTEROP_ENDPOINT" "$INTEROP_ACCESS_KEY" "$INTEROP_SECRET_KEY" --api s3v4 --path on
  expect_contains "$(cat "$MC_CONFIG_DIR/config.json")" '"path": "on"' "the alias in $MC_CONFIG_DIR/config.json"
  mc mb "hangar/$bucket"
  mc mb "hangar/$other"
  local listing
  listing=$(mc ls hangar)
  echo "$listing"
  expect_contains "$listing" "$bucket/" "mc ls hangar"
  expect_contains "$listing" "$other/" "mc ls hangar"
  # Again: BucketAlreadyOwnedByYou, which mc reports as an error unless --ignore-existing.
  if mc mb "hangar/$bucket"; then
    fail "mc mb of an existing bucket succeeded"
  fi
  grep -q '^mc: <ERROR> Unable to make bucket .* you already own it' "$STEP_DEBUG" \
    || fail "mc did not report BucketAlreadyOwnedByYou"
  echo "ok: mc reported BucketAlreadyOwnedByYou"
  mc mb --ignore-existing "hangar/$bucket"
}

upload_small() {
  local dir stat
  dir=$(fresh_dir small)
  mc cp --attr "Content-Type=text/plain;Cache-Control=max-age=60;origin=mc" --tags "kind=fixture" \
    "$fixtures/small.txt" "hangar/$bucket/small.txt"
  stat=$(mc stat --json "hangar/$bucket/small.txt")
  echo "$stat"
  expect_equal "$(json_value "$stat" metadata.Content-Type)" text/plain "mc stat (Content-Type)"
  expect_equal "$(json_value "$stat" metadata.Cache-Control)" max-age=60 "mc stat (Cache-Control)"
  expect_equal "$(json_value "$stat" metadata.X-Amz-Meta-Origin)" mc "mc stat (metadata)"
  expect_equal "$(json_value "$stat" metadata.X-Amz-Tagging-Count)" 1 "mc stat (tag count)"
  expect_equal "$(json_value "$stat" etag)" "$(md5sum "$fixtures/small.txt" | cut -d' ' -f1)" \
    "mc stat (ETag: the MD5 of a single PUT)"
  mc cp "hangar/$bucket/small.txt" "$dir/small.txt"
  same_content "$fixtures/small.txt" "$dir/small.txt"
  expect_equal "$(mc cat "hangar/$bucket/small.txt")" "$(cat "$fixtures/small.txt")" "mc cat"
}

upload_multipart() {
  local mark stat
  mark=$(log_mark)
  # Above 16 MiB mc uploads in 16 MiB parts, 4 at a time: 2 parts, each signed chunk by chunk
  # (STREAMING-AWS4-HMAC-SHA256-PAYLOAD) over plain http.
  mc cp "$fixtures/big.bin" "hangar/$bucket/big/big.bin"
  expect_equal "$(count_requests "$mark" PUT "/$bucket/big/big\.bin\?partNumber=[0-9]+&uploadId=[^ ]+")" 2 \
    "UploadPart requests of mc cp"
  expect_equal "$(count_requests "$mark" POST "/$bucket/big/big\.bin\?uploadId=[^ ]+")" 1 "CompleteMultipartUpload requests"
  expect_equal "$(log_since "$mark" | grep -ci '^x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD$')" 2 \
    "parts sent as STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
  stat=$(mc stat --json "hangar/$bucket/big/big.bin")
  echo "$stat"
  expect_contains "$(json_value "$stat" etag)" "-2" "mc stat (ETag of a 2-part upload)"
  expect_equal "$(json_value "$stat" size)" 20971520 "mc stat (size)"
  # 5 MiB parts: 4.
  mark=$(log_mark)
  mc put --part-size 5MiB "$fixtures/big.bin" "hangar/$bucket/big/put.bin"
  expect_equal "$(count_requests "$mark" PUT "/$bucket/big/put\.bin\?partNumber=[0-9]+&uploadId=[^ ]+")" 4 \
    "UploadPart requests of mc put --part-size 5MiB"
  expect_contains "$(json_value "$(mc stat --json "hangar/$bucket/big/put.bin")" etag)" "-4" "mc stat (ETag of a 4-part upload)"
}

upload_stream() {
  local dir mark
  dir=$(fresh_dir stream)
  mark=$(log_mark)
  # From stdin, size unknown: streamed up in 5 MiB parts.
  mc pipe --part-size 5MiB "hangar/$bucket/big/streamed.bin" <"$fixtures/big.bin"
  expect_equal "$(count_requests "$mark" PUT "/$bucket/big/streamed\.bin\?partNumber=[0-9]+&uploadId=[^ ]+")" 4 \
    "UploadPart requests of mc pipe"
  mc cat "hangar/$bucket/big/streamed.bin" >"$dir/streamed.bin"
  same_content "$fixtures/big.bin" "$dir/streamed.bin"
  mc rm "hangar/$bucket/big/streamed.bin"
}

download() {
  local dir
  dir=$(fresh_dir download)
  mc cp "hangar/$bucket/big/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  mc cat "hangar/$bucket/big/put.bin" >"$dir/cat.bin"
  same_content "$fixtures/big.bin" "$dir/cat.bin"
  # Byte ranges: from an offset to the end, and the last bytes.
  mc cat --offset 20971000 "hangar/$bucket/big/big.bin" >"$dir/offset.bin"
  tail -c 520 "$fixtures/big.bin" >"$dir/expected-offset.bin"
  same_content "$dir/expected-offset.bin" "$dir/offset.bin"
  mc cat --tail 1000 "hangar/$bucket/big/big.bin" >"$dir/tail.bin"
  tail -c 1000 "$fixtures/big.bin" >"$dir/expected-tail.bin"
  same_content "$dir/expected-tail.bin" "$dir/tail.bin"
  # One part of the 4-part upload (GetObject with partNumber): the second 5 MiB.
  mc cat --part-number 2 "hangar/$bucket/big/put.bin" >"$dir/part2.bin"
  dd if="$fixtures/big.bin" of="$dir/expected-part2.bin" bs=1M skip=5 count=5 status=none
  same_content "$dir/expected-part2.bin" "$dir/part2.bin"
}

huge_upload_and_copy() {
  local dir mark
  dir=$(fresh_dir huge)
  head -c $((70 * 1024 * 1024)) /dev/urandom >"$huge"
  mark=$(log_mark)
  mc cp "$huge" "hangar/$bucket/huge.bin"
  expect_equal "$(count_requests "$mark" PUT "/$bucket/huge\.bin\?partNumber=[0-9]+&uploadId=[^ ]+")" 5 \
    "UploadPart requests of a 70 MiB mc cp"
  mark=$(log_mark)
  # From 64 MiB on, mc copies server-side in parts: UploadPartCopy (x-amz-copy-source-range).
  mc cp "hangar/$bucket/huge.bin" "hangar/$other/copied/huge.bin"
  [ "$(count_requests "$mark" PUT "/$other/copied/huge\.bin\?partNumber=[0-9]+&uploadId=[^ ]+")" -ge 1 ] \
    || fail "a 70 MiB server-side mc cp sent no UploadPartCopy"
  seen_since "$mark" '^x-amz-copy-source-range: bytes=' || fail "no x-amz-copy-source-range sent"
  expect_equal "$(count_requests "$mark" GET "/$bucket/huge\.bin")" 0 "downloads of the source by a server-side copy"
  mc cp "hangar/$other/copied/huge.bin" "$dir/huge.bin"
  same_content "$huge" "$dir/huge.bin"
  mc rm "hangar/$bucket/huge.bin" "hangar/$other/copied/huge.bin"
  rm -f "$huge" "$dir/huge.bin"
}

checksums() {
  local dir mark stat expected
  dir=$(fresh_dir checksums)
  head -c $((3 * 1024 * 1024)) /dev/urandom >"$dir/three.bin"
  # --checksum: each body signed chunk by chunk with the checksum in a signed trailer.
  mark=$(log_mark)
  mc cp --checksum SHA256 "$dir/three.bin" "hangar/$bucket/checksums/three.bin"
  seen_since "$mark" '^x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER$' \
    || fail "mc cp --checksum sent no STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER body"
  seen_since "$mark" '^x-amz-trailer: x-amz-checksum-sha256$' || fail "mc cp --checksum sent no x-amz-trailer"
  stat=$(mc stat --json "hangar/$bucket/checksums/three.bin")
  echo "$stat"
  expected=$(python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1], "rb").read()).digest()).decode())' \
    "$dir/three.bin")
  expect_equal "$(json_value "$stat" checksum.SHA256)" "$expected" "SHA-256 checksum of a single PUT, from mc stat"
  # In parts: the composite checksum, the SHA-256 of the parts' SHA-256s, with the number of parts.
  mc cp --checksum SHA256 "$fixtures/big.bin" "hangar/$bucket/checksums/big.bin"
  stat=$(mc stat --json "hangar/$bucket/checksums/big.bin")
  echo "$stat"
  expected=$(python3 -c '
import base64, hashlib, sys
data = open(sys.argv[1], "rb").read()
size = 16 * 1024 * 1024
parts = [hashlib.sha256(data[offset:offset + size]).digest() for offset in range(0, len(data), size)]
print(base64.b64encode(hashlib.sha256(b"".join(parts)).digest()).decode() + "-" + str(len(parts)))' "$fixtures/big.bin")
  expect_equal "$(json_value "$stat" checksum.SHA256)" "$expected" "composite SHA-256 checksum of 2 parts, from mc stat"
  mc cat "hangar/$bucket/checksums/big.bin" >"$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  mc rm --recursive --force "hangar/$bucket/checksums/"
}

incomplete_uploads() {
  local listing
  # Two uploads left incomplete (started with boto3: mc completes or aborts its own).
  BOTO3_SCRIPT='
for key in ("pending/one.bin", "pending/two.bin"):
    upload = s3.create_multipart_upload(Bucket=sys.argv[1], Key=key)["UploadId"]
    s3.upload_part(Bucket=sys.argv[1], Key=key, UploadId=upload, PartNumber=1, Body=b"x" * 100)
    print("started", key, upload)' boto3_python "$bucket"
  listing=$(mc ls --incomplete --recursive "hangar/$bucket")
  echo "$listing"
  expect_equal "$(echo "$listing" | awk '{ print $NF }' | sort | tr '\n' ' ')" "pending/one.bin pending/two.bin " \
    "mc ls --incomplete --recursive"
  mc rm --incomplete --recursive --force "hangar/$bucket/pending/"
  expect_equal "$(mc ls --incomplete --recursive "hangar/$bucket" | grep -c . || true)" 0 "incomplete uploads after mc rm --incomplete"
}

listings() {
  local top recursive prefixed summary usage found
  mc cp "$fixtures/small.txt" "hangar/$bucket/list/one.txt"
  mc cp "$fixtures/small.txt" "hangar/$bucket/list/other.txt"
  mc cp "$fixtures/small.txt" "hangar/$bucket/list/sub/two.txt"
  top=$(mc ls "hangar/$bucket/list/")
  echo "$top"
  expect_equal "$(echo "$top" | awk '{ print $NF }' | sort | tr '\n' ' ')" "one.txt other.txt sub/ " "mc ls (delimited)"
  recursive=$(mc ls --recursive "hangar/$bucket")
  echo "$recursive"
  expect_equal "$(echo "$recursive" | awk '{ print $NF }' | sort | tr '\n' ' ')" \
    "big/big.bin big/put.bin list/one.txt list/other.txt list/sub/two.txt small.txt " "mc ls --recursive"
  # A prefix that is not a "folder": the keys that start with it.
  prefixed=$(mc ls "hangar/$bucket/list/o")
  echo "$prefixed"
  expect_equal "$(echo "$prefixed" | awk '{ print $NF }' | sort | tr '\n' ' ')" "one.txt other.txt " "mc ls by prefix list/o"
  summary=$(mc ls --recursive --summarize "hangar/$bucket/list/")
  echo "$summary"
  expect_contains "$summary" "Total Objects: 3" "mc ls --summarize"
  usage=$(mc du --json "hangar/$bucket")
  echo "$usage"
  expect_contains "$usage" "\"size\":$(( 2 * $(stat -c %s "$fixtures/big.bin") + 4 * $(stat -c %s "$fixtures/small.txt") ))" \
    "bytes counted by mc du"
  found=$(mc find "hangar/$bucket" --name "*.txt")
  echo "$found"
  expect_equal "$(echo "$found" | grep -c .)" 4 "objects found by mc find --name '*.txt'"
}

server_side_copies() {
  local dir mark stat
  dir=$(fresh_dir copies)
  mark=$(log_mark)
  # Below 64 MiB: one CopyObject, the bytes never leave the server.
  mc cp "hangar/$bucket/big/big.bin" "hangar/$other/copied/big.bin"
  seen_since "$mark" '^x-amz-copy-source: ' || fail "mc cp between buckets sent no x-amz-copy-source"
  expect_equal "$(count_requests "$mark" GET "/$bucket/big/big\.bin")" 0 "downloads of the source by a server-side copy"
  mc cp "hangar/$other/copied/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  # With metadata added: CopyObject with the REPLACE directive and the source's metadata besides
  # (mc merges them itself; a key of both would get either value, so the key is a new one).
  mc cp --attr "copied-by=mc" "hangar/$bucket/small.txt" "hangar/$other/small-copy.txt"
  seen_since "$mark" '^x-amz-metadata-directive: REPLACE$' || fail "mc cp --attr sent no REPLACE directive"
  stat=$(mc stat --json "hangar/$other/small-copy.txt")
  echo "$stat"
  expect_equal "$(json_value "$stat" metadata.X-Amz-Meta-Copied-By)" mc "metadata added by the copy"
  expect_equal "$(json_value "$stat" metadata.X-Amz-Meta-Origin)" mc "metadata of the source, sent again by mc"
  expect_equal "$(mc cat "hangar/$other/small-copy.txt")" "$(cat "$fixtures/small.txt")" "the copied object"
  mc mv "hangar/$bucket/list/one.txt" "hangar/$other/moved.txt"
  expect_equal "$(mc cat "hangar/$other/moved.txt")" "$(cat "$fixtures/small.txt")" "the moved object"
  expect_not_contains "$(mc ls --recursive "hangar/$bucket/list/")" "one.txt" "the source of mc mv"
}

mirror_up() {
  local tree="$CLIENT_WORK/tree" out
  rm -rf "$tree"
  cp -r "$fixtures/tree" "$tree"
  mc mirror "$tree" "hangar/$bucket/tree"
  expect_equal "$(mc ls --recursive "hangar/$bucket/tree" | grep -c .)" 5 "objects after the first mirror"
  out=$(mc mirror --json "$tree" "hangar/$bucket/tree")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '"status":"success","source"' || true)" 0 "copies of a second mirror with nothing changed"
  echo "changed" >"$tree/a.txt"
  out=$(mc mirror --json --overwrite "$tree" "hangar/$bucket/tree")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '"source"')" 1 "copies after changing one file"
  expect_equal "$(mc cat "hangar/$bucket/tree/a.txt")" changed "the changed object"
  rm "$tree/nested/deeper/c.txt"
  mc mirror --overwrite --remove "$tree" "hangar/$bucket/tree"
  expect_equal "$(mc ls --recursive "hangar/$bucket/tree" | grep -c .)" 4 "objects after mirror --remove"
  expect_not_contains "$(mc ls --recursive "hangar/$bucket/tree")" "c.txt" "the removed file's object"
}

mirror_down() {
  local dir
  dir=$(fresh_dir tree-download)
  mc mirror "hangar/$bucket/tree" "$dir"
  same_tree "$CLIENT_WORK/tree" "$dir"
  [ -f "$dir/dir with space/naïve+plus=&.txt" ] || fail "the key with spaces, ï, + and = was not downloaded by name"
}

presigned_share() {
  local dir url status
  dir=$(fresh_dir share)
  # A SigV4 presigned GET, printed as "Share: URL".
  url=$(mc share download --expire 5m "hangar/$bucket/tree/dir with space/naïve+plus=&.txt" | sed -n 's/^Share: //p')
  echo "$url"
  expect_contains "$url" "X-Amz-Algorithm=AWS4-HMAC-SHA256" "mc share download"
  status=$(http_get "$url" "$dir/shared.txt")
  expect_http_status "$status" 200 "$dir/shared.txt" "HTTP status of the presigned GET"
  same_content "$fixtures/tree/dir with space/naïve+plus=&.txt" "$dir/shared.txt"
  status=$(http_get "$(tamper_signature "$url")" "$dir/refused.xml")
  expect_http_status "$status" 403 "$dir/refused.xml" "HTTP status of a presigned GET with a tampered signature"
}

tags() {
  local listing
  mc tag set "hangar/$bucket/big/big.bin" "project=hangar&client=mc"
  listing=$(mc tag list --json "hangar/$bucket/big/big.bin")
  echo "$listing"
  expect_contains "$listing" '"project":"hangar"' "mc tag list"
  expect_contains "$listing" '"client":"mc"' "mc tag list"
  expect_contains "$(mc tag list --json "hangar/$bucket/small.txt")" '"kind":"fixture"' "tags set by mc cp --tags"
  mc tag remove "hangar/$bucket/big/big.bin"
  expect_not_contains "$(mc tag list --json "hangar/$bucket/big/big.bin")" '"project"' "mc tag list after mc tag remove"
  # Bucket tags.
  mc tag set "hangar/$bucket" "team=storage"
  expect_contains "$(mc tag list --json "hangar/$bucket")" '"team":"storage"' "mc tag list of the bucket"
}

deletes() {
  mc rm "hangar/$bucket/big/big.bin"
  expect_not_contains "$(mc ls --recursive "hangar/$bucket")" "big/big.bin" "mc ls after mc rm"
  # A bucket that is not empty stays (BucketNotEmpty).
  if mc rb "hangar/$bucket"; then
    fail "mc rb removed a bucket that is not empty"
  fi
  mc rm --recursive --force "hangar/$bucket/tree/"
  expect_not_contains "$(mc ls --recursive "hangar/$bucket")" "tree/" "mc ls after mc rm --recursive"
  mc rm --recursive --force "hangar/$bucket"
  expect_equal "$(mc ls --recursive "hangar/$bucket" | grep -c . || true)" 0 "objects after mc rm --recursive of the bucket"
  mc rb "hangar/$bucket"
  mc rb --force "hangar/$other"
  local listing
  listing=$(mc ls hangar)
  expect_not_contains "$listing" "$bucket/" "mc ls after mc rb"
  expect_not_contains "$listing" "$other/" "mc ls after mc rb --force"
}

# ---- versioning ----

enable_versioning() {
  mc mb "hangar/$versioned"
  local mark info
  mark=$(log_mark)
  if ! mc version enable "hangar/$versioned"; then
    if seen_since "$mark" "NotImplemented"; then
      versioning_unsupported "server answered NotImplemented for PutBucketVersioning: versioned operations skipped"
    fi
    fail "mc version enable failed"
  fi
  info=$(mc version info "hangar/$versioned")
  echo "$info"
  expect_contains "$info" "versioning is enabled" "mc version info"
}

versions() {
  local dir listing old_id
  dir=$(fresh_dir versions)
  echo "first" | mc pipe "hangar/$versioned/doc.txt"
  echo "second" | mc pipe "hangar/$versioned/doc.txt"
  mc cp "$fixtures/big.bin" "hangar/$versioned/doc.txt"
  listing=$(mc ls --versions --json "hangar/$versioned/doc.txt")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c '"versionId"')" 3 "versions listed by mc ls --versions"
  expect_equal "$(versions_of "$versioned" doc.txt)" "3 versions, 0 delete markers" "versions written by mc (read with boto3)"
  mc cat "hangar/$versioned/doc.txt" >"$dir/latest"
  same_content "$fixtures/big.bin" "$dir/latest"
  # The oldest version is the only one of 6 bytes ("first\n").
  old_id=$(echo "$listing" | python3 -c '
import json, sys
print(*[entry["versionId"] for entry in map(json.loads, sys.stdin) if entry.get("size") == 6])')
  echo "oldest version: $old_id"
  expect_equal "$(mc cat --version-id "$old_id" "hangar/$versioned/doc.txt")" first "the oldest version, by id"
  expect_equal "$(json_value "$(mc stat --json --version-id "$old_id" "hangar/$versioned/doc.txt")" size)" 6 \
    "mc stat --version-id (size)"
  echo "$old_id" >"$CLIENT_WORK/oldest-version"
}

delete_marker() {
  local listing old_id
  old_id=$(cat "$CLIENT_WORK/oldest-version")
  mc rm "hangar/$versioned/doc.txt"
  expect_equal "$(versions_of "$versioned" doc.txt)" "3 versions, 1 delete markers" "versions after mc rm"
  expect_not_contains "$(mc ls "hangar/$versioned")" "doc.txt" "mc ls behind the delete marker"
  listing=$(mc ls --versions "hangar/$versioned")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c 'DEL')" 1 "delete markers listed by mc ls --versions"
  expect_equal "$(mc cat --version-id "$old_id" "hangar/$versioned/doc.txt")" first "a version behind the delete marker"
  mc rm --version-id "$old_id" "hangar/$versioned/doc.txt"
  expect_equal "$(versions_of "$versioned" doc.txt)" "2 versions, 1 delete markers" "versions after mc rm --version-id"
}

remove_versioned_bucket() {
  # Every version and delete marker, then the bucket.
  mc rb --force "hangar/$versioned"
  expect_not_contains "$(mc ls hangar)" "$versioned/" "mc ls after mc rb --force of a versioned bucket"
}

remove_unversioned_bucket() {
  mc rb --force "hangar/$versioned"
}

# ---- object lock ----

object_lock() {
  local locked version_id info
  locked=$(bucket_name locked)
  mc mb --with-lock "hangar/$locked"
  mc retention set --default GOVERNANCE 1d "hangar/$locked"
  info=$(mc retention info --default "hangar/$locked")
  echo "$info"
  expect_contains "$info" "GOVERNANCE" "mc retention info --default"
  mc cp "$fixtures/small.txt" "hangar/$locked/kept.txt"
  version_id=$(json_value "$(mc stat --json "hangar/$locked/kept.txt")" versionID)
  expect_contains "$(mc retention info "hangar/$locked/kept.txt")" "GOVERNANCE" "the retention of a new object"
  mc legalhold set "hangar/$locked/kept.txt"
  expect_contains "$(mc legalhold info "hangar/$locked/kept.txt")" "ON" "mc legalhold info"
  # Removing the version: refused while it is held, and while retained unless bypassed.
  if mc rm --bypass --version-id "$version_id" "hangar/$locked/kept.txt"; then
    fail "a version under legal hold was removed"
  fi
  mc legalhold clear --version-id "$version_id" "hangar/$locked/kept.txt"
  if mc rm --version-id "$version_id" "hangar/$locked/kept.txt"; then
    fail "a version under GOVERNANCE retention was removed without --bypass"
  fi
  grep -q '^mc: <ERROR> Failed to remove .*Access Denied' "$STEP_DEBUG" || fail "mc did not report Access Denied"
  mc rm --bypass --version-id "$version_id" "hangar/$locked/kept.txt"
  mc rb --force "hangar/$locked"
}

mc_step "alias set (s3v4, path-style), mb, mb again, ls" alias_and_buckets
mc_step "cp up (Content-Type, Cache-Control, metadata, tags), stat, cp down, cat" upload_small
mc_step "cp multipart (20 MiB, 2 streaming-signed parts of 16 MiB), put (4 parts of 5 MiB)" upload_multipart
mc_step "pipe from stdin (streamed multipart, 5 MiB parts), cat" upload_stream
mc_step "cp and cat down, cat --offset/--tail/--part-number, sha256 compared" download
mc_step "70 MiB: cp (5 parts), server-side cp (UploadPartCopy), cp down" huge_upload_and_copy
mc_step "cp --checksum SHA256 (signed trailer): single PUT and composite of 2 parts, from stat" checksums
mc_step "ls --incomplete, rm --incomplete (uploads started with boto3)" incomplete_uploads
mc_step "ls (delimited, --recursive, by prefix, --summarize), du, find" listings
mc_step "server-side cp (CopyObject, with metadata REPLACE), mv" server_side_copies
mc_step "mirror up: unchanged, --overwrite changed, --remove" mirror_up
mc_step "mirror down, tree compared" mirror_down
mc_step "share download (SigV4 presigned GET) fetched with curl, tampered refused" presigned_share
mc_step "tag set, list, remove (object and bucket)" tags
mc_step "rm, rb of a full bucket refused, rm --recursive, rb, rb --force" deletes
mc_step "versioning: version enable, version info" enable_versioning
mc_versioned_step "versioning: ls --versions, cat and stat --version-id" versions
mc_versioned_step "versioning: delete marker from rm, rm --version-id" delete_marker
if [ -f "$VERSIONING_MARKER" ]; then
  mc_step "versioning: rb --force" remove_unversioned_bucket
else
  mc_step "versioning: rb --force of every version" remove_versioned_bucket
fi
mc_versioned_step "object lock: mb --with-lock, retention, legalhold, rm refused, rm --bypass" object_lock

#!/usr/bin/env bash
# rclone (s3 backend, provider Other): mkdir, lsd, lsf, lsl, lsjson, size, copyto up (incl.
# multipart in 5 MiB parts) and down, cat, check, md5sum, server-side copyto (incl. multipart
# copy), moveto, sync both ways, link (an S3 presigned GET), deletefile, delete, purge, rmdir,
# and versioning (backend versioning, --s3-versions, --s3-version-at). Run by run.sh.
set -euo pipefail
CLIENT=rclone
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The remote "hangar:" lives in the environment only; the config file stays empty. Path-style,
# us-east-1, multipart above 5 MiB in 5 MiB parts (20 MiB -> 4 parts), server-side copies above
# 5 MiB in parts too, no retries so that every server error shows.
export RCLONE_CONFIG="$CLIENT_WORK/rclone.conf"
: >"$RCLONE_CONFIG"
export RCLONE_CONFIG_HANGAR_TYPE=s3
export RCLONE_CONFIG_HANGAR_PROVIDER=Other
export RCLONE_CONFIG_HANGAR_ENV_AUTH=false
export RCLONE_CONFIG_HANGAR_ACCESS_KEY_ID="$INTEROP_ACCESS_KEY"
export RCLONE_CONFIG_HANGAR_SECRET_ACCESS_KEY="$INTEROP_SECRET_KEY"
export RCLONE_CONFIG_HANGAR_ENDPOINT="$INTEROP_ENDPOINT"
export RCLONE_CONFIG_HANGAR_REGION=us-east-1
export RCLONE_CONFIG_HANGAR_FORCE_PATH_STYLE=true
export RCLONE_CONFIG_HANGAR_UPLOAD_CUTOFF=5Mi
export RCLONE_CONFIG_HANGAR_CHUNK_SIZE=5Mi
export RCLONE_CONFIG_HANGAR_COPY_CUTOFF=5Mi
export RCLONE_RETRIES=1 RCLONE_LOW_LEVEL_RETRIES=1 RCLONE_TIMEOUT=120s RCLONE_CONTIMEOUT=10s
export RCLONE_STATS=0 RCLONE_CACHE_DIR="$CLIENT_WORK/cache"

# Every call logs at debug level with the HTTP headers (Authorization redacted) to the step's debug log.
rclone() {
  command rclone -vv --dump headers "$@" 2>>"$STEP_DEBUG"
}

# rclone's errors and the wire: request lines, response status lines.
http_exchanges() {
  grep -E 'DEBUG : (GET|PUT|POST|HEAD|DELETE) /|DEBUG : HTTP/1\.[01] [0-9]{3}|ERROR|NOTICE|Failed' "$1" || true
}

# The lines the debug log gained since `mark=$(log_mark)`.
log_mark() {
  wc -l <"$STEP_DEBUG"
}
log_since() {
  tail -n +"$(($1 + 1))" "$STEP_DEBUG"
}

fixtures="$INTEROP_FIXTURES"
bucket=$(bucket_name main)
other=$(bucket_name copies)
versioned=$(bucket_name versions)

make_buckets() {
  rclone mkdir "hangar:$bucket"
  rclone mkdir "hangar:$other"
  local listing
  listing=$(rclone lsd hangar:)
  echo "$listing"
  expect_contains "$listing" "$bucket" "rclone lsd hangar:"
  expect_contains "$listing" "$other" "rclone lsd hangar:"
}

upload_small() {
  rclone copyto "$fixtures/small.txt" "hangar:$bucket/small.txt"
  expect_equal "$(rclone cat "hangar:$bucket/small.txt")" "$(cat "$fixtures/small.txt")" "rclone cat"
  expect_contains "$(rclone size --json "hangar:$bucket/small.txt" | tr -d ' ')" \
    "\"count\":1,\"bytes\":$(stat -c %s "$fixtures/small.txt")" "rclone size"
}

upload_multipart() {
  local mark
  mark=$(log_mark)
  rclone copyto "$fixtures/big.bin" "hangar:$bucket/big/big.bin"
  expect_equal "$(log_since "$mark" | grep -cE "DEBUG : PUT /$bucket/big/big.bin\?partNumber=[0-9]+&uploadId=")" 4 \
    "UploadPart requests"
  # rclone keeps the MD5 of a multipart upload in metadata, and checks it.
  rclone check "$fixtures" "hangar:$bucket/big/" --one-way --include big.bin
  expect_equal "$(rclone md5sum "hangar:$bucket/big/big.bin" | cut -d' ' -f1)" \
    "$(md5sum "$fixtures/big.bin" | cut -d' ' -f1)" "rclone md5sum"
}

upload_stream() {
  local dir mark
  dir=$(fresh_dir stream)
  mark=$(log_mark)
  # From stdin, size unknown: rclone streams it up in 5 MiB parts.
  rclone rcat "hangar:$bucket/big/streamed.bin" <"$fixtures/big.bin"
  expect_equal "$(log_since "$mark" | grep -cE "DEBUG : PUT /$bucket/big/streamed.bin\?partNumber=[0-9]+&uploadId=")" 4 \
    "UploadPart requests"
  rclone cat "hangar:$bucket/big/streamed.bin" >"$dir/streamed.bin"
  same_content "$fixtures/big.bin" "$dir/streamed.bin"
  rclone deletefile "hangar:$bucket/big/streamed.bin"
}

download() {
  local dir
  dir=$(fresh_dir download)
  rclone copyto "hangar:$bucket/big/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  rclone cat "hangar:$bucket/big/big.bin" >"$dir/cat.bin"
  same_content "$fixtures/big.bin" "$dir/cat.bin"
  rclone cat --offset 8388600 --count 200 "hangar:$bucket/big/big.bin" >"$dir/range.bin"
  dd if="$fixtures/big.bin" of="$dir/expected.bin" bs=1 skip=8388600 count=200 status=none
  same_content "$dir/expected.bin" "$dir/range.bin"
}

listings() {
  rclone copyto "$fixtures/small.txt" "hangar:$bucket/list/one.txt"
  rclone copyto "$fixtures/small.txt" "hangar:$bucket/list/sub/two.txt"
  local top recursive json
  top=$(rclone lsf "hangar:$bucket/list/")
  echo "$top"
  expect_equal "$(echo "$top" | sort | tr '\n' ' ')" "one.txt sub/ " "rclone lsf (one level)"
  recursive=$(rclone lsf -R --files-only "hangar:$bucket/")
  echo "$recursive"
  expect_equal "$(echo "$recursive" | sort | tr '\n' ' ')" "big/big.bin list/one.txt list/sub/two.txt small.txt " \
    "rclone lsf -R"
  expect_contains "$(rclone lsl "hangar:$bucket/big/")" "20971520" "rclone lsl"
  # ListObjectsV2 as well as rclone's default for provider Other, ListObjects (v1).
  expect_equal "$(rclone lsf -R --files-only --s3-list-version 2 "hangar:$bucket/" | sort | tr '\n' ' ')" \
    "big/big.bin list/one.txt list/sub/two.txt small.txt " "rclone lsf -R --s3-list-version 2"
  json=$(rclone lsjson -R --files-only "hangar:$bucket/list/")
  echo "$json"
  expect_contains "$json" '"Path":"sub/two.txt"' "rclone lsjson"
}

server_side_copies() {
  local dir mark
  dir=$(fresh_dir copies)
  mark=$(log_mark)
  rclone copyto "hangar:$bucket/big/big.bin" "hangar:$other/copied/big.bin"
  log_since "$mark" | grep -E "DEBUG : PUT /$other/copied/big.bin\?partNumber=1&uploadId=" >/dev/null \
    || fail "a 20 MiB server-side copy above the 5 MiB copy cutoff should use UploadPartCopy"
  log_since "$mark" | grep "INFO  : big.bin: Copied (server-side copy)" >/dev/null || fail "rclone did not copy server-side"
  rclone copyto "hangar:$other/copied/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  rclone copyto "hangar:$bucket/small.txt" "hangar:$other/small-copy.txt"
  expect_equal "$(rclone cat "hangar:$other/small-copy.txt")" "$(cat "$fixtures/small.txt")" "a small server-side copy"
  rclone moveto "hangar:$bucket/list/one.txt" "hangar:$other/moved.txt"
  expect_equal "$(rclone cat "hangar:$other/moved.txt")" "$(cat "$fixtures/small.txt")" "the moved object"
  expect_not_contains "$(rclone lsf -R "hangar:$bucket/list/")" "one.txt" "the source of rclone moveto"
}

sync_up() {
  local tree="$CLIENT_WORK/tree" mark
  rm -rf "$tree"
  cp -r "$fixtures/tree" "$tree"
  rclone sync "$tree" "hangar:$bucket/tree"
  rclone check "$tree" "hangar:$bucket/tree"
  expect_equal "$(rclone lsf -R --files-only "hangar:$bucket/tree" | grep -c .)" 5 "objects after the first sync"
  mark=$(log_mark)
  rclone sync "$tree" "hangar:$bucket/tree"
  expect_equal "$(log_since "$mark" | grep -cE 'INFO  : .*: Copied' || true)" 0 "copies by a second sync with nothing changed"
  echo "changed" >"$tree/a.txt"
  mark=$(log_mark)
  rclone sync "$tree" "hangar:$bucket/tree"
  expect_equal "$(log_since "$mark" | grep -cE 'INFO  : .*: Copied')" 1 "copies after changing one file"
  rm "$tree/nested/deeper/c.txt"
  rclone sync "$tree" "hangar:$bucket/tree"
  rclone check "$tree" "hangar:$bucket/tree"
  expect_equal "$(rclone lsf -R --files-only "hangar:$bucket/tree" | grep -c .)" 4 "objects after removing a file"
}

sync_down() {
  local dir
  dir=$(fresh_dir tree-download)
  rclone sync "hangar:$bucket/tree" "$dir"
  same_tree "$CLIENT_WORK/tree" "$dir"
  [ -f "$dir/dir with space/naïve+plus=&.txt" ] || fail "the key with spaces, ï, + and = was not downloaded by name"
}

presigned_link() {
  local dir url status
  dir=$(fresh_dir link)
  # For S3 remotes, `rclone link` answers a SigV4 presigned GET URL.
  url=$(rclone link --expire 5m "hangar:$bucket/big/big.bin")
  echo "$url"
  expect_contains "$url" "X-Amz-Algorithm=AWS4-HMAC-SHA256" "rclone link"
  status=$(http_get "$url" "$dir/big.bin")
  expect_equal "$status" 200 "HTTP status of the presigned GET"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  status=$(http_get "$(tamper_signature "$url")" "$dir/refused.xml")
  expect_equal "$status" 403 "HTTP status of a presigned GET with a tampered signature"
}

deletes() {
  rclone deletefile "hangar:$bucket/small.txt"
  expect_not_contains "$(rclone lsf "hangar:$bucket/")" "small.txt" "rclone lsf after deletefile"
  rclone delete --include '*.txt' "hangar:$bucket/tree"
  expect_equal "$(rclone lsf -R --files-only "hangar:$bucket/tree" | sort | tr '\n' ' ')" "b.bin nested/empty " \
    "objects left by rclone delete --include '*.txt'"
  rclone purge "hangar:$other"
  rclone delete "hangar:$bucket"
  rclone rmdir "hangar:$bucket"
  local listing
  listing=$(rclone lsd hangar:)
  expect_not_contains "$listing" "$bucket" "rclone lsd after rmdir"
  expect_not_contains "$listing" "$other" "rclone lsd after purge"
}

# ---- versioning ----

enable_versioning() {
  rclone mkdir "hangar:$versioned"
  local out mark
  mark=$(log_mark)
  if ! out=$(rclone backend versioning "hangar:$versioned" Enabled); then
    if log_since "$mark" | grep "NotImplemented" >/dev/null; then
      versioning_unsupported "server answered NotImplemented for PutBucketVersioning: versioned operations skipped"
    fi
    fail "rclone backend versioning failed"
  fi
  expect_equal "$out" Enabled "rclone backend versioning"
  expect_equal "$(rclone backend versioning "hangar:$versioned")" Enabled "versioning status read back"
}

versions() {
  local listing old between
  echo "first" | rclone rcat "hangar:$versioned/doc.txt"
  sleep 2
  between=$(date -u +"%Y-%m-%d %H:%M:%S")
  sleep 2
  echo "second" | rclone rcat "hangar:$versioned/doc.txt"
  expect_equal "$(rclone cat "hangar:$versioned/doc.txt")" second "the latest version"
  listing=$(rclone lsf --s3-versions "hangar:$versioned")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c .)" 2 "entries listed with --s3-versions"
  old=$(echo "$listing" | grep -E '^doc-v[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{6}-[0-9]{3}\.txt$') \
    || fail "no older version of doc.txt in: $listing"
  expect_equal "$(rclone cat --s3-versions "hangar:$versioned/$old")" first "the older version, by its version name"
  expect_equal "$(rclone cat --s3-version-at "$between" "hangar:$versioned/doc.txt")" first \
    "doc.txt as it was at $between (--s3-version-at)"
  echo "$between" >"$CLIENT_WORK/between"
}

delete_marker() {
  local listing
  rclone deletefile "hangar:$versioned/doc.txt"
  expect_not_contains "$(rclone lsf "hangar:$versioned")" "doc.txt" "rclone lsf behind the delete marker"
  expect_equal "$(versions_of "$versioned" doc.txt)" "2 versions, 1 delete markers" "versions after rclone deletefile"
  listing=$(rclone lsf --s3-versions "hangar:$versioned")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c '^doc-v')" 2 "versions listed behind the delete marker"
  expect_equal "$(rclone cat --s3-version-at "$(cat "$CLIENT_WORK/between")" "hangar:$versioned/doc.txt")" first \
    "--s3-version-at behind the delete marker"
}

remove_versioned_bucket() {
  purge_versions "$versioned"
  rclone rmdir "hangar:$versioned"
}

remove_unversioned_bucket() {
  rclone purge "hangar:$versioned"
}

step "mkdir, lsd" make_buckets
step "copyto upload of a small file, cat, size" upload_small
step "copyto multipart upload (20 MiB, 4 parts of 5 MiB), check, md5sum" upload_multipart
step "rcat upload from stdin (streamed multipart), cat" upload_stream
step "copyto and cat download, cat --offset/--count, sha256 compared" download
step "lsf, lsf -R (ListObjects v1 and v2), lsl, lsjson" listings
step "server-side copyto (multipart copy of 20 MiB, small copy), moveto" server_side_copies
step "sync up: check, unchanged, changed, removed" sync_up
step "sync down, tree compared" sync_down
step "link (SigV4 presigned GET) fetched with curl, tampered refused" presigned_link
step "deletefile, delete --include, purge, rmdir" deletes
step "versioning: backend versioning Enabled" enable_versioning
versioned_step "versioning: --s3-versions listing, older version by name, --s3-version-at" versions
versioned_step "versioning: delete marker from deletefile, versions behind it" delete_marker
if [ -f "$VERSIONING_MARKER" ]; then
  step "versioning: purge" remove_unversioned_bucket
else
  step "versioning: delete every version, rmdir" remove_versioned_bucket
fi

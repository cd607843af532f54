#!/usr/bin/env bash
# s5cmd: mb, ls (buckets, delimited, wildcards, --all-versions, ListObjects v1 and v2), du, cp up
# (content type, metadata, Cache-Control; multipart in 5 MiB parts) and down (ranged GETs in
# parallel), wildcard cp both ways, pipe from stdin (streamed multipart), head, cat, server-side cp
# (CopyObject, metadata REPLACE), mv, sync both ways (unchanged, changed, --delete), presign, run (a
# batch of commands, from a file and from stdin), rm (one, several, wildcard), rb (a full bucket
# refused), the bucket's region found by s5cmd itself (HeadBucket), and versioning (bucket-version,
# ls --all-versions, cat --version-id, delete marker, rm --all-versions). Run by run.sh.
set -euo pipefail
CLIENT=s5cmd
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

s5cmd_bin="${INTEROP_GO_BIN:?}/s5cmd"
# Credentials and region from the environment, given to each call (run.sh unsets the caller's AWS_*
# variables); the endpoint on the command line, where s5cmd addresses buckets path-style; no retries,
# so that every server error shows.
s5cmd_env=(AWS_ACCESS_KEY_ID="$INTEROP_ACCESS_KEY" AWS_SECRET_ACCESS_KEY="$INTEROP_SECRET_KEY" AWS_REGION=us-east-1)

# At log level trace s5cmd prints the SDK's dump of every request and answer (headers; the
# Authorization header with its signature), on stdout among its own output: split_trace moves them
# (and s5cmd's DEBUG lines) to the step's debug log and passes the rest on.
s5cmd() {
  env "${s5cmd_env[@]}" "$s5cmd_bin" --endpoint-url "$INTEROP_ENDPOINT" --retry-count 0 --log trace "$@" | split_trace
}

# For commands whose stdout is an object's bytes (cat), which no trace may be mixed into: log level
# info, so without the SDK's dumps.
s5cmd_content() {
  env "${s5cmd_env[@]}" "$s5cmd_bin" --endpoint-url "$INTEROP_ENDPOINT" --retry-count 0 "$@"
}

# An SDK dump is "DEBUG: Request s3/Operation Details:" or "DEBUG: Response s3/Operation Details:",
# a "---[ ... ]---" line, the headers, a blank line and a line of 53 dashes. Other "DEBUG: " lines
# of the SDK may go on over lines that start with a tab.
split_trace() {
  awk -v debug="$STEP_DEBUG" '
    dump { print >> debug; if ($0 ~ /^-+$/ && length($0) >= 40) dump = 0; next }
    /^DEBUG: (Request|Response) .* Details:$/ { print >> debug; dump = 1; continued = 0; next }
    /^DEBUG[: ]/ { print >> debug; continued = 1; next }
    continued && /^\t/ { print >> debug; next }
    { continued = 0; print }'
}

# The wire: operations, request lines, status lines, s5cmd's errors.
http_exchanges() {
  tr -d '\r' <"$1" | grep -E '^DEBUG: (Request|Response) |^(GET|PUT|POST|HEAD|DELETE) /|^HTTP/1\.[01] [0-9]{3}|^ERROR|^DEBUG [^:]|failed' || true
}

# count_operations MARK OPERATION: the SDK requests of that S3 operation since MARK.
count_operations() {
  log_since "$1" | grep -c "^DEBUG: Request s3/$2 Details:$" || true
}

fixtures="$INTEROP_FIXTURES"
bucket=$(bucket_name main)
other=$(bucket_name copies)
versioned=$(bucket_name versions)

make_buckets() {
  s5cmd mb "s3://$bucket"
  s5cmd mb "s3://$other"
  local listing
  listing=$(s5cmd ls)
  echo "$listing"
  expect_contains "$listing" "s3://$bucket" "s5cmd ls"
  expect_contains "$listing" "s3://$other" "s5cmd ls"
}

upload_small() {
  local dir head mark
  dir=$(fresh_dir small)
  s5cmd cp --content-type text/plain --cache-control "max-age=60" --metadata origin=s5cmd \
    "$fixtures/small.txt" "s3://$bucket/small.txt"
  mark=$(log_mark)
  head=$(s5cmd head "s3://$bucket/small.txt")
  echo "$head"
  expect_contains "$head" '"content_type":"text/plain"' "s5cmd head (Content-Type)"
  # s5cmd head does not print Cache-Control: the HeadObject answer in the trace.
  seen_since "$mark" '^cache-control: max-age=60$' || fail "HeadObject answered no Cache-Control: max-age=60"
  expect_contains "$head" '"origin":"s5cmd"' "s5cmd head (metadata)"
  expect_contains "$head" "$(md5sum "$fixtures/small.txt" | cut -d' ' -f1)" "s5cmd head (ETag: the MD5 of a single PUT)"
  s5cmd cp "s3://$bucket/small.txt" "$dir/small.txt"
  same_content "$fixtures/small.txt" "$dir/small.txt"
  expect_equal "$(s5cmd_content cat "s3://$bucket/small.txt")" "$(cat "$fixtures/small.txt")" "s5cmd cat"
}

upload_multipart() {
  local mark etag
  mark=$(log_mark)
  # s5cmd uploads in parts from the part size on (50 MiB by default): 5 MiB parts, 4 of them.
  s5cmd cp --part-size 5 "$fixtures/big.bin" "s3://$bucket/big/big.bin"
  expect_equal "$(count_operations "$mark" CreateMultipartUpload)" 1 "CreateMultipartUpload requests"
  expect_equal "$(count_operations "$mark" UploadPart)" 4 "UploadPart requests"
  expect_equal "$(count_operations "$mark" CompleteMultipartUpload)" 1 "CompleteMultipartUpload requests"
  etag=$(s5cmd ls --etag "s3://$bucket/big/big.bin")
  echo "$etag"
  expect_contains "$etag" "-4 " "s5cmd ls --etag (ETag of a 4-part upload)"
  expect_contains "$etag" " 20971520 " "s5cmd ls --etag (size)"
}

upload_stream() {
  local dir mark
  dir=$(fresh_dir stream)
  mark=$(log_mark)
  # From stdin, size unknown: streamed up in 5 MiB parts.
  s5cmd pipe --part-size 5 "s3://$bucket/big/streamed.bin" <"$fixtures/big.bin"
  expect_equal "$(count_operations "$mark" UploadPart)" 4 "UploadPart requests of s5cmd pipe"
  s5cmd cp "s3://$bucket/big/streamed.bin" "$dir/streamed.bin"
  same_content "$fixtures/big.bin" "$dir/streamed.bin"
  s5cmd rm "s3://$bucket/big/streamed.bin"
}

download() {
  local dir mark
  dir=$(fresh_dir download)
  mark=$(log_mark)
  # In 5 MiB ranges fetched in parallel: 4 ranged GETs.
  s5cmd cp --part-size 5 "s3://$bucket/big/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  expect_equal "$(log_since "$mark" | grep -ciE '^range: bytes=[0-9]+-[0-9]+$')" 4 "ranged GetObject requests"
  # With the default 50 MiB part size the object comes in one ranged GET.
  s5cmd cp "s3://$bucket/big/big.bin" "$dir/whole.bin"
  same_content "$fixtures/big.bin" "$dir/whole.bin"
  s5cmd_content cat "s3://$bucket/big/big.bin" >"$dir/cat.bin"
  same_content "$fixtures/big.bin" "$dir/cat.bin"
  s5cmd_content cat --part-size 5 "s3://$bucket/big/big.bin" >"$dir/cat-parts.bin"
  same_content "$fixtures/big.bin" "$dir/cat-parts.bin"
}

listings() {
  local top recursive wildcard full v1 usage
  s5cmd cp "$fixtures/small.txt" "s3://$bucket/list/one.txt"
  s5cmd cp "$fixtures/small.txt" "s3://$bucket/list/other.txt"
  s5cmd cp "$fixtures/small.txt" "s3://$bucket/list/sub/two.txt"
  # Delimited: the objects and the common prefix ("DIR") under list/.
  top=$(s5cmd ls "s3://$bucket/list/")
  echo "$top"
  expect_contains "$top" "DIR  sub/" "s5cmd ls (delimited)"
  expect_equal "$(echo "$top" | awk '{ print $NF }' | sort | tr '\n' ' ')" "one.txt other.txt sub/ " "s5cmd ls (delimited)"
  recursive=$(s5cmd ls "s3://$bucket/*")
  echo "$recursive"
  expect_equal "$(echo "$recursive" | awk '{ print $NF }' | sort | tr '\n' ' ')" \
    "big/big.bin list/one.txt list/other.txt list/sub/two.txt small.txt " "s5cmd ls s3://bucket/* (every key)"
  # By prefix and wildcard.
  wildcard=$(s5cmd ls "s3://$bucket/list/o*")
  echo "$wildcard"
  expect_equal "$(echo "$wildcard" | awk '{ print $NF }' | sort | tr '\n' ' ')" "one.txt other.txt " "s5cmd ls list/o*"
  full=$(s5cmd ls --show-fullpath "s3://$bucket/*.txt")
  echo "$full"
  expect_equal "$(echo "$full" | sort | tr '\n' ' ')" \
    "s3://$bucket/list/one.txt s3://$bucket/list/other.txt s3://$bucket/list/sub/two.txt s3://$bucket/small.txt " \
    "s5cmd ls --show-fullpath *.txt"
  # ListObjects (v1) as well as s5cmd's default ListObjectsV2.
  v1=$(s5cmd --use-list-objects-v1 ls "s3://$bucket/*")
  expect_equal "$(echo "$v1" | awk '{ print $NF }' | sort | tr '\n' ' ')" \
    "big/big.bin list/one.txt list/other.txt list/sub/two.txt small.txt " "s5cmd --use-list-objects-v1 ls"
  grep -q "^DEBUG: Request s3/ListObjects Details:$" "$STEP_DEBUG" || fail "no ListObjects (v1) request was sent"
  usage=$(s5cmd du "s3://$bucket/*")
  echo "$usage"
  expect_equal "$usage" \
    "$(( $(stat -c %s "$fixtures/big.bin") + 4 * $(stat -c %s "$fixtures/small.txt") )) bytes in 5 objects: s3://$bucket/*" \
    "s5cmd du"
  expect_contains "$(s5cmd du --humanize "s3://$bucket/list/*")" "in 3 objects" "s5cmd du --humanize"
}

server_side_copies() {
  local dir mark head
  dir=$(fresh_dir copies)
  mark=$(log_mark)
  s5cmd cp "s3://$bucket/big/big.bin" "s3://$other/copied/big.bin"
  expect_equal "$(count_operations "$mark" CopyObject)" 1 "CopyObject requests"
  expect_equal "$(count_operations "$mark" GetObject)" 0 "downloads of the source by a server-side copy"
  s5cmd cp "s3://$other/copied/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  # Metadata replaced on the copy.
  s5cmd cp --metadata-directive REPLACE --content-type application/x-copied --metadata origin=copied \
    "s3://$bucket/small.txt" "s3://$other/small-copy.txt"
  head=$(s5cmd head "s3://$other/small-copy.txt")
  echo "$head"
  expect_contains "$head" '"content_type":"application/x-copied"' "Content-Type replaced by a copy"
  expect_contains "$head" '"origin":"copied"' "metadata replaced by a copy"
  s5cmd mv "s3://$bucket/list/one.txt" "s3://$other/moved.txt"
  expect_equal "$(s5cmd_content cat "s3://$other/moved.txt")" "$(cat "$fixtures/small.txt")" "the moved object"
  expect_not_contains "$(s5cmd ls "s3://$bucket/list/*")" "one.txt" "the source of s5cmd mv"
}

wildcard_copies() {
  local dir listing
  dir=$(fresh_dir wildcard)
  # Every file of the tree (a wildcard keeps the paths below it), then the *.txt among them back.
  s5cmd cp "$fixtures/tree/*" "s3://$bucket/wild/"
  listing=$(s5cmd ls "s3://$bucket/wild/*")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c .)" 5 "objects uploaded by a wildcard cp"
  s5cmd cp "s3://$bucket/wild/*.txt" "$dir/"
  (cd "$dir" && find . -type f | sort)
  expect_equal "$(cd "$dir" && find . -type f | sort | tr '\n' ' ')" \
    "./a.txt ./dir with space/naïve+plus=&.txt ./nested/deeper/c.txt " "files downloaded by cp s3://.../wild/*.txt"
  same_content "$fixtures/tree/dir with space/naïve+plus=&.txt" "$dir/dir with space/naïve+plus=&.txt"
  s5cmd rm "s3://$bucket/wild/*"
  expect_equal "$(s5cmd ls "s3://$bucket/wild/*" 2>/dev/null | grep -c . || true)" 0 "objects left by s5cmd rm wild/*"
}

sync_up() {
  local tree="$CLIENT_WORK/tree" out
  rm -rf "$tree"
  cp -r "$fixtures/tree" "$tree"
  s5cmd sync "$tree/" "s3://$bucket/tree/"
  expect_equal "$(s5cmd ls "s3://$bucket/tree/*" | grep -c .)" 5 "objects after the first sync"
  out=$(s5cmd sync "$tree/" "s3://$bucket/tree/")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '^cp ' || true)" 0 "copies of a second sync with nothing changed"
  echo "changed" >"$tree/a.txt"
  out=$(s5cmd sync "$tree/" "s3://$bucket/tree/")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '^cp ')" 1 "copies after changing one file"
  rm "$tree/nested/deeper/c.txt"
  out=$(s5cmd sync --delete "$tree/" "s3://$bucket/tree/")
  echo "$out"
  expect_contains "$out" "rm s3://$bucket/tree/nested/deeper/c.txt" "sync --delete"
  expect_equal "$(s5cmd ls "s3://$bucket/tree/*" | grep -c .)" 4 "objects after sync --delete"
}

sync_down() {
  local dir
  dir=$(fresh_dir tree-download)
  s5cmd sync "s3://$bucket/tree/*" "$dir/"
  same_tree "$CLIENT_WORK/tree" "$dir"
}

presign() {
  local dir url status
  dir=$(fresh_dir presign)
  url=$(s5cmd presign --expire 5m "s3://$bucket/tree/dir with space/naïve+plus=&.txt")
  echo "$url"
  expect_contains "$url" "X-Amz-Algorithm=AWS4-HMAC-SHA256" "s5cmd presign"
  status=$(http_get "$url" "$dir/presigned.txt")
  expect_http_status "$status" 200 "$dir/presigned.txt" "HTTP status of the presigned GET"
  same_content "$CLIENT_WORK/tree/dir with space/naïve+plus=&.txt" "$dir/presigned.txt"
  status=$(http_get "$(tamper_signature "$url")" "$dir/refused.xml")
  expect_http_status "$status" 403 "$dir/refused.xml" "HTTP status of a presigned GET with a tampered signature"
}

batch() {
  local commands="$CLIENT_WORK/commands.txt" listing
  # The commands of a batch run in parallel: none depends on another.
  cat >"$commands" <<EOF
cp $fixtures/small.txt s3://$bucket/batch/one.txt
cp $fixtures/small.txt s3://$bucket/batch/two.txt
cp $fixtures/tree/b.bin s3://$bucket/batch/three.bin
cp s3://$bucket/small.txt s3://$bucket/batch/copied.txt
EOF
  s5cmd run "$commands"
  listing=$(s5cmd ls "s3://$bucket/batch/*")
  echo "$listing"
  expect_equal "$(echo "$listing" | awk '{ print $NF }' | sort | tr '\n' ' ')" "copied.txt one.txt three.bin two.txt " \
    "objects written by s5cmd run"
  # From stdin.
  printf 'rm s3://%s/batch/one.txt\nrm s3://%s/batch/two.txt\n' "$bucket" "$bucket" \
    | env "${s5cmd_env[@]}" "$s5cmd_bin" --endpoint-url "$INTEROP_ENDPOINT" --retry-count 0 --log trace run | split_trace
  expect_equal "$(s5cmd ls "s3://$bucket/batch/*" | awk '{ print $NF }' | sort | tr '\n' ' ')" "copied.txt three.bin " \
    "objects left by s5cmd run from stdin"
}

region_detection() {
  local mark out
  mark=$(log_mark)
  # Without a region s5cmd asks for the bucket's (HeadBucket, X-Amz-Bucket-Region) before anything else.
  out=$(env AWS_ACCESS_KEY_ID="$INTEROP_ACCESS_KEY" AWS_SECRET_ACCESS_KEY="$INTEROP_SECRET_KEY" \
    "$s5cmd_bin" --endpoint-url "$INTEROP_ENDPOINT" --retry-count 0 --log trace ls "s3://$bucket/small.txt" 2>&1 | split_trace)
  echo "$out"
  expect_not_contains "$out" "fetching region failed" "s5cmd ls without a region"
  expect_contains "$out" "small.txt" "s5cmd ls without a region"
  expect_equal "$(count_operations "$mark" HeadBucket)" 1 "HeadBucket requests (region lookup)"
  seen_since "$mark" '^x-amz-bucket-region: us-east-1$' || fail "HeadBucket answered no X-Amz-Bucket-Region: us-east-1"
  echo "ok: X-Amz-Bucket-Region: us-east-1"
}

deletes() {
  local out
  s5cmd rm "s3://$bucket/big/big.bin"
  expect_not_contains "$(s5cmd ls "s3://$bucket/*")" "big/big.bin" "s5cmd ls after s5cmd rm"
  # Several keys in one DeleteObjects.
  s5cmd rm "s3://$bucket/batch/copied.txt" "s3://$bucket/batch/three.bin"
  expect_not_contains "$(s5cmd ls "s3://$bucket/*")" "batch/" "s5cmd ls after s5cmd rm of two keys"
  # A bucket that is not empty stays.
  if out=$(s5cmd rb "s3://$bucket" 2>&1); then
    fail "s5cmd rb removed a bucket that is not empty"
  fi
  echo "$out"
  expect_contains "$out" "BucketNotEmpty" "s5cmd rb of a full bucket"
  s5cmd rm "s3://$bucket/*"
  expect_equal "$(s5cmd ls "s3://$bucket/*" 2>/dev/null | grep -c . || true)" 0 "objects after s5cmd rm s3://bucket/*"
  s5cmd rb "s3://$bucket"
  s5cmd rm "s3://$other/*"
  s5cmd rb "s3://$other"
  local listing
  listing=$(s5cmd ls)
  expect_not_contains "$listing" "s3://$bucket" "s5cmd ls after s5cmd rb"
  expect_not_contains "$listing" "s3://$other" "s5cmd ls after s5cmd rb"
}

# ---- versioning ----

enable_versioning() {
  s5cmd mb "s3://$versioned"
  local mark out
  mark=$(log_mark)
  if ! s5cmd bucket-version --set Enabled "s3://$versioned"; then
    if seen_since "$mark" "NotImplemented"; then
      versioning_unsupported "server answered NotImplemented for PutBucketVersioning: versioned operations skipped"
    fi
    fail "s5cmd bucket-version --set Enabled failed"
  fi
  out=$(s5cmd bucket-version "s3://$versioned")
  echo "$out"
  expect_contains "$out" "Enabled" "s5cmd bucket-version"
}

versions() {
  local dir listing old_id
  dir=$(fresh_dir versions)
  echo "first" >"$dir/doc.txt"
  s5cmd cp "$dir/doc.txt" "s3://$versioned/doc.txt"
  echo "second" >"$dir/doc.txt"
  s5cmd cp "$dir/doc.txt" "s3://$versioned/doc.txt"
  s5cmd cp --part-size 5 "$fixtures/big.bin" "s3://$versioned/doc.txt"
  listing=$(s5cmd ls --all-versions "s3://$versioned/doc.txt")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c 'doc.txt')" 3 "versions listed by s5cmd ls --all-versions"
  expect_equal "$(versions_of "$versioned" doc.txt)" "3 versions, 0 delete markers" "versions written by s5cmd (read with boto3)"
  s5cmd cp "s3://$versioned/doc.txt" "$dir/latest"
  same_content "$fixtures/big.bin" "$dir/latest"
  # The oldest version is the only one of 6 bytes ("first\n").
  old_id=$(echo "$listing" | awk '$3 == 6 { print $NF }')
  echo "oldest version: $old_id"
  expect_contains "$listing" "$old_id" "s5cmd ls --all-versions (the oldest version id)"
  expect_equal "$(s5cmd_content cat --version-id "$old_id" "s3://$versioned/doc.txt")" first "the oldest version, by id"
  expect_contains "$(s5cmd head --version-id "$old_id" "s3://$versioned/doc.txt")" "\"size\":6" "s5cmd head --version-id"
  echo "$old_id" >"$CLIENT_WORK/oldest-version"
}

delete_marker() {
  local listing old_id
  old_id=$(cat "$CLIENT_WORK/oldest-version")
  s5cmd rm "s3://$versioned/doc.txt"
  expect_equal "$(versions_of "$versioned" doc.txt)" "3 versions, 1 delete markers" "versions after s5cmd rm"
  expect_equal "$(s5cmd ls "s3://$versioned/*" 2>/dev/null | grep -c . || true)" 0 "s5cmd ls behind the delete marker"
  listing=$(s5cmd ls --all-versions "s3://$versioned/*")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c 'doc.txt')" 4 "versions and delete marker listed by s5cmd ls --all-versions"
  expect_equal "$(s5cmd_content cat --version-id "$old_id" "s3://$versioned/doc.txt")" first "a version behind the delete marker"
  s5cmd rm --version-id "$old_id" "s3://$versioned/doc.txt"
  expect_equal "$(versions_of "$versioned" doc.txt)" "2 versions, 1 delete markers" "versions after s5cmd rm --version-id"
}

remove_versioned_bucket() {
  s5cmd rm --all-versions "s3://$versioned/*"
  expect_equal "$(versions_of "$versioned" "")" "0 versions, 0 delete markers" "versions after s5cmd rm --all-versions"
  s5cmd rb "s3://$versioned"
}

remove_unversioned_bucket() {
  s5cmd rm "s3://$versioned/*" || true
  s5cmd rb "s3://$versioned"
}

step "mb, ls" make_buckets
step "cp up (Content-Type, Cache-Control, metadata), head, cp down, cat" upload_small
step "cp multipart (20 MiB, 4 parts of 5 MiB), ls --etag" upload_multipart
step "pipe from stdin (streamed multipart, 5 MiB parts), cp down" upload_stream
step "cp down (4 parallel ranged GETs, and one), cat, sha256 compared" download
step "ls (delimited, s3://bucket/*, list/o*, --show-fullpath, ListObjects v1), du" listings
step "server-side cp (CopyObject, metadata REPLACE), mv" server_side_copies
step "wildcard cp up and down, wildcard rm" wildcard_copies
step "sync up: unchanged, changed, --delete" sync_up
step "sync down, tree compared" sync_down
step "presign (SigV4 presigned GET) fetched with curl, tampered refused" presign
step "run: a batch from a file and from stdin" batch
step "bucket region found by s5cmd (HeadBucket)" region_detection
step "rm, rm of two keys, rb of a full bucket refused, wildcard rm, rb" deletes
step "versioning: bucket-version --set Enabled" enable_versioning
versioned_step "versioning: ls --all-versions, cat and head --version-id" versions
versioned_step "versioning: delete marker from rm, rm --version-id" delete_marker
if [ -f "$VERSIONING_MARKER" ]; then
  step "versioning: rm, rb" remove_unversioned_bucket
else
  step "versioning: rm --all-versions, rb" remove_versioned_bucket
fi

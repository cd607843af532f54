#!/usr/bin/env bash
# The aws cli (v1): `s3` commands (mb, ls, cp incl. multipart upload, multipart copy and download,
# sync both ways incl. --delete, mv, rm, rb, presign) and `s3api` commands (objects, listings,
# copies, ranges, low-level multipart, batch delete, versioning); then, with a config file that has
# no s3 section, as a newcomer's, mb, cp, ls and presign (SigV2 by default). Run by run.sh.
set -euo pipefail
CLIENT=awscli
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Path-style addressing, us-east-1, SigV4 for presigned URLs too (the cli presigns with SigV2 unless
# told otherwise, as the defaults steps at the end do), no retries so that every server error shows,
# and the default 8 MB multipart threshold and part size spelled out.
export AWS_CONFIG_FILE="$CLIENT_WORK/config"
export AWS_SHARED_CREDENTIALS_FILE="$CLIENT_WORK/credentials"
export AWS_ACCESS_KEY_ID="$INTEROP_ACCESS_KEY" AWS_SECRET_ACCESS_KEY="$INTEROP_SECRET_KEY"
export AWS_DEFAULT_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3
: >"$AWS_SHARED_CREDENTIALS_FILE"
cat >"$AWS_CONFIG_FILE" <<'EOF'
[default]
region = us-east-1
retry_mode = standard
max_attempts = 1
s3 =
    addressing_style = path
    signature_version = s3v4
    multipart_threshold = 8MB
    multipart_chunksize = 8MB
EOF

# The defaults, as a newcomer's config file has them: the region, no retries (so that every server
# error still shows) and no s3 section, so botocore picks the addressing style (path-style on an IP
# endpoint), the multipart thresholds (8 MB) and the presigning signature (SigV2 unless told
# otherwise). Used by the steps of aws_defaults.
defaults_config="$CLIENT_WORK/config-defaults"
cat >"$defaults_config" <<'EOF'
[default]
region = us-east-1
max_attempts = 1
EOF

# Every call logs its botocore debug output (requests and answers) to the step's debug log.
aws() {
  command aws --endpoint-url "$INTEROP_ENDPOINT" --cli-connect-timeout 10 --cli-read-timeout 120 \
    --debug "$@" 2>>"$STEP_DEBUG"
}

aws_defaults() {
  AWS_CONFIG_FILE="$defaults_config" aws "$@"
}

# The aws cli's own error lines and the wire: request line and headers, status, answer.
http_exchanges() {
  awk '/botocore\.endpoint - DEBUG - Sending http request/ || /urllib3\.connectionpool - DEBUG - http/ \
       || /botocore\.parsers - DEBUG - Response headers/ { print; next }
       /botocore\.parsers - DEBUG - Response body:/ { print; body = 1; next }
       body { print; body = 0; next }
       /An error occurred|failed:|^[A-Za-z.]*(Error|Exception)/ { print }' "$1" | grep -v '^$' || true
}

# The error code of a failed call: "An error occurred (NoSuchKey) when calling ..." -> NoSuchKey.
last_error_code() {
  sed -n 's/.*An error occurred (\([^)]*\)).*/\1/p' "$STEP_DEBUG" | tail -n 1
}

fixtures="$INTEROP_FIXTURES"
bucket=$(bucket_name main)
other=$(bucket_name copies)
versioned=$(bucket_name versions)
defaults=$(bucket_name defaults)

make_buckets() {
  aws s3 mb "s3://$bucket"
  aws s3 mb "s3://$other"
  aws s3api head-bucket --bucket "$bucket"
  local listing
  listing=$(aws s3 ls)
  echo "$listing"
  expect_contains "$listing" "$bucket" "aws s3 ls"
  expect_contains "$listing" "$other" "aws s3 ls"
  expect_equal "$(aws s3api get-bucket-location --bucket "$bucket" --query LocationConstraint --output text)" \
    "None" "get-bucket-location of a us-east-1 bucket"
}

upload_small() {
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/small.txt" --content-type text/plain \
    --metadata origin=awscli --cache-control max-age=60 --content-disposition 'attachment; filename="s.txt"' \
    --content-language en
  expect_equal "$(aws s3api head-object --bucket "$bucket" --key small.txt --query ContentLength --output text)" \
    "$(stat -c %s "$fixtures/small.txt")" "ContentLength"
  expect_equal "$(aws s3api head-object --bucket "$bucket" --key small.txt --query ContentType --output text)" \
    "text/plain" "ContentType"
  aws s3api head-object --bucket "$bucket" --key small.txt >"$CLIENT_WORK/head.json"
  cat "$CLIENT_WORK/head.json"
  expect_equal "$(json_field "$CLIENT_WORK/head.json" Metadata.origin)" awscli "user metadata"
  expect_equal "$(json_field "$CLIENT_WORK/head.json" CacheControl)" max-age=60 "Cache-Control"
  expect_equal "$(json_field "$CLIENT_WORK/head.json" ContentDisposition)" 'attachment; filename="s.txt"' \
    "Content-Disposition"
  expect_equal "$(json_field "$CLIENT_WORK/head.json" ContentLanguage)" en "Content-Language"
}

upload_multipart() {
  aws s3 cp --no-progress "$fixtures/big.bin" "s3://$bucket/big/big.bin"
  local etag
  etag=$(aws s3api head-object --bucket "$bucket" --key big/big.bin --query ETag --output text)
  [[ "$etag" =~ ^\"[0-9a-f]{32}-3\"$ ]] || fail "ETag of a 3-part upload should end in -3: $etag"
  echo "ok: multipart ETag $etag"
}

upload_stream() {
  local dir etag
  dir=$(fresh_dir stream)
  # From stdin, size unknown: the cli streams it up in 8 MB parts.
  aws s3 cp --no-progress - "s3://$bucket/big/streamed.bin" <"$fixtures/big.bin"
  etag=$(aws s3api head-object --bucket "$bucket" --key big/streamed.bin --query ETag --output text)
  [[ "$etag" =~ -3\"$ ]] || fail "ETag of a 3-part streamed upload should end in -3: $etag"
  aws s3 cp --no-progress "s3://$bucket/big/streamed.bin" - >"$dir/streamed.bin"
  same_content "$fixtures/big.bin" "$dir/streamed.bin"
  aws s3 rm "s3://$bucket/big/streamed.bin"
}

download() {
  local dir
  dir=$(fresh_dir download)
  aws s3 cp --no-progress "s3://$bucket/big/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  aws s3 cp --no-progress "s3://$bucket/small.txt" "$dir/small.txt"
  same_content "$fixtures/small.txt" "$dir/small.txt"
  aws s3api get-object --bucket "$bucket" --key big/big.bin "$dir/whole.bin" >/dev/null
  same_content "$fixtures/big.bin" "$dir/whole.bin"
}

ranged_get() {
  local dir
  dir=$(fresh_dir range)
  aws s3api get-object --bucket "$bucket" --key big/big.bin --range bytes=8388600-8388799 "$dir/range.bin" \
    >"$dir/answer.json"
  dd if="$fixtures/big.bin" of="$dir/expected.bin" bs=1 skip=8388600 count=200 status=none
  same_content "$dir/expected.bin" "$dir/range.bin"
  expect_contains "$(cat "$dir/answer.json")" '"ContentRange": "bytes 8388600-8388799/20971520"' "get-object answer"
}

listings() {
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/list/one.txt"
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/list/two.txt"
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/list/sub/three.txt"
  local top recursive
  top=$(aws s3 ls "s3://$bucket/list/")
  echo "$top"
  expect_contains "$top" "PRE sub/" "aws s3 ls (delimited)"
  expect_contains "$top" "one.txt" "aws s3 ls (delimited)"
  expect_not_contains "$top" "three.txt" "aws s3 ls (delimited)"
  recursive=$(aws s3 ls --recursive "s3://$bucket/list/")
  expect_equal "$(echo "$recursive" | grep -c .)" 3 "keys under list/ (aws s3 ls --recursive)"
  # ListObjectsV2 pages of one key, followed by the cli; ListObjects (v1) the same way.
  expect_equal "$(aws s3api list-objects-v2 --bucket "$bucket" --prefix list/ --page-size 1 \
    --query 'Contents[].Key' --output text | tr '\t' '\n' | grep -c .)" 3 "keys over pages of list-objects-v2"
  expect_equal "$(aws s3api list-objects --bucket "$bucket" --prefix list/ --page-size 1 \
    --query 'Contents[].Key' --output text | tr '\t' '\n' | grep -c .)" 3 "keys over pages of list-objects"
  expect_equal "$(aws s3api list-objects-v2 --bucket "$bucket" --prefix list/ --delimiter / \
    --query 'CommonPrefixes[].Prefix' --output text)" "list/sub/" "common prefixes of list-objects-v2"
  expect_equal "$(aws s3api list-objects-v2 --bucket "$bucket" --prefix list/ --start-after list/one.txt \
    --query 'Contents[].Key' --output text)" "list/sub/three.txt	list/two.txt" "list-objects-v2 --start-after"
}

server_side_copies() {
  local dir
  dir=$(fresh_dir copies)
  # 20 MiB from bucket to bucket: above the threshold the cli copies with UploadPartCopy.
  aws s3 cp --no-progress "s3://$bucket/big/big.bin" "s3://$other/copied/big.bin"
  aws s3 cp --no-progress "s3://$other/copied/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  # CopyObject with new metadata.
  aws s3api copy-object --bucket "$other" --key small-copy.txt --copy-source "$bucket/small.txt" \
    --metadata-directive REPLACE --metadata copied=yes --content-type text/x-copied >/dev/null
  expect_equal "$(aws s3api head-object --bucket "$other" --key small-copy.txt --query Metadata.copied --output text)" \
    "yes" "metadata replaced by copy-object"
  expect_equal "$(aws s3api head-object --bucket "$other" --key small-copy.txt --query ContentType --output text)" \
    "text/x-copied" "content type replaced by copy-object"
  aws s3 cp --no-progress "s3://$other/small-copy.txt" "$dir/small.txt"
  same_content "$fixtures/small.txt" "$dir/small.txt"
}

sync_up() {
  local tree="$CLIENT_WORK/tree" out
  rm -rf "$tree"
  cp -r "$fixtures/tree" "$tree"
  aws s3 sync --no-progress "$tree" "s3://$bucket/tree/"
  expect_equal "$(aws s3 ls --recursive "s3://$bucket/tree/" | grep -c .)" 5 "objects after the first sync"
  out=$(aws s3 sync --no-progress "$tree" "s3://$bucket/tree/")
  expect_equal "$out" "" "output of a second sync with nothing changed"
  echo "changed" >"$tree/a.txt"
  out=$(aws s3 sync --no-progress "$tree" "s3://$bucket/tree/")
  echo "$out"
  expect_equal "$(echo "$out" | grep -c '^upload:')" 1 "uploads after changing one file"
  rm "$tree/nested/deeper/c.txt"
  out=$(aws s3 sync --no-progress --delete "$tree" "s3://$bucket/tree/")
  echo "$out"
  expect_contains "$out" "delete: s3://$bucket/tree/nested/deeper/c.txt" "sync --delete"
  expect_equal "$(aws s3 ls --recursive "s3://$bucket/tree/" | grep -c .)" 4 "objects after sync --delete"
}

sync_down() {
  local dir
  dir=$(fresh_dir tree-download)
  aws s3 sync --no-progress "s3://$bucket/tree/" "$dir"
  same_tree "$CLIENT_WORK/tree" "$dir"
  # The URL-encoded key came back under its own name.
  [ -f "$dir/dir with space/naïve+plus=&.txt" ] || fail "the key with spaces, ï, + and = was not downloaded by name"
}

move() {
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/to-move.txt"
  aws s3 mv --no-progress "s3://$bucket/to-move.txt" "s3://$other/moved.txt"
  aws s3api head-object --bucket "$other" --key moved.txt >/dev/null
  if aws s3api head-object --bucket "$bucket" --key to-move.txt >/dev/null; then
    fail "the source of aws s3 mv still exists"
  fi
  echo "ok: source removed, target present"
}

low_level_multipart() {
  local dir upload etag1 etag2 parts
  dir=$(fresh_dir parts)
  split -b $((5 * 1024 * 1024)) -d "$fixtures/big.bin" "$dir/part-"
  upload=$(aws s3api create-multipart-upload --bucket "$bucket" --key low/level.bin --query UploadId --output text)
  expect_contains "$(aws s3api list-multipart-uploads --bucket "$bucket" --query 'Uploads[].UploadId' --output text)" \
    "$upload" "list-multipart-uploads"
  etag1=$(aws s3api upload-part --bucket "$bucket" --key low/level.bin --upload-id "$upload" --part-number 1 \
    --body "$dir/part-00" --query ETag --output text)
  # Part 2 holds the rest of the file: the parts cover it all.
  cat "$dir"/part-0[1-9] >"$dir/rest"
  etag2=$(aws s3api upload-part --bucket "$bucket" --key low/level.bin --upload-id "$upload" --part-number 2 \
    --body "$dir/rest" --query ETag --output text)
  parts=$(aws s3api list-parts --bucket "$bucket" --key low/level.bin --upload-id "$upload" \
    --query 'Parts[].PartNumber' --output text)
  expect_equal "$parts" "1	2" "list-parts"
  cat >"$dir/complete.json" <<EOF
{"Parts": [{"PartNumber": 1, "ETag": $etag1}, {"PartNumber": 2, "ETag": $etag2}]}
EOF
  aws s3api complete-multipart-upload --bucket "$bucket" --key low/level.bin --upload-id "$upload" \
    --multipart-upload "file://$dir/complete.json" >/dev/null
  aws s3api get-object --bucket "$bucket" --key low/level.bin "$dir/got.bin" >/dev/null
  same_content "$fixtures/big.bin" "$dir/got.bin"
  # An aborted upload disappears from the listing.
  upload=$(aws s3api create-multipart-upload --bucket "$bucket" --key low/aborted.bin --query UploadId --output text)
  aws s3api abort-multipart-upload --bucket "$bucket" --key low/aborted.bin --upload-id "$upload"
  expect_not_contains "$(aws s3api list-multipart-uploads --bucket "$bucket" --query 'Uploads[].UploadId' --output text)" \
    "$upload" "list-multipart-uploads after abort"
}

presigned() {
  local dir url status
  dir=$(fresh_dir presign)
  url=$(aws s3 presign "s3://$bucket/big/big.bin" --expires-in 300)
  echo "$url"
  expect_contains "$url" "X-Amz-Algorithm=AWS4-HMAC-SHA256" "presigned URL"
  status=$(http_get "$url" "$dir/big.bin")
  expect_equal "$status" 200 "HTTP status of the presigned GET"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  # A key that needs encoding in the signed path.
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/presign/naïve space+plus=&.txt"
  url=$(aws s3 presign "s3://$bucket/presign/naïve space+plus=&.txt" --expires-in 300)
  echo "$url"
  status=$(http_get "$url" "$dir/encoded.txt")
  expect_equal "$status" 200 "HTTP status of the presigned GET of a key that needs encoding"
  same_content "$fixtures/small.txt" "$dir/encoded.txt"
  url=$(aws s3 presign "s3://$bucket/big/big.bin" --expires-in 300)
  # A tampered signature is refused.
  status=$(http_get "$(tamper_signature "$url")" "$dir/refused.xml")
  expect_equal "$status" 403 "HTTP status of a presigned GET with a tampered signature"
  expect_contains "$(cat "$dir/refused.xml")" "<Code>SignatureDoesNotMatch</Code>" "answer to a tampered signature"
  # An expired one too.
  url=$(aws s3 presign "s3://$bucket/small.txt" --expires-in 1)
  sleep 2
  status=$(http_get "$url" "$dir/expired.xml")
  expect_equal "$status" 403 "HTTP status of an expired presigned GET"
  expect_contains "$(cat "$dir/expired.xml")" "<Code>AccessDenied</Code>" "answer to an expired presigned URL"
}

# ---- server-side encryption (the server runs with a master key, and takes SSE-C over plain HTTP here) ----

sse_c() {
  local dir key
  dir=$(fresh_dir sse-c)
  key="$dir/key.bin"
  head -c 32 /dev/urandom >"$key"
  aws s3 cp --no-progress "$fixtures/big.bin" "s3://$bucket/sse-c/big.bin" --sse-c AES256 --sse-c-key "fileb://$key"
  aws s3 cp --no-progress "s3://$bucket/sse-c/big.bin" "$dir/big.bin" --sse-c AES256 --sse-c-key "fileb://$key"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  expect_equal "$(aws s3api head-object --bucket "$bucket" --key sse-c/big.bin --sse-customer-algorithm AES256 \
    --sse-customer-key "fileb://$key" --query SSECustomerAlgorithm --output text)" AES256 "head-object with the key"
  if aws s3api head-object --bucket "$bucket" --key sse-c/big.bin >/dev/null; then
    fail "head-object without the key answered"
  fi
  # SSE-C -> SSE-S3, then back down
  aws s3 cp --no-progress "s3://$bucket/sse-c/big.bin" "s3://$bucket/sse-c/as-s3.bin" \
    --sse-c-copy-source AES256 --sse-c-copy-source-key "fileb://$key" --sse AES256
  aws s3 cp --no-progress "s3://$bucket/sse-c/as-s3.bin" "$dir/as-s3.bin"
  same_content "$fixtures/big.bin" "$dir/as-s3.bin"
}

sse_s3() {
  local dir
  dir=$(fresh_dir sse-s3)
  aws s3 cp --no-progress "$fixtures/big.bin" "s3://$bucket/sse-s3/big.bin" --sse AES256
  aws s3 cp --no-progress "$fixtures/small.txt" "s3://$bucket/sse-s3/small.txt" --sse AES256
  expect_equal "$(aws s3api head-object --bucket "$bucket" --key sse-s3/big.bin --query ServerSideEncryption \
    --output text)" AES256 "ServerSideEncryption of the multipart upload"
  aws s3 cp --no-progress "s3://$bucket/sse-s3/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  aws s3api get-object --bucket "$bucket" --key sse-s3/small.txt "$dir/small.txt" >"$dir/answer.json"
  same_content "$fixtures/small.txt" "$dir/small.txt"
  expect_contains "$(cat "$dir/answer.json")" '"ServerSideEncryption": "AES256"' "get-object answer"
}

deletes() {
  aws s3 rm "s3://$bucket/small.txt"
  aws s3api delete-object --bucket "$bucket" --key low/level.bin
  if aws s3api head-object --bucket "$bucket" --key small.txt >/dev/null; then
    fail "small.txt still exists after aws s3 rm"
  fi
  # DeleteObjects in one request, a missing key included (deleting it succeeds, as in S3).
  aws s3api delete-objects --bucket "$bucket" \
    --delete 'Objects=[{Key=list/one.txt},{Key=list/two.txt},{Key=never/existed}],Quiet=false' >"$CLIENT_WORK/deleted.json"
  expect_equal "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["Deleted"]))' \
    "$CLIENT_WORK/deleted.json")" 3 "keys reported deleted by delete-objects"
  aws s3 rm --recursive "s3://$bucket/"
  expect_equal "$(aws s3 ls --recursive "s3://$bucket/" | grep -c . || true)" 0 "objects after aws s3 rm --recursive"
  aws s3 rb --force "s3://$other"
  aws s3 rb "s3://$bucket"
  expect_not_contains "$(aws s3 ls)" "$bucket" "aws s3 ls after rb"
}

# ---- versioning ----

enable_versioning() {
  aws s3 mb "s3://$versioned"
  if ! aws s3api put-bucket-versioning --bucket "$versioned" --versioning-configuration Status=Enabled; then
    if [ "$(last_error_code)" = NotImplemented ]; then
      versioning_unsupported "server answered NotImplemented for PutBucketVersioning: versioned operations skipped"
    fi
    fail "put-bucket-versioning failed with $(last_error_code)"
  fi
  expect_equal "$(aws s3api get-bucket-versioning --bucket "$versioned" --query Status --output text)" \
    Enabled "get-bucket-versioning"
}

put_version() {
  local content=$1
  printf '%s' "$content" >"$CLIENT_WORK/version-body"
  aws s3api put-object --bucket "$versioned" --key doc.txt --body "$CLIENT_WORK/version-body" \
    --query VersionId --output text
}

versions_and_get_by_id() {
  local v1 v2 dir
  dir=$(fresh_dir versions)
  v1=$(put_version "first")
  v2=$(put_version "second")
  echo "versions: $v1 $v2"
  [ -n "$v1" ] && [ "$v1" != None ] && [ "$v1" != null ] || fail "put-object answered no version id: '$v1'"
  [ "$v1" != "$v2" ] || fail "two puts answered the same version id $v1"
  echo "$v1" >"$CLIENT_WORK/v1"
  echo "$v2" >"$CLIENT_WORK/v2"
  expect_equal "$(aws s3api list-object-versions --bucket "$versioned" --prefix doc.txt \
    --query 'length(Versions)' --output text)" 2 "versions of doc.txt"
  expect_equal "$(aws s3api list-object-versions --bucket "$versioned" --prefix doc.txt \
    --query 'Versions[?IsLatest].VersionId' --output text)" "$v2" "latest version"
  aws s3api get-object --bucket "$versioned" --key doc.txt --version-id "$v1" "$dir/v1" >/dev/null
  expect_equal "$(cat "$dir/v1")" first "content of the first version"
  aws s3api get-object --bucket "$versioned" --key doc.txt "$dir/latest" >/dev/null
  expect_equal "$(cat "$dir/latest")" second "content of the latest version"
  expect_equal "$(aws s3api head-object --bucket "$versioned" --key doc.txt --version-id "$v1" \
    --query ContentLength --output text)" 5 "head-object by version id"
  # A multipart upload (aws s3 cp) also creates a version.
  aws s3 cp --no-progress "$fixtures/big.bin" "s3://$versioned/big.bin"
  local big
  big=$(aws s3api head-object --bucket "$versioned" --key big.bin --query VersionId --output text)
  [ -n "$big" ] && [ "$big" != None ] && [ "$big" != null ] || fail "a multipart upload answered no version id: '$big'"
}

delete_marker() {
  local v1 v2 marker dir
  v1=$(cat "$CLIENT_WORK/v1")
  v2=$(cat "$CLIENT_WORK/v2")
  dir=$(fresh_dir markers)
  aws s3api delete-object --bucket "$versioned" --key doc.txt >"$dir/delete.json"
  cat "$dir/delete.json"
  expect_equal "$(json_field "$dir/delete.json" DeleteMarker)" True "DeleteMarker in the delete-object answer"
  marker=$(json_field "$dir/delete.json" VersionId)
  if aws s3api head-object --bucket "$versioned" --key doc.txt >/dev/null; then
    fail "head-object found doc.txt behind its delete marker"
  fi
  expect_not_contains "$(aws s3 ls "s3://$versioned/")" "doc.txt" "aws s3 ls after the delete marker"
  expect_equal "$(aws s3api list-object-versions --bucket "$versioned" --prefix doc.txt \
    --query 'DeleteMarkers[?IsLatest].VersionId' --output text)" "$marker" "latest delete marker"
  aws s3api get-object --bucket "$versioned" --key doc.txt --version-id "$v1" "$dir/v1" >/dev/null
  expect_equal "$(cat "$dir/v1")" first "the first version behind the delete marker"
  # Deleting the marker brings the object back.
  aws s3api delete-object --bucket "$versioned" --key doc.txt --version-id "$marker" >/dev/null
  aws s3api get-object --bucket "$versioned" --key doc.txt "$dir/back" >/dev/null
  expect_equal "$(cat "$dir/back")" second "content after removing the delete marker"
  # Deleting a version by id removes it for good.
  aws s3api delete-object --bucket "$versioned" --key doc.txt --version-id "$v1" >/dev/null
  expect_equal "$(aws s3api list-object-versions --bucket "$versioned" --prefix doc.txt \
    --query 'Versions[].VersionId' --output text)" "$v2" "versions left after deleting the first"
}

suspend_versioning() {
  aws s3api put-bucket-versioning --bucket "$versioned" --versioning-configuration Status=Suspended
  expect_equal "$(aws s3api get-bucket-versioning --bucket "$versioned" --query Status --output text)" \
    Suspended "get-bucket-versioning"
  local answered dir
  dir=$(fresh_dir suspended)
  answered=$(put_version "third")
  # AWS documents the null version id, not whether PutObject echoes it.
  [ "$answered" = None ] || [ "$answered" = null ] || fail "a put while suspended answered version id $answered"
  expect_equal "$(aws s3api list-object-versions --bucket "$versioned" --prefix doc.txt \
    --query 'Versions[?IsLatest].VersionId' --output text)" null "latest version id"
  aws s3api get-object --bucket "$versioned" --key doc.txt --version-id null "$dir/null" >/dev/null
  expect_equal "$(cat "$dir/null")" third "content of the null version"
}

remove_versioned_bucket() {
  local listing
  listing=$(aws s3api list-object-versions --bucket "$versioned" --query 'Versions[].[Key,VersionId]' --output text
    aws s3api list-object-versions --bucket "$versioned" --query 'DeleteMarkers[].[Key,VersionId]' --output text)
  echo "$listing"
  while read -r key version; do
    [ -n "$key" ] && [ "$key" != None ] || continue
    aws s3api delete-object --bucket "$versioned" --key "$key" --version-id "$version" >/dev/null
  done <<<"$listing"
  aws s3 rb "s3://$versioned"
}

remove_unversioned_bucket() {
  aws s3 rb --force "s3://$versioned"
}

# ---- the defaults: a config file without an s3 section ----

defaults_objects() {
  local dir listing
  dir=$(fresh_dir defaults)
  aws_defaults s3 mb "s3://$defaults"
  aws_defaults s3 cp --no-progress "$fixtures/big.bin" "s3://$defaults/big.bin"
  aws_defaults s3 cp --no-progress "$fixtures/small.txt" "s3://$defaults/presign/naïve space+plus=&.txt"
  echo "addressing: $(grep -m 1 -o "url=http://[^,]*/big.bin[^,]*" "$STEP_DEBUG" || true)"
  aws_defaults s3 cp --no-progress "s3://$defaults/big.bin" "$dir/big.bin"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  listing=$(aws_defaults s3 ls --recursive "s3://$defaults/")
  echo "$listing"
  expect_equal "$(echo "$listing" | grep -c .)" 2 "keys listed by aws s3 ls --recursive"
  expect_contains "$listing" "presign/naïve space+plus=&.txt" "aws s3 ls --recursive"
}

defaults_presign() {
  local dir url status
  dir=$(fresh_dir defaults-presign)
  url=$(aws_defaults s3 presign "s3://$defaults/big.bin" --expires-in 300)
  echo "$url"
  notice "aws s3 presign by default: $(signature_of "$url")"
  status=$(http_get "$url" "$dir/big.bin")
  expect_http_status "$status" 200 "$dir/big.bin" "HTTP status of the presigned GET"
  same_content "$fixtures/big.bin" "$dir/big.bin"
  url=$(aws_defaults s3 presign "s3://$defaults/presign/naïve space+plus=&.txt" --expires-in 300)
  echo "$url"
  status=$(http_get "$url" "$dir/encoded.txt")
  expect_http_status "$status" 200 "$dir/encoded.txt" "HTTP status of the presigned GET of a key that needs encoding"
  same_content "$fixtures/small.txt" "$dir/encoded.txt"
  url=$(tamper_signature "$url")
  echo "tampered: $url"
  status=$(http_get "$url" "$dir/refused.xml")
  expect_http_status "$status" 403 "$dir/refused.xml" "HTTP status of a presigned GET with a tampered signature"
  expect_contains "$(cat "$dir/refused.xml")" "<Code>SignatureDoesNotMatch</Code>" "answer to a tampered signature"
}

defaults_remove() {
  aws_defaults s3 rb --force "s3://$defaults"
  expect_not_contains "$(aws_defaults s3 ls)" "$defaults" "aws s3 ls after rb"
}

step "s3 mb, s3 ls, s3api head-bucket, get-bucket-location" make_buckets
step "s3 cp upload of a small file with content type, metadata, standard headers" upload_small
step "s3 cp multipart upload (20 MiB, 3 parts of 8 MB)" upload_multipart
step "s3 cp upload from stdin (streamed multipart) and download to stdout" upload_stream
step "s3 cp and s3api get-object download, sha256 compared" download
step "s3api get-object --range across a part boundary" ranged_get
step "s3 ls and s3api list-objects(-v2): delimiter, pages, start-after" listings
step "s3 cp multipart copy between buckets, s3api copy-object REPLACE" server_side_copies
step "s3 sync up: unchanged, changed, --delete" sync_up
step "s3 sync down, tree compared" sync_down
step "s3 mv between buckets" move
step "s3api create-multipart-upload, upload-part, list-parts, complete, abort" low_level_multipart
step "s3 presign: GET with curl (an encoded key too), tampered and expired URLs refused" presigned
step "SSE-C: s3 cp up and down (3 parts) with --sse-c-key, head-object with and without it, copy to SSE-S3" sse_c
step "SSE-S3: s3 cp --sse AES256 (3 parts and small), read back without a key" sse_s3
step "s3 rm, s3api delete-object(s), s3 rm --recursive, s3 rb" deletes
step "versioning: s3api put-bucket-versioning Enabled" enable_versioning
versioned_step "versioning: version ids, list-object-versions, get/head by version id" versions_and_get_by_id
versioned_step "versioning: delete marker, removing it, deleting a version" delete_marker
versioned_step "versioning: Suspended, null version" suspend_versioning
if [ -f "$VERSIONING_MARKER" ]; then
  step "versioning: remove the bucket" remove_unversioned_bucket
else
  step "versioning: delete every version, remove the bucket" remove_versioned_bucket
fi
step "defaults (no s3 section in the config): s3 mb, s3 cp up (20 MiB, 3 parts) and down, s3 ls" defaults_objects
step "defaults: s3 presign GET with curl (an encoded key too), tampered URL refused" defaults_presign
step "defaults: s3 rb --force" defaults_remove

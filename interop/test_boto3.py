"""boto3 against Hangar: buckets, objects (default CRC32 checksums), managed multipart upload,
download and copy, ranges, listings with pagination, presigned GET and PUT fetched with urllib,
deletes, and versioning; then a client made with no Config at all, as a newcomer makes it (its
presigned URLs and POST forms are signed with Signature Version 2). Run by run.sh, which exports the
INTEROP_* variables (see lib.sh).

Every step logs botocore's requests and answers in memory; a failing step prints the last ones.
"""

import base64
import hashlib
import io
import json
import logging
import os
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import zlib
from http.client import HTTPConnection

import boto3
import urllib3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError

CLIENT = "boto3"
ENDPOINT = os.environ["INTEROP_ENDPOINT"]
WORK = os.path.join(os.environ["INTEROP_WORK"], CLIENT)
FIXTURES = os.environ["INTEROP_FIXTURES"]
RESULTS = os.environ["INTEROP_RESULTS"]
DEBUG = os.environ.get("INTEROP_DEBUG") == "1"
MIB = 1024 * 1024

# Path-style, us-east-1, SigV4 everywhere (boto3 presigns with SigV2 unless told otherwise, which
# the default client at the end covers), no retries so that every server error shows. Checksums stay
# at the SDK's defaults (CRC32 on every upload that supports it).
s3 = boto3.session.Session(
    aws_access_key_id=os.environ["INTEROP_ACCESS_KEY"],
    aws_secret_access_key=os.environ["INTEROP_SECRET_KEY"],
    region_name="us-east-1",
).client(
    "s3",
    endpoint_url=ENDPOINT,
    config=Config(
        signature_version="s3v4",
        s3={"addressing_style": "path"},
        retries={"mode": "standard", "total_max_attempts": 1},
        connect_timeout=10,
        read_timeout=120,
    ),
)
# The default thresholds of the aws cli: 20 MiB goes up in 3 parts, and is copied in 3 parts.
TRANSFER = TransferConfig(multipart_threshold=8 * MIB, multipart_chunksize=8 * MIB, max_concurrency=4)


class Skip(Exception):
    """Ends a step as skipped, with the reason."""


class HttpLog(logging.Handler):
    """Keeps botocore's and urllib3's lines about requests and answers."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if record.name == "botocore.endpoint" and message.startswith("Sending http request"):
            self.lines.append(message)
        elif record.name == "urllib3.connectionpool" and '"' in message:
            self.lines.append(message)
        elif record.name == "botocore.parsers" and message.startswith("Response "):
            self.lines.append(message)


http_log = HttpLog()
for name in ("botocore.endpoint", "botocore.parsers", "urllib3.connectionpool"):
    logger = logging.getLogger(name)
    logger.setLevel(logging.DEBUG)
    logger.addHandler(http_log)

versioning_unsupported = None


def record(status, name):
    with open(RESULTS, "a", encoding="utf-8") as results:
        results.write(f"{status} {CLIENT} {name}\n")


def step(name, versioned=False):
    """Runs the decorated function at once as one step of the suite."""

    def run(function):
        if versioned and versioning_unsupported:
            print(f"SKIP  {CLIENT:<7} {name} (versioning is not implemented by the server)", flush=True)
            record("SKIP", name)
            return function
        http_log.lines.clear()
        output = io.StringIO()
        started = time.monotonic()
        status = "PASS"
        detail = ""
        try:
            function(output)
        except Skip as skipped:
            status, detail = "SKIP", str(skipped)
        except Exception:  # noqa: BLE001 - every error fails the step
            status = "FAIL"
            traceback.print_exc(file=output)
        elapsed = time.monotonic() - started
        if status == "SKIP":
            print(f"SKIP  {CLIENT:<7} {name} ({detail})", flush=True)
        else:
            print(f"{status}  {CLIENT:<7} {name}  {elapsed:.1f}s", flush=True)
        if status == "FAIL":
            print("      ---- output ----")
            for line in output.getvalue().splitlines()[-40:]:
                print(f"      | {line}")
            print("      ---- last HTTP exchanges ----")
            for line in http_log.lines[-12:]:
                print(f"      | {line[:1500]}")
        elif DEBUG:
            for line in output.getvalue().splitlines() + http_log.lines:
                print(f"      | {line[:1500]}")
        sys.stdout.flush()
        record(status, name)
        return function

    return run


def say(out, message):
    print(message, file=out)


def expect_equal(out, actual, expected, what):
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected!r} but was {actual!r}")
    say(out, f"ok: {what} = {actual!r}")


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(MIB), b""):
            digest.update(block)
    return digest.hexdigest()


def same_content(out, expected_path, actual_path):
    expected, actual = sha256_file(expected_path), sha256_file(actual_path)
    if expected != actual:
        raise AssertionError(f"{actual_path} (sha256 {actual}) differs from {expected_path} (sha256 {expected})")
    say(out, f"ok: sha256 of {os.path.basename(actual_path)} = {actual}")


def error_code(call, *args, **kwargs):
    """The S3 error code a call fails with (AssertionError if it succeeds)."""
    try:
        call(*args, **kwargs)
    except ClientError as error:
        return error.response["Error"]["Code"]
    raise AssertionError(f"{call.__name__} succeeded where it should have failed")


def http(method, url, body=None):
    """A plain HTTP request (for presigned URLs): (status, body bytes)."""
    request = urllib.request.Request(url, data=body, method=method)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def unique(purpose):
    return f"interop-{CLIENT}-{purpose}-{int(time.time())}-{os.getpid()}"


os.makedirs(WORK, exist_ok=True)
BIG = os.path.join(FIXTURES, "big.bin")
SMALL = os.path.join(FIXTURES, "small.txt")
bucket = unique("main")
other = unique("copies")
versioned = unique("versions")


@step("create_bucket, head_bucket, list_buckets, get_bucket_location")
def buckets(out):
    s3.create_bucket(Bucket=bucket)
    s3.create_bucket(Bucket=other)
    s3.head_bucket(Bucket=bucket)
    names = [entry["Name"] for entry in s3.list_buckets()["Buckets"]]
    assert bucket in names and other in names, f"list_buckets: {names}"
    expect_equal(out, s3.get_bucket_location(Bucket=bucket).get("LocationConstraint"), None, "location constraint")
    expect_equal(out, error_code(s3.create_bucket, Bucket=bucket), "BucketAlreadyOwnedByYou", "creating it again")


@step("put_object, get_object, head_object: body, metadata, CRC32 checksum")
def small_objects(out):
    body = b"small object from boto3\n"
    put = s3.put_object(Bucket=bucket, Key="small.txt", Body=body, ContentType="text/plain",
                        Metadata={"origin": "boto3"})
    say(out, f"put: {put['ETag']} {put.get('ChecksumCRC32')}")
    assert put.get("ChecksumCRC32"), "the default CRC32 checksum was not echoed"
    got = s3.get_object(Bucket=bucket, Key="small.txt", ChecksumMode="ENABLED")
    expect_equal(out, got["Body"].read(), body, "body")
    expect_equal(out, got["ContentType"], "text/plain", "content type")
    expect_equal(out, got["Metadata"], {"origin": "boto3"}, "metadata")
    expect_equal(out, got.get("ChecksumCRC32"), put["ChecksumCRC32"], "CRC32 on GET")
    head = s3.head_object(Bucket=bucket, Key="small.txt")
    expect_equal(out, head["ContentLength"], len(body), "content length")
    expect_equal(out, head["ETag"], put["ETag"], "ETag")
    # An explicit SHA-256 checksum is verified and kept too.
    put = s3.put_object(Bucket=bucket, Key="sha256.txt", Body=body, ChecksumAlgorithm="SHA256")
    head = s3.head_object(Bucket=bucket, Key="sha256.txt", ChecksumMode="ENABLED")
    expect_equal(out, head.get("ChecksumSHA256"), put["ChecksumSHA256"], "SHA256 checksum")
    expect_equal(out, error_code(s3.get_object, Bucket=bucket, Key="missing"), "NoSuchKey", "GET of a missing key")


@step("upload_file multipart (20 MiB, 3 parts), download_file, sha256 compared")
def multipart_upload(out):
    s3.upload_file(BIG, bucket, "big/big.bin", Config=TRANSFER)
    etag = s3.head_object(Bucket=bucket, Key="big/big.bin")["ETag"]
    assert etag.endswith('-3"'), f"ETag of a 3-part upload should end in -3: {etag}"
    say(out, f"ok: multipart ETag {etag}")
    # s3transfer asks for CRC32 without a type: AWS's default, a checksum of the part checksums.
    head = s3.head_object(Bucket=bucket, Key="big/big.bin", ChecksumMode="ENABLED")
    assert (head.get("ChecksumCRC32") or "").endswith("-3"), f"composite CRC32 of 3 parts: {head.get('ChecksumCRC32')}"
    expect_equal(out, head.get("ChecksumType"), "COMPOSITE", "checksum type")
    target = os.path.join(WORK, "big.bin")
    s3.download_file(bucket, "big/big.bin", target, Config=TRANSFER)
    same_content(out, BIG, target)
    with open(target, "wb") as file:
        s3.download_fileobj(bucket, "big/big.bin", file)
    same_content(out, BIG, target)


@step("get_object Range across a part boundary")
def ranged(out):
    got = s3.get_object(Bucket=bucket, Key="big/big.bin", Range="bytes=8388600-8388799")
    with open(BIG, "rb") as file:
        file.seek(8388600)
        expected = file.read(200)
    expect_equal(out, got["Body"].read(), expected, "range body")
    expect_equal(out, got["ContentRange"], "bytes 8388600-8388799/20971520", "Content-Range")
    expect_equal(out, got["ResponseMetadata"]["HTTPStatusCode"], 206, "status")


@step("list_objects_v2 and list_objects: paginators, delimiter, prefix")
def listings(out):
    keys = [f"list/{name}" for name in ("a.txt", "b.txt", "c.txt", "sub/d.txt", "sub/e.txt")]
    for key in keys:
        s3.put_object(Bucket=bucket, Key=key, Body=key.encode())
    listed = [entry["Key"] for page in s3.get_paginator("list_objects_v2").paginate(
        Bucket=bucket, Prefix="list/", PaginationConfig={"PageSize": 2}) for entry in page.get("Contents", [])]
    expect_equal(out, listed, sorted(keys), "keys over pages of 2 (ListObjectsV2)")
    listed = [entry["Key"] for page in s3.get_paginator("list_objects").paginate(
        Bucket=bucket, Prefix="list/", PaginationConfig={"PageSize": 2}) for entry in page.get("Contents", [])]
    expect_equal(out, listed, sorted(keys), "keys over pages of 2 (ListObjects)")
    page = s3.list_objects_v2(Bucket=bucket, Prefix="list/", Delimiter="/")
    expect_equal(out, [entry["Key"] for entry in page["Contents"]], sorted(keys)[:3], "keys beside the delimiter")
    expect_equal(out, [entry["Prefix"] for entry in page["CommonPrefixes"]], ["list/sub/"], "common prefixes")
    page = s3.list_objects_v2(Bucket=bucket, Prefix="list/", StartAfter="list/c.txt", MaxKeys=1)
    expect_equal(out, [entry["Key"] for entry in page["Contents"]], ["list/sub/d.txt"], "StartAfter, MaxKeys 1")
    expect_equal(out, page["IsTruncated"], True, "IsTruncated")


@step("copy_object REPLACE, managed multipart copy (UploadPartCopy) between buckets")
def copies(out):
    s3.copy_object(Bucket=other, Key="small-copy.txt", CopySource={"Bucket": bucket, "Key": "small.txt"},
                   MetadataDirective="REPLACE", Metadata={"copied": "yes"}, ContentType="text/x-copied")
    head = s3.head_object(Bucket=other, Key="small-copy.txt")
    expect_equal(out, head["Metadata"], {"copied": "yes"}, "replaced metadata")
    expect_equal(out, head["ContentType"], "text/x-copied", "replaced content type")
    expect_equal(out, s3.get_object(Bucket=other, Key="small-copy.txt")["Body"].read(),
                 b"small object from boto3\n", "copied body")
    s3.copy({"Bucket": bucket, "Key": "big/big.bin"}, other, "copied/big.bin", Config=TRANSFER)
    etag = s3.head_object(Bucket=other, Key="copied/big.bin")["ETag"]
    assert etag.endswith('-3"'), f"a 3-part copy should have an ETag ending in -3: {etag}"
    target = os.path.join(WORK, "copied.bin")
    s3.download_file(other, "copied/big.bin", target, Config=TRANSFER)
    same_content(out, BIG, target)


@step("keys that need encoding: spaces, unicode, +, =, &, ~")
def odd_keys(out):
    keys = ["dir with space/naïve+plus=&.txt", "tilde~and%percent", "über/ünïcödé.bin", "a//double/slash"]
    for key in keys:
        s3.put_object(Bucket=bucket, Key=key, Body=key.encode())
        expect_equal(out, s3.get_object(Bucket=bucket, Key=key)["Body"].read(), key.encode(), f"body of {key!r}")
    # boto3 asks for url-encoded keys and decodes them itself; asked for explicitly, they stay
    # encoded (form encoding, a space as +), for the caller to decode.
    listed = {entry["Key"] for entry in s3.list_objects_v2(Bucket=bucket)["Contents"]}
    missing = set(keys) - listed
    assert not missing, f"ListObjectsV2 lacks {missing}: {sorted(listed)}"
    listed = {urllib.parse.unquote_plus(entry["Key"])
              for entry in s3.list_objects_v2(Bucket=bucket, EncodingType="url")["Contents"]}
    missing = set(keys) - listed
    assert not missing, f"ListObjectsV2 with EncodingType=url lacks {missing}: {sorted(listed)}"
    listed = {entry["Key"] for entry in s3.list_objects(Bucket=bucket)["Contents"]}
    missing = set(keys) - listed
    assert not missing, f"ListObjects lacks {missing}: {sorted(listed)}"
    say(out, "ok: every key listed by name")
    s3.copy_object(Bucket=bucket, Key="copy of naïve", CopySource={"Bucket": bucket, "Key": keys[0]})
    expect_equal(out, s3.get_object(Bucket=bucket, Key="copy of naïve")["Body"].read(), keys[0].encode(),
                 "copy of an encoded key")


@step("create_multipart_upload, upload_part, list_parts, list_multipart_uploads, complete, abort")
def low_level_multipart(out):
    upload = s3.create_multipart_upload(Bucket=bucket, Key="low/level.bin")["UploadId"]
    uploads = [entry["UploadId"] for entry in s3.list_multipart_uploads(Bucket=bucket).get("Uploads", [])]
    assert upload in uploads, f"{upload} not in {uploads}"
    parts = []
    with open(BIG, "rb") as file:
        for number, size in ((1, 5 * MIB), (2, 15 * MIB)):
            answer = s3.upload_part(Bucket=bucket, Key="low/level.bin", UploadId=upload, PartNumber=number,
                                    Body=file.read(size))
            parts.append({"PartNumber": number, "ETag": answer["ETag"]})
    listed = s3.list_parts(Bucket=bucket, Key="low/level.bin", UploadId=upload)["Parts"]
    expect_equal(out, [(part["PartNumber"], part["Size"]) for part in listed], [(1, 5 * MIB), (2, 15 * MIB)],
                 "listed parts")
    s3.complete_multipart_upload(Bucket=bucket, Key="low/level.bin", UploadId=upload,
                                 MultipartUpload={"Parts": parts})
    target = os.path.join(WORK, "level.bin")
    s3.download_file(bucket, "low/level.bin", target)
    same_content(out, BIG, target)
    aborted = s3.create_multipart_upload(Bucket=bucket, Key="low/aborted.bin")["UploadId"]
    s3.abort_multipart_upload(Bucket=bucket, Key="low/aborted.bin", UploadId=aborted)
    expect_equal(out, error_code(s3.list_parts, Bucket=bucket, Key="low/aborted.bin", UploadId=aborted),
                 "NoSuchUpload", "listing the parts of an aborted upload")


@step("multipart upload with a full-object CRC32 (ChecksumType FULL_OBJECT), checksum read back")
def full_object_checksum(out):
    # AWS: CRC32, CRC32C and CRC64NVME multipart uploads may carry one checksum of the whole object
    # (ChecksumType FULL_OBJECT) instead of the default checksum of the part checksums (COMPOSITE).
    with open(BIG, "rb") as file:
        data = file.read()
    created = s3.create_multipart_upload(Bucket=bucket, Key="full/crc32.bin", ChecksumAlgorithm="CRC32",
                                         ChecksumType="FULL_OBJECT")
    say(out, f"create: ChecksumAlgorithm={created.get('ChecksumAlgorithm')} ChecksumType={created.get('ChecksumType')}")
    upload = created["UploadId"]
    parts = []
    for number, (start, end) in enumerate(((0, 8 * MIB), (8 * MIB, 16 * MIB), (16 * MIB, len(data))), start=1):
        answer = s3.upload_part(Bucket=bucket, Key="full/crc32.bin", UploadId=upload, PartNumber=number,
                                Body=data[start:end], ChecksumAlgorithm="CRC32")
        parts.append({"PartNumber": number, "ETag": answer["ETag"], "ChecksumCRC32": answer["ChecksumCRC32"]})
    whole = base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()
    try:
        completed = s3.complete_multipart_upload(Bucket=bucket, Key="full/crc32.bin", UploadId=upload,
                                                 MultipartUpload={"Parts": parts}, ChecksumCRC32=whole,
                                                 ChecksumType="FULL_OBJECT")
    except ClientError:
        s3.abort_multipart_upload(Bucket=bucket, Key="full/crc32.bin", UploadId=upload)
        raise
    expect_equal(out, completed.get("ChecksumCRC32"), whole, "CRC32 answered by CompleteMultipartUpload")
    head = s3.head_object(Bucket=bucket, Key="full/crc32.bin", ChecksumMode="ENABLED")
    expect_equal(out, (head.get("ChecksumCRC32"), head.get("ChecksumType")), (whole, "FULL_OBJECT"), "checksum on HEAD")
    got = s3.get_object(Bucket=bucket, Key="full/crc32.bin", ChecksumMode="ENABLED")
    expect_equal(out, hashlib.sha256(got["Body"].read()).hexdigest(), sha256_file(BIG), "sha256 of the object")


# SSE-C and SSE-S3 (the server runs with a master key, and takes SSE-C over plain HTTP for this suite).
SSE_C_KEY = os.urandom(32)
SSE_C = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": SSE_C_KEY}
SSE_C_SOURCE = {"CopySourceSSECustomerAlgorithm": "AES256", "CopySourceSSECustomerKey": SSE_C_KEY}


@step("SSE-C: put_object, get_object, head_object with the key; without it refused; upload_file / download_file (3 parts)")
def sse_c(out):
    body = b"sealed with a customer key\n"
    put = s3.put_object(Bucket=bucket, Key="sse-c/small.txt", Body=body, **SSE_C)
    expect_equal(out, put.get("SSECustomerAlgorithm"), "AES256", "algorithm echoed by PUT")
    got = s3.get_object(Bucket=bucket, Key="sse-c/small.txt", **SSE_C)
    expect_equal(out, got["Body"].read(), body, "body")
    expect_equal(out, got.get("SSECustomerKeyMD5"), put.get("SSECustomerKeyMD5"), "key MD5 echoed by GET")
    expect_equal(out, s3.head_object(Bucket=bucket, Key="sse-c/small.txt", **SSE_C)["ContentLength"], len(body),
                 "content length")
    expect_equal(out, error_code(s3.get_object, Bucket=bucket, Key="sse-c/small.txt"), "InvalidRequest",
                 "GET without the key")
    other_key = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": os.urandom(32)}
    expect_equal(out, error_code(s3.get_object, Bucket=bucket, Key="sse-c/small.txt", **other_key), "AccessDenied",
                 "GET with another key")
    s3.upload_file(BIG, bucket, "sse-c/big.bin", Config=TRANSFER, ExtraArgs=SSE_C)
    target = os.path.join(WORK, "sse-c-big.bin")
    s3.download_file(bucket, "sse-c/big.bin", target, Config=TRANSFER, ExtraArgs=SSE_C)
    same_content(out, BIG, target)
    ranged = s3.get_object(Bucket=bucket, Key="sse-c/big.bin", Range="bytes=8388600-8388799", **SSE_C)
    with open(BIG, "rb") as file:
        file.seek(8388600)
        expect_equal(out, ranged["Body"].read(), file.read(200), "range across a part boundary")


@step("SSE-S3: put_object and upload_file (3 parts) with AES256, read back without a key; copies SSE-C <-> SSE-S3")
def sse_s3(out):
    body = b"sealed with a managed key\n"
    put = s3.put_object(Bucket=bucket, Key="sse-s3/small.txt", Body=body, ServerSideEncryption="AES256")
    expect_equal(out, put.get("ServerSideEncryption"), "AES256", "PUT answer")
    got = s3.get_object(Bucket=bucket, Key="sse-s3/small.txt")
    expect_equal(out, got["Body"].read(), body, "body")
    expect_equal(out, got.get("ServerSideEncryption"), "AES256", "GET answer")
    s3.upload_file(BIG, bucket, "sse-s3/big.bin", Config=TRANSFER, ExtraArgs={"ServerSideEncryption": "AES256"})
    expect_equal(out, s3.head_object(Bucket=bucket, Key="sse-s3/big.bin").get("ServerSideEncryption"), "AES256",
                 "HEAD of the multipart upload")
    target = os.path.join(WORK, "sse-s3-big.bin")
    s3.download_file(bucket, "sse-s3/big.bin", target, Config=TRANSFER)
    same_content(out, BIG, target)
    # SSE-C -> SSE-S3 (managed multipart copy, UploadPartCopy) and SSE-S3 -> SSE-C
    s3.copy({"Bucket": bucket, "Key": "sse-c/big.bin"}, other, "sse-copies/to-s3.bin", Config=TRANSFER,
            ExtraArgs={**SSE_C_SOURCE, "ServerSideEncryption": "AES256"})
    s3.download_file(other, "sse-copies/to-s3.bin", target, Config=TRANSFER)
    same_content(out, BIG, target)
    s3.copy_object(Bucket=other, Key="sse-copies/to-c.txt", CopySource={"Bucket": bucket, "Key": "sse-s3/small.txt"},
                   **SSE_C)
    expect_equal(out, s3.get_object(Bucket=other, Key="sse-copies/to-c.txt", **SSE_C)["Body"].read(), body,
                 "SSE-S3 copied to SSE-C")


@step("generate_presigned_url: GET (encoded key, response override) and PUT with urllib, tampered and expired refused")
def presigned(out):
    url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "big/big.bin"}, ExpiresIn=300)
    say(out, url)
    assert "X-Amz-Algorithm=AWS4-HMAC-SHA256" in url, url
    status, body = http("GET", url)
    expect_equal(out, status, 200, "status of the presigned GET")
    expect_equal(out, hashlib.sha256(body).hexdigest(), sha256_file(BIG), "sha256 of the presigned GET")
    url = s3.generate_presigned_url("put_object", Params={"Bucket": bucket, "Key": "presigned/put.txt"},
                                    ExpiresIn=300)
    status, _ = http("PUT", url, b"uploaded through a presigned URL")
    expect_equal(out, status, 200, "status of the presigned PUT")
    expect_equal(out, s3.get_object(Bucket=bucket, Key="presigned/put.txt")["Body"].read(),
                 b"uploaded through a presigned URL", "body uploaded through the presigned PUT")
    encoded = "presigned/naïve space+plus=&~.txt"
    s3.put_object(Bucket=bucket, Key=encoded, Body=b"encoded key")
    url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": encoded}, ExpiresIn=300)
    status, body = http("GET", url)
    expect_equal(out, (status, body), (200, b"encoded key"), "presigned GET of a key that needs encoding")
    url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "small.txt",
                                                          "ResponseContentType": "text/x-presigned"}, ExpiresIn=300)
    request = urllib.request.Request(url, method="GET")
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=120) as response:
        expect_equal(out, response.headers["Content-Type"], "text/x-presigned", "response-content-type override")
    url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "small.txt"}, ExpiresIn=300)
    head, signature = url.split("X-Amz-Signature=")
    tampered = head + "X-Amz-Signature=" + ("1" if signature[0] == "0" else "0") + signature[1:]
    status, body = http("GET", tampered)
    expect_equal(out, status, 403, "status of a tampered presigned GET")
    assert b"<Code>SignatureDoesNotMatch</Code>" in body, body
    url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "small.txt"}, ExpiresIn=1)
    time.sleep(2)
    status, body = http("GET", url)
    expect_equal(out, status, 403, "status of an expired presigned GET")
    assert b"<Code>AccessDenied</Code>" in body, body


@step("delete_object, delete_objects, delete_bucket")
def deletes(out):
    s3.delete_object(Bucket=bucket, Key="small.txt")
    expect_equal(out, error_code(s3.head_object, Bucket=bucket, Key="small.txt"), "404", "HEAD after delete")
    s3.delete_object(Bucket=bucket, Key="never/existed")  # deleting a missing key succeeds, as in S3
    expect_equal(out, error_code(s3.delete_bucket, Bucket=bucket), "BucketNotEmpty", "deleting a full bucket")
    for name in (bucket, other):
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=name, PaginationConfig={"PageSize": 3}):
            keys = [{"Key": entry["Key"]} for entry in page.get("Contents", [])]
            if keys:
                answer = s3.delete_objects(Bucket=name, Delete={"Objects": keys})
                assert not answer.get("Errors"), answer["Errors"]
                expect_equal(out, len(answer["Deleted"]), len(keys), "keys deleted by delete_objects")
        expect_equal(out, s3.list_objects_v2(Bucket=name)["KeyCount"], 0, f"keys left in {name}")
        s3.delete_bucket(Bucket=name)
    expect_equal(out, error_code(s3.head_bucket, Bucket=bucket), "404", "HEAD of the deleted bucket")


@step("versioning: put_bucket_versioning Enabled")
def enable_versioning(out):
    global versioning_unsupported
    s3.create_bucket(Bucket=versioned)
    try:
        s3.put_bucket_versioning(Bucket=versioned, VersioningConfiguration={"Status": "Enabled"})
    except ClientError as error:
        if error.response["Error"]["Code"] == "NotImplemented":
            versioning_unsupported = "server answered NotImplemented for PutBucketVersioning"
            print(f"NOTICE: {versioning_unsupported}: versioned operations skipped", flush=True)
            raise Skip(f"{versioning_unsupported}: versioned operations skipped") from error
        raise
    expect_equal(out, s3.get_bucket_versioning(Bucket=versioned).get("Status"), "Enabled", "versioning status")


versions = {}


@step("versioning: version ids, list_object_versions, get/head by VersionId, multipart and copy", versioned=True)
def version_ids(out):
    first = s3.put_object(Bucket=versioned, Key="doc.txt", Body=b"first")["VersionId"]
    second = s3.put_object(Bucket=versioned, Key="doc.txt", Body=b"second")["VersionId"]
    assert first and second and first != second and "null" not in (first, second), (first, second)
    versions.update(first=first, second=second)
    listed = s3.list_object_versions(Bucket=versioned, Prefix="doc.txt")["Versions"]
    expect_equal(out, [(entry["VersionId"], entry["IsLatest"]) for entry in listed],
                 [(second, True), (first, False)], "versions, newest first")
    expect_equal(out, s3.get_object(Bucket=versioned, Key="doc.txt", VersionId=first)["Body"].read(), b"first",
                 "GET of the first version")
    expect_equal(out, s3.head_object(Bucket=versioned, Key="doc.txt", VersionId=first)["ContentLength"], 5,
                 "HEAD of the first version")
    expect_equal(out, s3.get_object(Bucket=versioned, Key="doc.txt")["VersionId"], second, "latest version id")
    s3.upload_file(BIG, versioned, "big.bin", Config=TRANSFER)
    assert s3.head_object(Bucket=versioned, Key="big.bin").get("VersionId"), "multipart upload has no version id"
    copy = s3.copy_object(Bucket=versioned, Key="copy.txt",
                          CopySource={"Bucket": versioned, "Key": "doc.txt", "VersionId": first})
    assert copy.get("VersionId"), f"copy answered no version id: {copy}"
    expect_equal(out, copy.get("CopySourceVersionId"), first, "copy source version id")
    expect_equal(out, s3.get_object(Bucket=versioned, Key="copy.txt")["Body"].read(), b"first",
                 "copy of an older version")


@step("versioning: delete marker, GET by version behind it, removing it, deleting a version", versioned=True)
def delete_markers(out):
    first, second = versions["first"], versions["second"]
    deleted = s3.delete_object(Bucket=versioned, Key="doc.txt")
    expect_equal(out, deleted.get("DeleteMarker"), True, "DeleteMarker")
    marker = deleted["VersionId"]
    expect_equal(out, error_code(s3.get_object, Bucket=versioned, Key="doc.txt"), "NoSuchKey", "GET behind a marker")
    listing = s3.list_object_versions(Bucket=versioned, Prefix="doc.txt")
    expect_equal(out, [(entry["VersionId"], entry["IsLatest"]) for entry in listing["DeleteMarkers"]],
                 [(marker, True)], "delete markers")
    expect_equal(out, len(listing["Versions"]), 2, "versions kept behind the marker")
    expect_equal(out, s3.get_object(Bucket=versioned, Key="doc.txt", VersionId=first)["Body"].read(), b"first",
                 "GET of a version behind the marker")
    keys = [entry["Key"] for entry in s3.list_objects_v2(Bucket=versioned).get("Contents", [])]
    assert "doc.txt" not in keys, f"doc.txt listed behind its delete marker: {keys}"
    s3.delete_object(Bucket=versioned, Key="doc.txt", VersionId=marker)
    expect_equal(out, s3.get_object(Bucket=versioned, Key="doc.txt")["Body"].read(), b"second",
                 "GET after removing the marker")
    s3.delete_object(Bucket=versioned, Key="doc.txt", VersionId=first)
    expect_equal(out, [entry["VersionId"] for entry in
                       s3.list_object_versions(Bucket=versioned, Prefix="doc.txt")["Versions"]],
                 [second], "versions after deleting the first")


@step("versioning: Suspended, null version", versioned=True)
def suspend(out):
    s3.put_bucket_versioning(Bucket=versioned, VersioningConfiguration={"Status": "Suspended"})
    expect_equal(out, s3.get_bucket_versioning(Bucket=versioned).get("Status"), "Suspended", "versioning status")
    put = s3.put_object(Bucket=versioned, Key="doc.txt", Body=b"third")
    # AWS documents the null version id, not whether PutObject echoes it.
    assert put.get("VersionId") in (None, "null"), f"a put while suspended answered version id {put['VersionId']}"
    listed = s3.list_object_versions(Bucket=versioned, Prefix="doc.txt")["Versions"]
    expect_equal(out, [entry["VersionId"] for entry in listed if entry["IsLatest"]], ["null"], "latest version id")
    expect_equal(out, len(listed), 2, "versions: the null one and the one kept from before")
    expect_equal(out, s3.get_object(Bucket=versioned, Key="doc.txt", VersionId="null")["Body"].read(), b"third",
                 "GET of the null version")
    s3.put_object(Bucket=versioned, Key="doc.txt", Body=b"fourth")
    expect_equal(out, len(s3.list_object_versions(Bucket=versioned, Prefix="doc.txt")["Versions"]), 2,
                 "versions after overwriting the null version")
    expect_equal(out, s3.get_object(Bucket=versioned, Key="doc.txt", VersionId="null")["Body"].read(), b"fourth",
                 "GET of the overwritten null version")


@step("versioning: delete every version, delete_bucket")
def remove_versioned(out):
    if not versioning_unsupported:
        for page in s3.get_paginator("list_object_versions").paginate(Bucket=versioned):
            entries = page.get("Versions", []) + page.get("DeleteMarkers", [])
            objects = [{"Key": entry["Key"], "VersionId": entry["VersionId"]} for entry in entries]
            if objects:
                answer = s3.delete_objects(Bucket=versioned, Delete={"Objects": objects})
                assert not answer.get("Errors"), answer["Errors"]
    else:
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=versioned):
            for entry in page.get("Contents", []):
                s3.delete_object(Bucket=versioned, Key=entry["Key"])
    s3.delete_bucket(Bucket=versioned)
    say(out, json.dumps({"deleted": versioned}))


# ---- a client with boto3's defaults: no Config ----

# As a newcomer makes it: no signature version, addressing style or checksum setting. botocore then
# signs requests with SigV4, addresses buckets path-style on an IP endpoint, and presigns URLs and
# POST forms with SigV2 (its default for S3 presigning); the steps print what it produced. Retries
# are turned off through the environment, as the aws cli's config file does, not through a Config,
# so that a server error is still never hidden by a second attempt.
os.environ["AWS_MAX_ATTEMPTS"] = "1"
default_s3 = boto3.client(
    "s3",
    endpoint_url=ENDPOINT,
    aws_access_key_id=os.environ["INTEROP_ACCESS_KEY"],
    aws_secret_access_key=os.environ["INTEROP_SECRET_KEY"],
    region_name="us-east-1",
)
defaults = unique("defaults")
DEFAULT_KEY = "presigned/naïve space+plus=&~.txt"


def plain_http(method, url, body=None, headers=None):
    """A request with only the headers given, (status, headers, body bytes). urllib would add a form
    Content-Type to any body, and a SigV2 presigned PUT signs the Content-Type (empty unless given)."""
    parts = urllib.parse.urlsplit(url)
    connection = HTTPConnection(parts.hostname, parts.port, timeout=120)
    try:
        connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body=body,
                           headers=headers or {})
        response = connection.getresponse()
        answer = response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()
    # In the step's HTTP log beside botocore's own requests.
    http_log.lines.append(f"plain {method} {url} {headers or {}} ({len(body or b'')} bytes) -> {answer[0]} {answer[1]}"
                          f" {answer[2][:600] if answer[0] >= 300 else b''}")
    return answer


def expect_answer(out, answer, status, what, code=None):
    """The status (and S3 error code) of a plain HTTP answer; its body is shown when it differs."""
    actual, _, body = answer
    if actual != status or (code and f"<Code>{code}</Code>".encode() not in body):
        raise AssertionError(f"{what}: expected {status} {code or ''} but was {actual}: {body[:600]!r}")
    say(out, f"ok: {what}: {actual} {code or ''}")


def signature_version(url):
    """("SigV2" | "SigV4" | "unknown", the names of the query parameters) of a presigned URL."""
    names = [name for name, _ in urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True)]
    if "X-Amz-Signature" in names:
        return "SigV4", names
    return ("SigV2" if "Signature" in names else "unknown"), names


def tamper(url):
    """The presigned URL with one character of its signature changed: a hex digit of a SigV4
    X-Amz-Signature, or the first character of a SigV2 Signature once URL-decoded (base64)."""
    head, query = url.split("?", 1)
    params = query.split("&")
    for index, param in enumerate(params):
        name, _, value = param.partition("=")
        if name == "X-Amz-Signature":
            params[index] = f"{name}={'1' if value[0] == '0' else '0'}{value[1:]}"
            break
        if name == "Signature":
            decoded = urllib.parse.unquote(value)
            params[index] = f"{name}={urllib.parse.quote(('B' if decoded[0] == 'A' else 'A') + decoded[1:], safe='')}"
            break
    else:
        raise AssertionError(f"no signature in {url}")
    return f"{head}?{'&'.join(params)}"


@step("default client (no Config): create_bucket, put_object, get_object, upload_file, download_file, list_objects_v2")
def default_objects(out):
    say(out, f"retries: {default_s3.meta.config.retries}, signature version: {default_s3.meta.config.signature_version},"
             f" s3 settings: {default_s3.meta.config.s3}")
    default_s3.create_bucket(Bucket=defaults)
    body = b"put by boto3 with its defaults\n"
    default_s3.put_object(Bucket=defaults, Key="plain.txt", Body=body)
    sent = [line for line in http_log.lines if f"/{defaults}/plain.txt" in line or f"{defaults}." in line]
    say(out, f"put request: {sent[:1]}")
    expect_equal(out, default_s3.get_object(Bucket=defaults, Key="plain.txt")["Body"].read(), body, "body")
    # The default TransferConfig: 8 MiB threshold and parts, so 20 MiB goes up in 3 parts.
    default_s3.upload_file(BIG, defaults, "big.bin")
    target = os.path.join(WORK, "default-big.bin")
    default_s3.download_file(defaults, "big.bin", target)
    same_content(out, BIG, target)
    default_s3.put_object(Bucket=defaults, Key=DEFAULT_KEY, Body=b"encoded key")
    listed = [entry["Key"] for entry in default_s3.list_objects_v2(Bucket=defaults)["Contents"]]
    expect_equal(out, listed, ["big.bin", "plain.txt", DEFAULT_KEY], "keys listed")


@step("default client: generate_presigned_url GET (an encoded key, response-content-type) fetched with urllib")
def default_presigned_get(out):
    url = default_s3.generate_presigned_url("get_object", Params={"Bucket": defaults, "Key": "big.bin"}, ExpiresIn=300)
    version, names = signature_version(url)
    say(out, url)
    print(f"NOTICE: boto3's default presigned URL: {version}, query parameters {', '.join(names)}", flush=True)
    answer = plain_http("GET", url)
    expect_answer(out, answer, 200, "presigned GET")
    expect_equal(out, hashlib.sha256(answer[2]).hexdigest(), sha256_file(BIG), "sha256 of the presigned GET")
    url = default_s3.generate_presigned_url("get_object", Params={"Bucket": defaults, "Key": DEFAULT_KEY}, ExpiresIn=300)
    say(out, url)
    answer = plain_http("GET", url)
    expect_answer(out, answer, 200, "presigned GET of a key that needs encoding")
    expect_equal(out, answer[2], b"encoded key", "body")
    # A sub-resource in the query: SigV2 signs response-content-type as part of the resource.
    url = default_s3.generate_presigned_url("get_object", Params={"Bucket": defaults, "Key": "plain.txt",
                                                                  "ResponseContentType": "text/x-presigned"},
                                            ExpiresIn=300)
    say(out, url)
    answer = plain_http("GET", url)
    expect_answer(out, answer, 200, "presigned GET with response-content-type")
    expect_equal(out, answer[1].get("content-type"), "text/x-presigned", "response-content-type override")


@step("default client: generate_presigned_url PUT, without and with a signed Content-Type")
def default_presigned_put(out):
    url = default_s3.generate_presigned_url("put_object", Params={"Bucket": defaults, "Key": "presigned/put.txt"},
                                            ExpiresIn=300)
    say(out, f"{signature_version(url)[0]}: {url}")
    expect_answer(out, plain_http("PUT", url, b"uploaded through a presigned URL"), 200, "presigned PUT")
    expect_equal(out, default_s3.get_object(Bucket=defaults, Key="presigned/put.txt")["Body"].read(),
                 b"uploaded through a presigned URL", "body uploaded through the presigned PUT")
    url = default_s3.generate_presigned_url("put_object", Params={"Bucket": defaults, "Key": "presigned/typed.txt",
                                                                  "ContentType": "text/plain"}, ExpiresIn=300)
    say(out, url)
    expect_answer(out, plain_http("PUT", url, b"typed", {"Content-Type": "text/plain"}), 200,
                  "presigned PUT with the Content-Type it was signed with")
    expect_equal(out, default_s3.head_object(Bucket=defaults, Key="presigned/typed.txt")["ContentType"], "text/plain",
                 "content type")


@step("default client: generate_presigned_post, multipart/form-data POST of a file, read back")
def default_presigned_post(out):
    post = default_s3.generate_presigned_post(defaults, "post/${filename}", Fields={"Content-Type": "text/plain"},
                                              Conditions=[{"Content-Type": "text/plain"}], ExpiresIn=300)
    names = list(post["fields"])
    say(out, f"url {post['url']}, fields {post['fields']}")
    version = "SigV4" if "x-amz-signature" in names else "SigV2" if "signature" in names else "unknown"
    print(f"NOTICE: boto3's default presigned POST: {version}, form fields {', '.join(names)}", flush=True)
    data = b"uploaded by a browser form\n"
    # The file comes last: S3 ignores the fields after it.
    body, content_type = urllib3.encode_multipart_formdata(
        list(post["fields"].items()) + [("file", ("form.txt", data, "text/plain"))])
    expect_answer(out, plain_http("POST", post["url"], body, {"Content-Type": content_type}), 204, "POST upload")
    got = default_s3.get_object(Bucket=defaults, Key="post/form.txt")
    expect_equal(out, got["Body"].read(), data, "body uploaded by the POST")
    expect_equal(out, got["ContentType"], "text/plain", "content type from the form")


@step("default client: tampered presigned URL refused (403 SignatureDoesNotMatch)")
def default_tampered(out):
    url = tamper(default_s3.generate_presigned_url("get_object", Params={"Bucket": defaults, "Key": "plain.txt"},
                                                   ExpiresIn=300))
    say(out, url)
    expect_answer(out, plain_http("GET", url), 403, "tampered presigned GET", "SignatureDoesNotMatch")


@step("default client: expired presigned URL refused (403 AccessDenied)")
def default_expired(out):
    url = default_s3.generate_presigned_url("get_object", Params={"Bucket": defaults, "Key": "plain.txt"}, ExpiresIn=1)
    say(out, url)
    time.sleep(2)
    expect_answer(out, plain_http("GET", url), 403, "expired presigned GET", "AccessDenied")


@step("default client: delete_objects, delete_bucket")
def default_cleanup(out):
    keys = [{"Key": entry["Key"]} for entry in default_s3.list_objects_v2(Bucket=defaults).get("Contents", [])]
    if keys:
        answer = default_s3.delete_objects(Bucket=defaults, Delete={"Objects": keys})
        assert not answer.get("Errors"), answer["Errors"]
    default_s3.delete_bucket(Bucket=defaults)
    expect_equal(out, error_code(default_s3.head_bucket, Bucket=defaults), "404", "HEAD of the deleted bucket")

"""Signs S3 requests with Signature Version 2 using botocore's own signers, for tests that must not trust
Hangar's arithmetic (SigV2IT, SignatureV2SwitchIT). Reads one JSON list of jobs on stdin, writes one JSON
list of results on stdout, in the same order. Runs with the interop venv: interop/.venv/bin/python.

Jobs (every one has "access_key" and "secret_key"):
  {"kind": "header", "method": "PUT", "url": "http://127.0.0.1:9000/bucket/key?acl",
   "headers": {"Content-Type": "text/plain", ...}, "skew_seconds": 0, "date_line": null}
      -> {"headers": {... every header botocore sent, "Authorization" and "Date" among them}}
     botocore's HmacV1Auth signs; "skew_seconds" moves its clock; "date_line" (a string) replaces the Date
     it would sign, which is how a request that sends x-amz-date signs (S3: the Date line is then empty).
  {"kind": "query", "method": "GET", "url": "...", "headers": {...}, "expires_in": 60}
      -> {"url": "...?AWSAccessKeyId=...&Expires=...&Signature=..."}
     botocore's HmacV1QueryAuth; a negative "expires_in" makes a URL that expired already.
  {"kind": "post", "endpoint": "http://127.0.0.1:9000", "bucket": "b", "key": "k",
   "fields": {...}, "conditions": [...], "expires_in": 60}
      -> {"url": "...", "fields": {"key": ..., "AWSAccessKeyId": ..., "policy": ..., "signature": ...}}
     boto3's generate_presigned_post with signature_version "s3" (Version 2).
"""
import json
import sys
import time
from email.utils import formatdate

import boto3
from botocore.auth import HmacV1Auth, HmacV1QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials


class ClockedHmacV1Auth(HmacV1Auth):
    """botocore's header signer with its clock moved, or with the Date line it signs given outright."""

    def __init__(self, credentials, skew_seconds=0, date_line=None):
        super().__init__(credentials)
        self._skew_seconds = skew_seconds
        self._date_line = date_line

    def _get_date(self):
        if self._date_line is not None:
            return self._date_line
        return formatdate(time.time() + self._skew_seconds, usegmt=True)


def sign(job):
    credentials = Credentials(job["access_key"], job["secret_key"])
    kind = job["kind"]
    if kind == "header":
        request = AWSRequest(method=job["method"], url=job["url"], headers=dict(job.get("headers", {})))
        ClockedHmacV1Auth(credentials, job.get("skew_seconds", 0), job.get("date_line")).add_auth(request)
        return {"headers": {name: value for name, value in request.headers.items()}}
    if kind == "query":
        request = AWSRequest(method=job["method"], url=job["url"], headers=dict(job.get("headers", {})))
        HmacV1QueryAuth(credentials, expires=job.get("expires_in", 3600)).add_auth(request)
        return {"url": request.url}
    if kind == "post":
        client = boto3.client(
            "s3", endpoint_url=job["endpoint"], region_name="us-east-1",
            aws_access_key_id=job["access_key"], aws_secret_access_key=job["secret_key"],
            config=Config(signature_version="s3", s3={"addressing_style": "path"}))
        return client.generate_presigned_post(
            job["bucket"], job["key"], Fields=job.get("fields"), Conditions=job.get("conditions"),
            ExpiresIn=job.get("expires_in", 3600))
    raise ValueError("unknown job kind: " + kind)


def main():
    jobs = json.load(sys.stdin)
    json.dump([sign(job) for job in jobs], sys.stdout)


if __name__ == "__main__":
    main()

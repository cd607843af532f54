// The AWS SDK for JavaScript v3 against Hangar, as a newcomer configures it for a path-style
// endpoint: PutObject of Buffers and of a file stream (the SDK sends `Expect: 100-continue` for
// bodies of 2 MiB and more), a lib-storage multipart Upload, GetObject with the default checksum
// validation, a presigned GET fetched with fetch(), a tampered one refused, ListObjectsV2,
// DeleteObject(s) and the bucket's deletion. Run by run.sh, which exports the INTEROP_* variables
// (see lib.sh); the SDK comes from interop/js (setup.sh runs `npm ci` there).
//
// Every step logs the requests the SDK sends and the answers it gets; a failing step prints the
// last ones, and the raw bytes of an answer that Node's HTTP parser refused.

import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { subscribe } from "node:diagnostics_channel";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";

// The SDK lives in interop/js/node_modules, beside this script's package.json rather than above it,
// where an ESM import from here does not look, so it is loaded through a require() rooted there.
const require = createRequire(new URL("./js/package.json", import.meta.url));
const {
  S3Client, CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand,
  HeadBucketCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, AbortMultipartUploadCommand,
  PutObjectCommand, paginateListObjectsV2,
} = require("@aws-sdk/client-s3");
const { Upload } = require("@aws-sdk/lib-storage");
const { getSignedUrl } = require("@aws-sdk/s3-request-presigner");

const CLIENT = "js";
const ENDPOINT = process.env.INTEROP_ENDPOINT;
const WORK = path.join(process.env.INTEROP_WORK, CLIENT);
const FIXTURES = process.env.INTEROP_FIXTURES;
const RESULTS = process.env.INTEROP_RESULTS;
const DEBUG = process.env.INTEROP_DEBUG === "1";
const MIB = 1024 * 1024;

// The SDK warns once, on stderr, that its versions from 2027 on need node 22; the pinned one runs on 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

// The SDK's defaults but for what a path-style custom endpoint needs (endpoint, region, path style,
// credentials) and no retries, so that every server error shows: no request handler, agent,
// keep-alive or checksum setting of our own. With these defaults the SDK computes a CRC32 for every
// PutObject and UploadPart, validates the checksum of GetObject answers, and sends
// `Expect: 100-continue` (on a connection of its own, with `Connection: close`) for bodies of 2 MiB
// or more.
const s3 = new S3Client({
  endpoint: ENDPOINT,
  region: "us-east-1",
  forcePathStyle: true,
  credentials: { accessKeyId: process.env.INTEROP_ACCESS_KEY, secretAccessKey: process.env.INTEROP_SECRET_KEY },
  maxAttempts: 1,
});

// ---- the wire log: what each request sent and what came back ----

const exchanges = [];
const lastRequests = [];

function headerText(headers) {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join(" | ");
}

function bodyText(body) {
  if (body == null) return "no body";
  if (typeof body === "string" || body instanceof Uint8Array) return `${body.length} bytes`;
  return body.constructor?.name ?? typeof body;
}

// Innermost middleware: it sees the signed request as it goes out and the raw answer before the
// SDK parses it. An error answer's body is read here for the log and handed on as a new stream.
s3.middlewareStack.add(
  (next, context) => async (args) => {
    const request = args.request;
    const query = new URLSearchParams(request.query ?? {}).toString();
    lastRequests.push(request);
    exchanges.push(`> ${context.commandName}: ${request.method} ${request.path}${query ? `?${query}` : ""}`
      + ` [${headerText(request.headers)}] (${bodyText(request.body)})`);
    try {
      const result = await next(args);
      const response = result.response;
      let line = `< ${response.statusCode} [${headerText(response.headers)}]`;
      if (response.statusCode >= 300 && response.body && typeof response.body.pipe === "function") {
        const chunks = [];
        for await (const chunk of response.body) chunks.push(chunk);
        const body = Buffer.concat(chunks);
        line += ` ${body.toString("utf8").slice(0, 600)}`;
        response.body = Readable.from([body]);
      }
      exchanges.push(line);
      return result;
    } catch (error) {
      exchanges.push(`! ${describeError(error)}`);
      throw error;
    }
  },
  { step: "deserialize", name: "interopWireLog", priority: "low" },
);

// Interim answers (100 Continue) never reach the SDK's middleware, and Node 20 hands out its
// request objects only once their body is sent, after the interim answer: the log reads them off
// each socket instead, as they arrive (a listener that only looks, beside Node's own).
subscribe("net.client.socket", ({ socket }) => {
  socket.on("data", (chunk) => {
    if (chunk.length > 12 && chunk.toString("latin1", 0, 10) === "HTTP/1.1 1") {
      exchanges.push(`< interim ${JSON.stringify(chunk.toString("latin1", 0, Math.min(chunk.length, 400)).split("\r\n\r\n")[0])}`);
    }
  });
});

// An error with what the SDK or Node knows about it: the S3 code and status, or for a failure below
// HTTP (Node's parser refusing an answer, a reset connection) its code, reason and raw bytes.
function describeError(error) {
  const parts = [`${error.name}: ${error.message}`];
  if (error.$metadata?.httpStatusCode) {
    parts.push(`HTTP ${error.$metadata.httpStatusCode}, request id ${error.$metadata.requestId}`);
  }
  for (const field of ["code", "errno", "syscall", "reason", "bytesParsed"]) {
    if (error[field] !== undefined) parts.push(`${field}=${error[field]}`);
  }
  if (error.rawPacket) {
    parts.push(`raw answer bytes: ${JSON.stringify(error.rawPacket.toString("latin1").slice(0, 600))}`);
  }
  if (error.code === "HPE_CLOSED_CONNECTION") {
    parts.push("(Node reads nothing more on a connection after an answer, an interim one included, that says"
      + " Connection: close: see the interim answers in the HTTP exchanges)");
  }
  if (error.cause) parts.push(`cause: ${describeError(error.cause)}`);
  return parts.join("; ");
}

// ---- steps, reported like the other clients ----

class AssertionFailed extends Error {}

// A step that hangs (an answer that never comes) fails after this long, and the next step runs.
const STEP_TIMEOUT_MS = 60_000;

async function step(name, body) {
  exchanges.length = 0;
  lastRequests.length = 0;
  const output = [];
  const out = (message) => output.push(message);
  const started = performance.now();
  let status = "PASS";
  let timer;
  try {
    await Promise.race([body(out), new Promise((_, reject) => {
      timer = setTimeout(() => reject(new AssertionFailed(`no answer within ${STEP_TIMEOUT_MS / 1000}s`)),
        STEP_TIMEOUT_MS);
    })]);
  } catch (error) {
    status = "FAIL";
    if (error instanceof AssertionFailed) {
      out(`ASSERTION FAILED: ${error.message}`);
    } else {
      out(describeError(error));
      out(error.stack?.split("\n").slice(1, 6).join("\n") ?? "");
    }
  }
  clearTimeout(timer);
  const elapsed = ((performance.now() - started) / 1000).toFixed(1);
  const lines = [`${status}  ${CLIENT.padEnd(7)} ${name}  ${elapsed}s`];
  const shown = (text) => text.split("\n").map((line) => `      | ${line.slice(0, 1500)}`);
  if (status === "FAIL") {
    lines.push("      ---- output ----");
    lines.push(...output.slice(-40).flatMap(shown));
    lines.push("      ---- last HTTP exchanges ----");
    lines.push(...exchanges.slice(-12).flatMap(shown));
  } else if (DEBUG) {
    lines.push(...[...output, ...exchanges].flatMap(shown));
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  appendFileSync(RESULTS, `${status} ${CLIENT} ${name}\n`);
}

function expectEqual(out, actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new AssertionFailed(`${what}: expected ${e} but was ${a}`);
  out(`ok: ${what} = ${a}`);
}

function check(condition, message) {
  if (!condition) throw new AssertionFailed(message);
}

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

async function sha256OfStream(stream) {
  const digest = createHash("sha256");
  let size = 0;
  for await (const chunk of stream) {
    digest.update(chunk);
    size += chunk.length;
  }
  return { digest: digest.digest("hex"), size };
}

// The S3 error name a call fails with (an assertion error if it succeeds).
async function errorName(call) {
  try {
    await call();
  } catch (error) {
    return error.name;
  }
  throw new AssertionFailed("the call succeeded where it should have failed");
}

// GetObject of the key, its body's SHA-256 compared with the expected one.
async function readBack(out, bucket, key, expected, size) {
  const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const { digest, size: read } = await sha256OfStream(got.Body);
  expectEqual(out, read, size, `bytes of ${key} read back`);
  expectEqual(out, digest, expected, `sha256 of ${key}`);
}

// Whether request headers carry `Expect: 100-continue`.
function sentExpectContinue(headers) {
  return Object.entries(headers).some(([name, value]) => name.toLowerCase() === "expect"
    && String(value).toLowerCase() === "100-continue");
}

function requestSummary(request) {
  const wanted = ["expect", "content-length", "content-encoding", "x-amz-content-sha256", "x-amz-decoded-content-length",
    "x-amz-trailer", "x-amz-checksum-crc32", "x-amz-sdk-checksum-algorithm"];
  return wanted.flatMap((name) => Object.entries(request.headers)
    .filter(([header]) => header.toLowerCase() === name)
    .map(([header, value]) => `${header}: ${value}`)).join(", ");
}

// ---- the run ----

mkdirSync(WORK, { recursive: true });
const bucket = `interop-${CLIENT}-main-${Math.floor(Date.now() / 1000)}-${process.pid}`;
const BIG = path.join(FIXTURES, "big.bin");

await step("CreateBucket, HeadBucket", async (out) => {
  const created = await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  out(`created ${bucket}: ${created.Location}`);
  const head = await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  expectEqual(out, head.$metadata.httpStatusCode, 200, "HeadBucket status");
});

for (const mib of [1, 6, 25]) {
  const expect = mib >= 2 ? " (Expect: 100-continue)" : "";
  await step(`PutObject of a ${mib} MiB Buffer${expect}, GetObject, sha256 compared`, async (out) => {
    const data = randomBytes(mib * MIB);
    const key = `buffer/${mib}mib.bin`;
    const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data }));
    const sent = lastRequests.find((request) => request.method === "PUT");
    out(`put: ETag ${put.ETag}, CRC32 ${put.ChecksumCRC32}; request headers: ${requestSummary(sent)}`);
    expectEqual(out, sentExpectContinue(sent.headers), mib >= 2, "the SDK sent Expect: 100-continue");
    check(put.ChecksumCRC32, "the default CRC32 checksum was not echoed");
    await readBack(out, bucket, key, sha256(data), data.length);
  });
}

await step("PutObject from a file stream (6 MiB, ContentLength, Expect: 100-continue), GetObject, sha256 compared",
  async (out) => {
    const file = path.join(WORK, "stream.bin");
    const data = randomBytes(6 * MIB);
    writeFileSync(file, data);
    const key = "stream/6mib.bin";
    const put = await s3.send(new PutObjectCommand({
      Bucket: bucket, Key: key, Body: createReadStream(file), ContentLength: statSync(file).size,
    }));
    const sent = lastRequests.find((request) => request.method === "PUT");
    out(`put: ETag ${put.ETag}, CRC32 ${put.ChecksumCRC32}; request headers: ${requestSummary(sent)}`);
    expectEqual(out, sentExpectContinue(sent.headers), true, "the SDK sent Expect: 100-continue");
    await readBack(out, bucket, key, sha256(data), data.length);
  });

await step("lib-storage Upload (20 MiB, 4 parts of 5 MiB), GetObject, sha256 compared", async (out) => {
  const key = "upload/big.bin";
  // Upload's defaults: 5 MiB parts, 4 at a time; a failed upload is aborted.
  const upload = new Upload({ client: s3, params: { Bucket: bucket, Key: key, Body: createReadStream(BIG) } });
  const done = await upload.done();
  out(`upload: ETag ${done.ETag}, CRC32 ${done.ChecksumCRC32}`);
  const parts = lastRequests.filter((request) => request.query?.partNumber !== undefined);
  expectEqual(out, parts.length, 4, "UploadPart requests");
  out(`first UploadPart request headers: ${requestSummary(parts[0])}`);
  check(/-4"$/.test(done.ETag ?? ""), `ETag of a 4-part upload should end in -4: ${done.ETag}`);
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  expectEqual(out, head.ContentLength, statSync(BIG).size, "ContentLength");
  await readBack(out, bucket, key, sha256(readFileSync(BIG)), statSync(BIG).size);
});

// Presigned URLs of a small object, put without Expect: 100-continue, so that they do not depend on it.
const presignedKey = "presigned/naïve space+plus=&.txt";
const presignedBody = Buffer.from("presigned by the AWS SDK for JavaScript v3\n");

await step("getSignedUrl GetObject (an encoded key) fetched with fetch(), sha256 compared", async (out) => {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: presignedKey, Body: presignedBody }));
  const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: presignedKey }), { expiresIn: 300 });
  out(url);
  check(url.includes("X-Amz-Algorithm=AWS4-HMAC-SHA256"), `not a SigV4 presigned URL: ${url}`);
  const answer = await fetch(url);
  const body = Buffer.from(await answer.arrayBuffer());
  expectEqual(out, answer.status, 200, "status of the presigned GET");
  expectEqual(out, sha256(body), sha256(presignedBody), "sha256 of the presigned GET");
});

await step("getSignedUrl with a tampered signature refused (403 SignatureDoesNotMatch)", async (out) => {
  const url = new URL(await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: presignedKey }),
    { expiresIn: 300 }));
  const signature = url.searchParams.get("X-Amz-Signature");
  check(signature, `no X-Amz-Signature in ${url}`);
  url.searchParams.set("X-Amz-Signature", (signature[0] === "0" ? "1" : "0") + signature.slice(1));
  const answer = await fetch(url);
  const body = await answer.text();
  out(body);
  expectEqual(out, answer.status, 403, "status of a tampered presigned GET");
  check(body.includes("<Code>SignatureDoesNotMatch</Code>"), `not SignatureDoesNotMatch: ${body}`);
});

await step("ListObjectsV2: paginated by 2, delimiter, a key that needs encoding", async (out) => {
  // Keys of their own, so that what a failed step above left behind does not matter here.
  const keys = ["list/a.txt", "list/b.txt", "list/naïve space+plus=&~.txt", "list/sub/c.txt"];
  for (const key of keys) {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
  }
  const listed = [];
  for await (const page of paginateListObjectsV2({ client: s3, pageSize: 2 }, { Bucket: bucket, Prefix: "list/" })) {
    listed.push(...(page.Contents ?? []).map((entry) => entry.Key));
  }
  expectEqual(out, listed, keys, "keys over pages of 2");
  const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/", Delimiter: "/" }));
  expectEqual(out, (page.Contents ?? []).map((entry) => entry.Key), keys.slice(0, 3), "keys beside the delimiter");
  expectEqual(out, (page.CommonPrefixes ?? []).map((entry) => entry.Prefix), ["list/sub/"], "common prefixes");
});

await step("DeleteObject, DeleteObjects", async (out) => {
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: "list/a.txt" }));
  expectEqual(out, await errorName(() => s3.send(new HeadObjectCommand({ Bucket: bucket, Key: "list/a.txt" }))),
    "NotFound", "HeadObject after DeleteObject");
  // Whatever is left, also what a failed step above may have stored, in one DeleteObjects request.
  const keys = [];
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket })) {
    keys.push(...(page.Contents ?? []).map((entry) => entry.Key));
  }
  const answer = await s3.send(new DeleteObjectsCommand({
    Bucket: bucket, Delete: { Objects: [...keys, "never/existed"].map((key) => ({ Key: key })) },
  }));
  check(!answer.Errors?.length, `DeleteObjects errors: ${JSON.stringify(answer.Errors)}`);
  expectEqual(out, (answer.Deleted ?? []).length, keys.length + 1, "keys reported deleted by DeleteObjects");
  const left = [];
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket })) {
    left.push(...(page.Contents ?? []).map((entry) => entry.Key));
  }
  expectEqual(out, left, [], "keys left");
});

await step("DeleteBucket", async (out) => {
  // A multipart upload that a failed step left behind would keep the bucket; it is aborted, and said.
  const uploads = (await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? [];
  for (const upload of uploads) {
    out(`NOTICE: aborting an upload left behind: ${upload.Key} ${upload.UploadId}`);
    await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
  }
  await s3.send(new DeleteBucketCommand({ Bucket: bucket }));
  expectEqual(out, await errorName(() => s3.send(new HeadBucketCommand({ Bucket: bucket }))), "NotFound",
    "HeadBucket of the deleted bucket");
});

// A request still hanging after a timed-out step would keep Node running.
s3.destroy();
process.exit(0);

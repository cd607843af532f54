/**
 * AWS Signature Version 4, and Version 2 unless it is turned off, for S3 requests, as pure logic over plain
 * values (no HTTP server types).
 *
 * <p>Two steps, because the headers arrive before the body:
 * <ol>
 *   <li>{@link dev.hangar.s3api.auth.RequestAuthenticator#authenticate} ({@link dev.hangar.s3api.auth.SigV4Verifier}
 *       or {@link dev.hangar.s3api.auth.SigV2Verifier}) takes the request line and headers exactly as
 *       received ({@link dev.hangar.s3api.auth.SignedRequest}) and checks the {@code Authorization} header
 *       or the presigned query parameters. Its {@link dev.hangar.s3api.auth.Authentication} names the access
 *       key (or none: anonymous) and how the body is protected ({@link dev.hangar.s3api.auth.PayloadMode}).
 *       Failures are {@link dev.hangar.s3api.S3Exception}s with the code AWS answers.</li>
 *   <li>{@link dev.hangar.s3api.auth.PayloadDecoder#open} wraps the raw body into a
 *       {@link dev.hangar.s3api.auth.VerifiedBody}: the object bytes with any aws-chunked framing stripped,
 *       verified while they stream (chunk and trailer signatures, declared SHA-256, lengths, Content-MD5,
 *       additional checksums). Failures found mid-stream are
 *       {@link dev.hangar.s3api.auth.PayloadVerificationException}s, thrown from {@code read}.</li>
 * </ol>
 *
 * <p>Nothing is buffered beyond a chunk header line and the trailers, so a 5 GiB upload runs in a small
 * heap. The price is that bytes are handed out before the check that covers them has run; the caller
 * commits an object only after the body stream ended without an exception (see
 * {@link dev.hangar.s3api.auth.VerifiedBody}).
 */
@NullMarked
package dev.hangar.s3api.auth;

import org.jspecify.annotations.NullMarked;

/**
 * Browser-based uploads: POST Object with a SigV4-signed POST policy, as pure logic over the form's fields (no
 * HTTP types, no multipart parsing, no storage).
 *
 * <p>A handler that has read the form's fields up to the {@code file} part (fields after it are ignored, as S3
 * ignores them) goes through these steps, each throwing {@link dev.hangar.s3api.S3Exception} with the code and
 * message S3 answers:
 * <ol>
 *   <li>{@link dev.hangar.s3api.post.PostSignature#verify}: the {@code policy} field as received, signed with the
 *       key derived from {@code x-amz-credential}; returns the access key id.</li>
 *   <li>{@link dev.hangar.s3api.post.PostPolicy#parse}: the JSON document inside ({@code InvalidPolicyDocument}
 *       when it is not one).</li>
 *   <li>{@link dev.hangar.s3api.post.PostFields#resolveFilename}: {@code ${filename}} expanded in every field,
 *       since S3 matches conditions against expanded values; then set {@code bucket} to the request's bucket.</li>
 *   <li>{@link dev.hangar.s3api.post.PostPolicyCheck#verifyFields}: expiration, each condition, no uncovered
 *       field ({@code AccessDenied}, "Invalid according to Policy: ..."); and, once the file's length is known,
 *       {@link dev.hangar.s3api.post.PostPolicyCheck#verifyContentLength} ({@code EntityTooLarge},
 *       {@code EntityTooSmall}). {@link dev.hangar.s3api.post.PostPolicy#maximumContentLength} bounds the read.</li>
 *   <li>{@link dev.hangar.s3api.post.PostSuccess#decide}: 303 to {@code success_action_redirect}, or the
 *       {@code success_action_status} 200, 201 (with a {@code PostResponse} document) or 204.</li>
 * </ol>
 *
 * <p>Time is an argument ({@code Instant now}); nothing here reads a clock.
 */
@NullMarked
package dev.hangar.s3api.post;

import org.jspecify.annotations.NullMarked;

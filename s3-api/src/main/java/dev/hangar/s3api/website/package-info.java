/**
 * S3 static website hosting: how a request to a bucket's website endpoint becomes an object, a
 * redirect or an error page. Pure logic over plain values: no HTTP server types, no XML, no storage.
 *
 * <p>{@link dev.hangar.s3api.website.WebsiteConfiguration} holds what {@code PUT /?website} set;
 * {@link dev.hangar.s3api.website.Website#validate} refuses what PutBucketWebsite refuses.
 * {@link dev.hangar.s3api.website.Website#resolve} takes the request and a lookup function and
 * returns a {@link dev.hangar.s3api.website.WebsiteOutcome}: serve this key with this status,
 * redirect, or render {@link dev.hangar.s3api.website.WebsiteErrorPages the HTML error page}.
 *
 * <p>The order of decisions, as AWS documents it and as recorded against S3:
 * <ol>
 *   <li>{@code RedirectAllRequestsTo}: 301 to the same path and query on the other host.</li>
 *   <li>Routing rules without {@code HttpErrorCodeReturnedEquals}, in order: the first whose
 *       {@code KeyPrefixEquals} starts the requested key (or that has no condition) redirects,
 *       whether or not the key exists.</li>
 *   <li>The key: the path without its leading slash, plus the index document suffix when it is
 *       empty or ends with a slash. Found: served with 200, or, when it carries a
 *       {@code x-amz-website-redirect-location}, a 301 there.</li>
 *   <li>Not found, for a key without a trailing slash: when {@code key/} + suffix exists, a
 *       {@code 302 Found} to {@code /key/}.</li>
 *   <li>Still an error (404 NoSuchKey, or 403 AccessDenied): the first routing rule whose
 *       {@code HttpErrorCodeReturnedEquals} is that status (and whose prefix, if it has one,
 *       matches) redirects; otherwise the error document is served with the error's status;
 *       otherwise S3's own HTML page, which also reports a missing or unreadable error
 *       document.</li>
 * </ol>
 *
 * <p>Access control stays with the caller: its lookup throws {@link dev.hangar.s3api.S3Exception}
 * with {@link dev.hangar.s3api.S3Error#ACCESS_DENIED} for an object the requester may not read,
 * and, as S3 does for a requester without {@code s3:ListBucket}, may do so for a missing key too.
 */
@NullMarked
package dev.hangar.s3api.website;

import org.jspecify.annotations.NullMarked;

/**
 * A bucket's cross-origin resource sharing (CORS) rules, and how S3 answers browsers with them.
 * Pure logic over plain values: no HTTP server types, no XML, no storage.
 *
 * <p>{@link dev.hangar.s3api.cors.CorsConfiguration} holds the rules of {@code PUT /?cors} in the
 * order they were given; {@link dev.hangar.s3api.cors.Cors} is the whole behaviour:
 * <ul>
 *   <li>{@link dev.hangar.s3api.cors.Cors#validate} refuses a configuration as PutBucketCors does,
 *       with AWS's codes and messages;</li>
 *   <li>{@link dev.hangar.s3api.cors.Cors#preflight} answers an {@code OPTIONS} preflight with the
 *       headers of the first rule that allows it, or with nothing, which the caller turns into
 *       {@link dev.hangar.s3api.cors.Cors#preflightNotAllowed()} (403 {@code AccessForbidden});</li>
 *   <li>{@link dev.hangar.s3api.cors.Cors#actualRequestHeaders} gives the headers added to any other
 *       request that carries an {@code Origin}; a request no rule allows is still served, without
 *       them, as S3 does.</li>
 * </ul>
 *
 * <p>Matching follows S3's documented evaluation: the first rule whose {@code AllowedOrigin}
 * matches the {@code Origin}, whose {@code AllowedMethod} lists the method (for a preflight, the
 * {@code Access-Control-Request-Method}) and, for a preflight, whose {@code AllowedHeader}s cover
 * every name in {@code Access-Control-Request-Headers}. A {@code *} in an origin or header pattern
 * stands for any run of characters, the empty one included, and a pattern matches the whole value.
 * Origins and methods compare case-sensitively (no AWS page says otherwise; S3 stores the origins
 * as given, and browsers send origins in lower case); header names compare case-insensitively and
 * come back in lower case, as S3 answers them.
 */
@NullMarked
package dev.hangar.s3api.cors;

import org.jspecify.annotations.NullMarked;

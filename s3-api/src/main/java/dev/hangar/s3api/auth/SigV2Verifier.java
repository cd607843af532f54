package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Verifies AWS Signature Version 2 on an S3 request: {@code Authorization: AWS AccessKeyId:Signature} and
 * presigned URLs with {@code AWSAccessKeyId}, {@code Signature} and {@code Expires}. Pure logic over the
 * request as received; thread-safe.
 *
 * <p>The string to sign is S3's:
 * <pre>
 * VERB \n Content-MD5 \n Content-Type \n Date \n CanonicalizedAmzHeaders CanonicalizedResource
 * </pre>
 * where Date is the {@code Date} header (empty when an {@code x-amz-date} header is sent, which then counts
 * as the request time and is signed among the {@code x-amz-*} headers), or the {@code Expires} parameter of a
 * presigned URL; CanonicalizedAmzHeaders is one {@code name:value\n} line per {@code x-amz-*} header, names
 * lower-cased and sorted, repeated values joined by commas; CanonicalizedResource is the path as sent (with
 * {@code /bucket} in front for a virtual-host-style request) and the sub-resources of the query, sorted by
 * name, their values decoded.
 *
 * <p>The body is not signed. A request may still declare its SHA-256 in {@code x-amz-content-sha256} (checked
 * once it has streamed) or an MD5 in {@code Content-MD5} (signed, and checked), but cannot carry aws-chunked
 * chunk signatures, which chain from a Version 4 signature.
 */
final class SigV2Verifier {
    /** The prefix of a Version 2 {@code Authorization} header. */
    static final String HEADER_PREFIX = "AWS ";
    static final String ACCESS_KEY_PARAMETER = "AWSAccessKeyId";
    static final String SIGNATURE_PARAMETER = "Signature";
    static final String EXPIRES_PARAMETER = "Expires";

    /**
     * The query parameters that are part of the resource, so signed: the ones S3 documents for Version 2
     * (sub-resources and response overrides), the ones botocore signs, and every other parameter that selects
     * an operation here, so that a signed GET or PUT cannot be turned into another operation by adding one.
     */
    static final Set<String> SUB_RESOURCES = Set.of(
            "accelerate", "acl", "analytics", "attributes", "cors", "defaultObjectAcl", "delete", "encryption",
            "intelligent-tiering", "inventory", "legal-hold", "lifecycle", "location", "logging", "metrics",
            "notification", "object-lock", "ownershipControls", "partNumber", "policy", "policyStatus",
            "publicAccessBlock", "replication", "requestPayment", "restore", "retention", "select", "select-type",
            "storageClass", "tagging", "torrent", "uploadId", "uploads", "versionId", "versioning", "versions",
            "website", "response-cache-control", "response-content-disposition", "response-content-encoding",
            "response-content-language", "response-content-type", "response-expires");

    private static final String CONTENT_SHA256 = "x-amz-content-sha256";
    private static final String AMZ_PREFIX = "x-amz-";

    private final Clock clock;
    private final Function<String, Optional<String>> secretKeys;

    /**
     * @param clock the time against which request times and expiries are judged
     * @param secretKeys the secret key of an access key id, empty when there is no such key
     */
    SigV2Verifier(Clock clock, Function<String, Optional<String>> secretKeys) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.secretKeys = Objects.requireNonNull(secretKeys, "secretKeys");
    }

    /**
     * Checks {@code Authorization: AWS AccessKeyId:Signature}.
     *
     * @param hostBucket the bucket the Host header names (virtual-host style), null for a path-style request
     */
    Authentication verifyHeader(SignedRequest request, String authorization, @Nullable String hostBucket) {
        String credentials = authorization.strip().substring(HEADER_PREFIX.length() - 1).strip();
        int colon = credentials.lastIndexOf(':');
        if (colon <= 0 || colon == credentials.length() - 1) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "AWS authorization header is invalid.  Expected AwsAccessKeyId:signature");
        }
        String accessKeyId = credentials.substring(0, colon);
        String signature = credentials.substring(colon + 1);
        Instant time = requestTime(request);
        if (Duration.between(time, clock.instant()).abs().compareTo(SigV4Verifier.MAXIMUM_SKEW) > 0) {
            throw new S3Exception(S3Error.REQUEST_TIME_TOO_SKEWED,
                    "The difference between the request time and the current time is too large.");
        }
        // With x-amz-date the Date line is empty: the time is signed among the x-amz-* headers instead.
        String date = request.firstHeader("x-amz-date").isPresent()
                ? ""
                : request.firstHeader("date").map(String::strip).orElse("");
        return check(request, accessKeyId, signature, date, hostBucket, SignatureScheme.V2_HEADER);
    }

    /**
     * Checks a presigned URL's {@code AWSAccessKeyId}, {@code Signature} and {@code Expires}: the signature,
     * and that the absolute time {@code Expires} (seconds since the epoch) has not passed.
     */
    Authentication verifyPresigned(SignedRequest request, List<QueryParameter> query, @Nullable String hostBucket) {
        String accessKeyId = single(query, ACCESS_KEY_PARAMETER);
        String signature = single(query, SIGNATURE_PARAMETER);
        String expires = single(query, EXPIRES_PARAMETER);
        long expiresAt;
        try {
            expiresAt = Long.parseLong(expires.strip());
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Invalid date (should be seconds since epoch): " + expires);
        }
        if (clock.instant().getEpochSecond() > expiresAt) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Request has expired");
        }
        return check(request, accessKeyId, signature, expires, hostBucket, SignatureScheme.V2_QUERY);
    }

    private Authentication check(SignedRequest request, String accessKeyId, String signature, String date,
            @Nullable String hostBucket, SignatureScheme scheme) {
        PayloadMode payloadMode = payloadMode(request);
        String secretKey = secretKeys.apply(accessKeyId).orElseThrow(() -> new S3Exception(
                S3Error.INVALID_ACCESS_KEY_ID, "The AWS access key ID you provided does not exist in our records."));
        String computed = SignatureV2.sign(secretKey, stringToSign(request, date, hostBucket));
        if (!SignatureV2.matches(computed, signature)) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH);
        }
        return Authentication.version2(accessKeyId, scheme, payloadMode, payloadMode == PayloadMode.SIGNED_SHA256
                ? request.firstHeader(CONTENT_SHA256).orElseThrow().strip().toLowerCase(Locale.ROOT)
                : null);
    }

    /** The string S3 signs; {@code date} is the Date line: the header's value, empty, or a URL's Expires. */
    static String stringToSign(SignedRequest request, String date, @Nullable String hostBucket) {
        StringBuilder signed = new StringBuilder()
                .append(request.method()).append('\n')
                .append(request.firstHeader("content-md5").map(String::strip).orElse("")).append('\n')
                .append(request.firstHeader("content-type").map(String::strip).orElse("")).append('\n')
                .append(date).append('\n');
        Map<String, List<String>> amzHeaders = new TreeMap<>();
        request.headers().forEach((name, values) -> {
            if (name.startsWith(AMZ_PREFIX)) {
                amzHeaders.put(name, values);
            }
        });
        amzHeaders.forEach((name, values) -> {
            signed.append(name).append(':');
            for (int index = 0; index < values.size(); index++) {
                signed.append(index == 0 ? "" : ",").append(values.get(index).strip());
            }
            signed.append('\n');
        });
        return signed.append(canonicalResource(request, hostBucket)).toString();
    }

    /** {@code [/bucket]/path[?sub-resources]}. */
    static String canonicalResource(SignedRequest request, @Nullable String hostBucket) {
        String path = request.rawPath().isEmpty() ? "/" : request.rawPath();
        StringBuilder resource = new StringBuilder();
        if (hostBucket != null) {
            resource.append('/').append(hostBucket);
        }
        resource.append(path);
        List<String[]> subResources = new ArrayList<>();
        String rawQuery = request.rawQuery();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String piece : rawQuery.split("&", -1)) {
                int equals = piece.indexOf('=');
                String name = equals < 0 ? piece : piece.substring(0, equals);
                if (SUB_RESOURCES.contains(name)) {
                    // The value as the client meant it: percent-decoded, a '+' left as it is.
                    subResources.add(equals < 0
                            ? new String[] {name}
                            : new String[] {name, new String(UriEncoding.decode(piece.substring(equals + 1), false),
                                    StandardCharsets.UTF_8)});
                }
            }
        }
        // A stable sort by name: repeated names keep the order they came in.
        subResources.sort(Comparator.comparing(pair -> pair[0]));
        for (int index = 0; index < subResources.size(); index++) {
            resource.append(index == 0 ? '?' : '&').append(String.join("=", subResources.get(index)));
        }
        return resource.toString();
    }

    /** The body's protection: none unless declared; chunk signatures need Version 4. */
    private static PayloadMode payloadMode(SignedRequest request) {
        Optional<String> contentSha256 = request.firstHeader(CONTENT_SHA256).map(String::strip);
        if (contentSha256.isEmpty()) {
            return PayloadMode.UNSIGNED_PAYLOAD;
        }
        PayloadMode mode = SigV4Verifier.payloadMode(contentSha256.get());
        if (mode.hasChunkSignatures()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-content-sha256 " + contentSha256.get()
                    + " needs a request signed with AWS4-HMAC-SHA256, not with Signature Version 2.");
        }
        return mode;
    }

    /** The request time: {@code x-amz-date} if sent, else {@code Date}; either as an HTTP date. */
    private static Instant requestTime(SignedRequest request) {
        Optional<String> amazonDate = request.firstHeader("x-amz-date");
        Optional<Instant> time = amazonDate.isPresent()
                ? amazonDate.flatMap(SigV2Verifier::parseDate)
                : request.firstHeader("date").flatMap(SigV2Verifier::parseDate);
        return time.orElseThrow(() -> new S3Exception(S3Error.ACCESS_DENIED,
                "AWS authentication requires a valid Date or x-amz-date header"));
    }

    /** An RFC 1123 date ({@code Thu, 26 Nov 2026 10:00:00 GMT}), or the ISO 8601 basic form V4 uses. */
    private static Optional<Instant> parseDate(String value) {
        try {
            return Optional.of(ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return SigV4Verifier.parseTimestamp(value);
        }
    }

    private static String single(List<QueryParameter> query, String name) {
        String found = null;
        for (QueryParameter parameter : query) {
            if (parameter.name().equals(name)) {
                if (found != null) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, name + " must be given once.");
                }
                found = parameter.value();
            }
        }
        if (found == null) {
            throw new S3Exception(S3Error.ACCESS_DENIED,
                    "Query-string authentication requires the Signature, Expires and AWSAccessKeyId parameters");
        }
        return found;
    }
}

package dev.hangar.s3api.semantics;

import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.RequestHeaders;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The headers an object stores from its PUT and returns on GET and HEAD.
 *
 * <p>{@code x-amz-storage-class} is not one: every object is STANDARD ({@link StorageClasses}), which S3
 * does not send. Versions written before that rule may hold the header; it is dropped when they are read,
 * so that HEAD says what listings say.
 */
record ObjectHeaders(Map<String, String> standard, Map<String, String> user) {
    static final List<String> STORED = List.of(
            "content-type", "content-encoding", "content-disposition", "content-language", "cache-control", "expires",
            "x-amz-website-redirect-location");

    /**
     * Not a header: the id of the multipart upload whose completion made the version, kept with it so
     * that a retried completion is answered with the object it made. A header name cannot start with a
     * colon, so no header a client sends collides with it; it is never sent, nor copied to another object.
     */
    static final String COMPLETED_UPLOAD = ":upload-id";

    /**
     * Names a version stores among its headers that are no headers (they start with a colon, which no header
     * name can): facts about the version for Hangar alone, such as {@link #COMPLETED_UPLOAD} or how its content
     * is encrypted ({@link ServerSideEncryption#MODE}). They are never sent, and never copied to another object.
     */
    static boolean isStoredFact(String name) {
        return name.startsWith(":");
    }

    ObjectHeaders {
        if (standard.containsKey(StorageClasses.HEADER) || standard.keySet().stream().anyMatch(ObjectHeaders::isStoredFact)) {
            standard = new TreeMap<>(standard);
            standard.remove(StorageClasses.HEADER);
            standard.keySet().removeIf(ObjectHeaders::isStoredFact);
        }
    }
    private static final String USER_PREFIX = "x-amz-meta-";
    private static final int USER_METADATA_LIMIT = 2 * 1024;
    /** RFC 9110's token: what a header name is made of. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /** Reads the headers to store from a PUT, a copy with REPLACE or a multipart creation. */
    static ObjectHeaders from(RequestHeaders headers) {
        Map<String, String> standard = new TreeMap<>();
        for (String name : STORED) {
            String value = headers.first(name);
            if (value == null) {
                continue;
            }
            if (name.equals("content-encoding")) {
                value = withoutAwsChunked(value);
                if (value.isEmpty()) {
                    continue;
                }
            }
            requireHeaderValue(name, value);
            standard.put(name, value);
        }
        Map<String, String> user = new TreeMap<>();
        int size = 0;
        for (Map.Entry<String, List<String>> header : headers.values().entrySet()) {
            if (header.getKey().startsWith(USER_PREFIX)) {
                String name = header.getKey().substring(USER_PREFIX.length());
                String value = String.join(",", header.getValue());
                requireHeaderName(header.getKey());
                requireHeaderValue(header.getKey(), value);
                user.put(name, value);
                size += name.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (size > USER_METADATA_LIMIT) {
            throw new S3Exception(S3Error.METADATA_TOO_LARGE,
                    "Your metadata headers exceed the maximum allowed metadata size of 2 KB (" + size + " bytes).");
        }
        return new ObjectHeaders(standard, user);
    }

    /**
     * Refuses a value no response header could carry. Request headers cannot hold one (the HTTP decoder
     * refuses them), but the fields of a POST form can: stored, such a value would fail every later GET and
     * HEAD of the object.
     *
     * @throws S3Exception InvalidArgument for a value with a control character
     */
    static void requireHeaderValue(String name, String value) {
        if (!isHeaderValue(value)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "The value of " + name + " holds a control character, which a header cannot carry.");
        }
    }

    /** Refuses a user metadata name that is not an HTTP token (a POST form field's name can be anything). */
    private static void requireHeaderName(String name) {
        if (!TOKEN.matcher(name).matches()) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "The metadata name " + name.replaceAll("\\p{Cntrl}", "?") + " is not a valid header name.");
        }
    }

    /** RFC 9110's field-value characters: no control character but horizontal tab. */
    static boolean isHeaderValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                return false;
            }
        }
        return true;
    }

    static ObjectHeaders of(ObjectVersion version) {
        return new ObjectHeaders(version.headers(), version.userMetadata());
    }

    /** The representation headers of GET and HEAD, without length and range. */
    static Map<String, String> response(ObjectVersion version, boolean checksumWanted) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Last-Modified", HttpDates.http(version.lastModified()));
        headers.put("ETag", version.etag());
        headers.put("Accept-Ranges", "bytes");
        headers.put("Content-Type", version.headers().getOrDefault("content-type", "binary/octet-stream"));
        version.headers().forEach((name, value) -> {
            if (!name.equals("content-type") && !name.equals(StorageClasses.HEADER) && !isStoredFact(name)) {
                headers.put(name, value);
            }
        });
        version.userMetadata().forEach((name, value) -> headers.put(USER_PREFIX + name, value));
        Checksum checksum = version.checksum();
        if (checksumWanted && checksum != null) {
            headers.put("x-amz-checksum-" + checksum.algorithm().toLowerCase(Locale.ROOT), checksum.value());
            headers.put("x-amz-checksum-type", checksum.value().contains("-") ? "COMPOSITE" : "FULL_OBJECT");
        }
        return headers;
    }

    /**
     * The Content-Encoding to store: as sent, spacing included (S3 returns {@code gzip, br} as it was
     * sent), less the {@code aws-chunked} coding of a streaming upload and the separator before it.
     */
    private static String withoutAwsChunked(String contentEncoding) {
        StringBuilder kept = new StringBuilder();
        for (String coding : contentEncoding.split(",", -1)) {
            String trimmed = coding.trim();
            if (!trimmed.isEmpty() && !trimmed.equalsIgnoreCase("aws-chunked")) {
                if (!kept.isEmpty()) {
                    kept.append(',');
                }
                kept.append(kept.isEmpty() ? coding.stripLeading() : coding);
            }
        }
        return kept.toString().stripTrailing();
    }
}

package dev.hangar.s3api.semantics;

import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** PutObject, GetObject, HeadObject, DeleteObject and CopyObject. */
final class ObjectOperations {
    static final long MAX_SINGLE_PUT = 5L << 30;
    private static final Map<String, String> RESPONSE_OVERRIDES = Map.of(
            "response-content-type", "Content-Type",
            "response-content-language", "Content-Language",
            "response-expires", "Expires",
            "response-cache-control", "Cache-Control",
            "response-content-disposition", "Content-Disposition",
            "response-content-encoding", "Content-Encoding");

    private final MetadataStore metadata;
    private final ContentStore content;
    private final Reclamation reclamation;
    private final Documents documents;
    private final Clock clock;

    ObjectOperations(MetadataStore metadata, ContentStore content, Reclamation reclamation, Documents documents,
            Clock clock) {
        this.metadata = metadata;
        this.content = content;
        this.reclamation = reclamation;
        this.documents = documents;
        this.clock = clock;
    }

    S3Response put(S3Request request, Payload payload) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectKeys.validate(key);
        requireBucket(bucket);
        long length = payload.declaredLength();
        if (length < 0) {
            throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH);
        }
        if (length > MAX_SINGLE_PUT) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE,
                    "Your proposed upload exceeds the maximum allowed size of 5 GiB for a single PUT.");
        }
        ObjectHeaders headers = ObjectHeaders.from(request.headers());
        ObjectContent stored = Failures.io(() -> content.write(payload.stream(), length));
        Checksum checksum = payload.checksum().orElse(null);
        ObjectVersion version = new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, now(), sizeOf(stored),
                Etags.of(payload.md5()), stored, headers.standard(), headers.user(), checksum, List.of());
        commit(version);
        Map<String, String> responseHeaders = new LinkedHashMap<>();
        responseHeaders.put("ETag", version.etag());
        if (checksum != null) {
            responseHeaders.put("x-amz-checksum-" + checksum.algorithm().toLowerCase(Locale.ROOT), checksum.value());
        }
        return S3Response.empty(200, responseHeaders);
    }

    S3Response get(S3Request request, boolean headOnly) {
        ObjectVersion version = find(request.requireBucket(), request.requireKey());
        if (Conditions.forRead(request, version.etag(), version.lastModified()) == Conditions.Outcome.NOT_MODIFIED) {
            return S3Response.empty(304, Map.of(
                    "ETag", version.etag(), "Last-Modified", HttpDates.http(version.lastModified())));
        }
        long size = version.size();
        Optional<ByteRange> range = partRange(request, version);
        if (range.isEmpty()) {
            range = ByteRange.parse(request.header("range"), size);
        }
        boolean checksumWanted = "ENABLED".equalsIgnoreCase(request.header("x-amz-checksum-mode")) && range.isEmpty();
        Map<String, String> headers = new LinkedHashMap<>(ObjectHeaders.response(version, checksumWanted));
        applyResponseOverrides(request, headers);
        if (request.hasParameter("partNumber")) {
            headers.put("x-amz-mp-parts-count", Integer.toString(Math.max(1, version.partSizes().size())));
        }
        long offset = range.map(ByteRange::first).orElse(0L);
        long length = range.map(ByteRange::length).orElse(size);
        int status = range.isPresent() ? 206 : 200;
        range.ifPresent(r -> headers.put("Content-Range", r.contentRange(size)));
        headers.put("Content-Length", Long.toString(length));
        if (headOnly) {
            return S3Response.empty(status, headers);
        }
        S3Response.Writer writer = out -> {
            try (InputStream in = content.open(version, offset, length)) {
                in.transferTo(out);
            }
        };
        return new S3Response(status, headers, new S3Response.Body.Stream(length, writer));
    }

    S3Response delete(S3Request request) {
        String bucket = request.requireBucket();
        requireBucket(bucket);
        Optional<ObjectVersion> removed = metadata.deleteObject(bucket, request.requireKey());
        removed.ifPresent(ignored -> reclamation.soon());
        return S3Response.empty(204);
    }

    /** Deletes one key for DeleteObjects; the bucket was checked by the caller. */
    void deleteQuietly(String bucket, String key) {
        if (metadata.deleteObject(bucket, key).isPresent()) {
            reclamation.soon();
        }
    }

    S3Response copy(S3Request request) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectKeys.validate(key);
        CopySource source = CopySource.parse(request.header("x-amz-copy-source"));
        ObjectVersion original = find(source.bucket(), source.key());
        if (source.versionId() != null && !source.versionId().equals(original.versionId())) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid version id specified");
        }
        Conditions.forCopySource(request, original.etag(), original.lastModified());
        String directive = Optional.ofNullable(request.header("x-amz-metadata-directive")).orElse("COPY");
        if (!directive.equals("COPY") && !directive.equals("REPLACE")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Unknown metadata directive: " + directive);
        }
        if (directive.equals("COPY") && source.bucket().equals(bucket) && source.key().equals(key)) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "This copy request is illegal because it is trying to copy an object to itself without changing "
                            + "the object's metadata, storage class, website redirect location or encryption attributes.");
        }
        requireBucket(bucket);
        ObjectHeaders headers = directive.equals("REPLACE") ? ObjectHeaders.from(request.headers()) : ObjectHeaders.of(original);
        MessageDigest md5 = Etags.md5();
        ObjectContent stored = Failures.io(() -> {
            try (InputStream in = new DigestInputStream(content.open(original, 0, original.size()), md5)) {
                return content.write(in, original.size());
            }
        });
        Checksum checksum = original.checksum();
        if (checksum != null && checksum.value().contains("-")) {
            checksum = null;
        }
        ObjectVersion version = new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, now(), sizeOf(stored),
                Etags.of(md5.digest()), stored, headers.standard(), headers.user(), checksum, List.of());
        commit(version);
        return S3Response.xml(200, documents.copyObjectResult(version));
    }

    ObjectVersion find(String bucket, String key) {
        Optional<ObjectVersion> version = metadata.getObject(bucket, key);
        if (version.isPresent() && !(version.get().content() instanceof ObjectContent.DeleteMarker)) {
            return version.get();
        }
        requireBucket(bucket);
        throw new S3Exception(S3Error.NO_SUCH_KEY);
    }

    BucketRecord requireBucket(String bucket) {
        return metadata.getBucket(bucket).orElseThrow(() -> new S3Exception(S3Error.NO_SUCH_BUCKET));
    }

    /** Makes a version current; if that fails, its freshly written blocks are queued for freeing. */
    void commit(ObjectVersion version) {
        try {
            Optional<ObjectVersion> replaced = metadata.putObject(version);
            if (replaced.isPresent()) {
                reclamation.soon();
            }
        } catch (NoSuchBucketException e) {
            content.discard(version.content());
            throw new S3Exception(S3Error.NO_SUCH_BUCKET);
        } catch (RuntimeException e) {
            content.discard(version.content());
            throw e;
        }
    }

    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    static long sizeOf(ObjectContent stored) {
        return switch (stored) {
            case ObjectContent.Inline inline -> inline.data().length;
            case ObjectContent.Blocks blocks -> blocks.blocks().stream().mapToLong(BlockRef::size).sum();
            case ObjectContent.DeleteMarker marker -> 0;
        };
    }

    /** {@code response-content-type} and its siblings replace the stored headers in a GET or HEAD answer. */
    private static void applyResponseOverrides(S3Request request, Map<String, String> headers) {
        for (Map.Entry<String, String> override : RESPONSE_OVERRIDES.entrySet()) {
            String value = request.parameter(override.getKey());
            if (value != null) {
                headers.keySet().removeIf(name -> name.equalsIgnoreCase(override.getValue()));
                headers.put(override.getValue(), value);
            }
        }
    }

    /** The byte range of {@code ?partNumber=N}: a part of a multipart object, or part 1 of any other. */
    private static Optional<ByteRange> partRange(S3Request request, ObjectVersion version) {
        String parameter = request.parameter("partNumber");
        if (parameter == null) {
            return Optional.empty();
        }
        int partNumber;
        try {
            partNumber = Integer.parseInt(parameter);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Part number must be an integer between 1 and 10000, inclusive");
        }
        List<Long> sizes = version.partSizes().isEmpty() ? List.of(version.size()) : version.partSizes();
        if (partNumber < 1 || partNumber > sizes.size()) {
            throw new S3Exception(S3Error.INVALID_PART_NUMBER, "The requested partnumber is not satisfiable");
        }
        long first = 0;
        for (int i = 0; i < partNumber - 1; i++) {
            first += sizes.get(i);
        }
        long partSize = sizes.get(partNumber - 1);
        if (partSize == 0) {
            return Optional.empty();
        }
        return Optional.of(new ByteRange(first, first + partSize - 1));
    }
}

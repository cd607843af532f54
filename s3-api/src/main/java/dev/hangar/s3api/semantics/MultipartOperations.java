package dev.hangar.s3api.semantics;

import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.ReaderLeases;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.NoSuchUploadException;
import dev.hangar.metadata.PartsChangedException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.PreconditionFailedException;
import dev.hangar.metadata.UploadListing;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.VersioningConfiguration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The multipart upload family. */
final class MultipartOperations {
    static final long MIN_PART_SIZE = 5L << 20;
    private static final int MAX_COMPLETE_DOCUMENT = 4 << 20;
    private static final Pattern COPY_RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");

    private final MetadataStore metadata;
    private final ContentStore content;
    private final ObjectOperations objects;
    private final Reclamation reclamation;
    private final Documents documents;
    private final UploadIds uploadIds;
    private final BucketConfigurations configurations;
    private final ServerSideEncryption encryption;

    MultipartOperations(MetadataStore metadata, ContentStore content, ObjectOperations objects, Reclamation reclamation,
            Documents documents, UploadIds uploadIds, BucketConfigurations configurations,
            ServerSideEncryption encryption) {
        this.encryption = encryption;
        this.metadata = metadata;
        this.content = content;
        this.objects = objects;
        this.reclamation = reclamation;
        this.documents = documents;
        this.uploadIds = uploadIds;
        this.configurations = configurations;
    }

    S3Response create(S3Request request) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectKeys.validate(key);
        ObjectHeaders headers = ObjectHeaders.from(request.headers());
        String algorithm = Optional.ofNullable(request.header("x-amz-checksum-algorithm"))
                .map(value -> value.toUpperCase(Locale.ROOT))
                .orElse(null);
        if (ObjectLocks.requested(request::header)) {
            objects.requireBucket(bucket);
        }
        objects.settings(request, bucket);
        Optional<Sealing> sealing = encryption.forWrite(request, bucket);
        // The tags, ACL and lock the upload asks for are kept as their headers until it completes; so is how
        // its parts are to be sealed.
        Map<String, String> stored = new HashMap<>(headers.standard());
        stored.putAll(VersionSettings.uploadHeaders(request::header));
        sealing.ifPresent(how -> stored.putAll(how.stored()));
        boolean fullObject = FullObjectChecksums.requested(algorithm, request.header(FullObjectChecksums.TYPE_HEADER));
        if (fullObject) {
            stored.put(FullObjectChecksums.TYPE_HEADER, FullObjectChecksums.FULL_OBJECT);
        }
        MultipartUpload upload = new MultipartUpload(bucket, key, uploadIds.next(), objects.now(), stored,
                headers.user(), algorithm);
        try {
            metadata.createUpload(upload);
        } catch (NoSuchBucketException e) {
            throw new S3Exception(S3Error.NO_SUCH_BUCKET);
        }
        Map<String, String> responseHeaders = new LinkedHashMap<>();
        if (algorithm != null) {
            responseHeaders.put("x-amz-checksum-algorithm", algorithm);
            responseHeaders.put(FullObjectChecksums.TYPE_HEADER, fullObject ? FullObjectChecksums.FULL_OBJECT : "COMPOSITE");
        }
        sealing.ifPresent(how -> responseHeaders.putAll(how.responseHeaders()));
        return S3Response.xml(200, responseHeaders, documents.initiateMultipartUploadResult(bucket, key, upload.uploadId()));
    }

    S3Response uploadPart(S3Request request, S3Operation.UploadPart operation, Payload payload) {
        MultipartUpload upload = findUpload(request, operation.uploadId());
        long length = payload.declaredLength();
        if (length < 0) {
            throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH);
        }
        if (length > ObjectOperations.MAX_SINGLE_PUT) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE, "A part may be at most 5 GiB.");
        }
        Optional<Sealing> sealing = encryption.forPart(request, upload.headers());
        ContentWrite write = new ContentWrite(payload.stream(), sealing);
        List<BlockRef> blocks = Failures.io(() -> content.writeBlocks(write.stream()));
        Checksum checksum = payload.checksum().orElse(null);
        Part part = new Part(upload.uploadId(), operation.partNumber(), objects.now(),
                write.plainLength(totalSize(blocks)), write.etag(payload.md5()), blocks, checksum);
        store(upload, part);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("ETag", part.etag());
        sealing.ifPresent(how -> headers.putAll(how.responseHeaders()));
        if (checksum != null) {
            headers.put("x-amz-checksum-" + checksum.algorithm().toLowerCase(Locale.ROOT), checksum.value());
        }
        return S3Response.empty(200, headers);
    }

    S3Response uploadPartCopy(S3Request request, S3Operation.UploadPartCopy operation) {
        MultipartUpload upload = findUpload(request, operation.uploadId());
        CopySource source = CopySource.parse(request.header("x-amz-copy-source"));
        // Begun before the source is looked up, so that its blocks stay while they are copied.
        try (ReaderLeases.Reading reading = content.beginRead()) {
            return uploadPartCopy(request, operation, upload, source, reading);
        }
    }

    private S3Response uploadPartCopy(S3Request request, S3Operation.UploadPartCopy operation, MultipartUpload upload,
            CopySource source, ReaderLeases.Reading reading) {
        ObjectVersion original = objects.copySource(source);
        Optional<Sealing> sourceKey = encryption.forCopySource(request, original);
        Optional<Sealing> targetKey = encryption.forPart(request, upload.headers());
        Conditions.forCopySource(request, original.etag(), original.lastModified());
        long offset = 0;
        long length = original.size();
        String rangeHeader = request.header("x-amz-copy-source-range");
        if (rangeHeader != null) {
            Matcher matcher = COPY_RANGE.matcher(rangeHeader.trim());
            if (!matcher.matches() || Long.parseLong(matcher.group(2)) < Long.parseLong(matcher.group(1))) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT,
                        "The x-amz-copy-source-range value must be of the form bytes=first-last where first and last "
                                + "are the zero-based offsets of the first and last bytes to copy");
            }
            offset = Long.parseLong(matcher.group(1));
            long last = Long.parseLong(matcher.group(2));
            if (last >= original.size()) {
                throw new S3Exception(S3Error.INVALID_RANGE,
                        "Range specified is not valid for source object of size: " + original.size());
            }
            length = last - offset + 1;
        }
        long from = offset;
        long count = length;
        ContentStore.Copied<List<BlockRef>> copied = Failures.io(() -> {
            try {
                return content.copy(reading, original, sourceKey, from, count, targetKey,
                        (in, storedLength) -> content.writeBlocks(in));
            } catch (NoSuchBlockException missing) {
                throw objects.copySourceGone(source, original, missing);
            }
        });
        Part part = new Part(upload.uploadId(), operation.partNumber(), objects.now(), count, copied.etag(),
                copied.stored(), null);
        store(upload, part);
        Map<String, String> headers = new LinkedHashMap<>();
        objects.putCopySourceVersionId(headers, source.bucket(), original.versionId());
        targetKey.ifPresent(how -> headers.putAll(how.responseHeaders()));
        return S3Response.xml(200, headers, documents.copyPartResult(part.etag(), part.lastModified()));
    }

    /**
     * Completes an upload; a completion of an upload that is already complete (a client's retry, its
     * first answer lost) is answered as the first was while the object it made is still the key's
     * current version.
     */
    S3Response complete(S3Request request, S3Operation.CompleteMultipartUpload operation, Payload payload) {
        String bucket = request.requireBucket();
        Optional<MultipartUpload> found = metadata.getUpload(bucket, request.requireKey(), operation.uploadId());
        if (found.isEmpty()) {
            return completedBefore(request, operation.uploadId()).orElseThrow(() -> {
                objects.requireBucket(bucket);
                return new S3Exception(S3Error.NO_SUCH_UPLOAD);
            });
        }
        MultipartUpload upload = found.get();
        // A customer key is not needed to complete an upload; one that comes must be the upload's.
        if (ServerSideEncryption.suppliesCustomerKey(request)) {
            encryption.forPart(request, upload.headers());
        }
        Precondition precondition = WritePreconditions.of(request);
        byte[] document = RequestBodies.readDocument(payload, MAX_COMPLETE_DOCUMENT);
        List<Documents.CompletedPart> requested = documents.parseCompleteMultipartUpload(document);
        if (requested.isEmpty()) {
            throw new S3Exception(S3Error.MALFORMED_XML,
                    "The XML you provided was not well-formed or did not validate against our published schema: "
                            + "a multipart upload needs at least one part.");
        }
        List<Part> parts = new ArrayList<>(requested.size());
        int previousNumber = 0;
        for (Documents.CompletedPart wanted : requested) {
            if (wanted.partNumber() <= previousNumber) {
                throw new S3Exception(S3Error.INVALID_PART_ORDER);
            }
            previousNumber = wanted.partNumber();
            Part stored = metadata.getPart(upload.uploadId(), wanted.partNumber())
                    .filter(part -> Etags.sameTag(part.etag(), wanted.etag()))
                    .orElseThrow(() -> new S3Exception(S3Error.INVALID_PART,
                            S3Error.INVALID_PART.message() + " (part " + wanted.partNumber() + ")"));
            parts.add(stored);
        }
        for (int i = 0; i < parts.size() - 1; i++) {
            if (parts.get(i).size() < MIN_PART_SIZE) {
                throw new S3Exception(S3Error.ENTITY_TOO_SMALL, "Your proposed upload is smaller than the minimum "
                        + "allowed object size: part " + parts.get(i).partNumber() + " is " + parts.get(i).size()
                        + " bytes, and every part but the last must be at least 5 MiB.");
            }
        }
        List<BlockRef> blocks = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<String> etags = new ArrayList<>();
        long size = 0;
        for (Part part : parts) {
            blocks.addAll(part.blocks());
            sizes.add(part.size());
            etags.add(part.etag());
            size += part.size();
        }
        Optional<VersioningConfiguration.Status> versioning = configurations.versioning(upload.bucket());
        Map<String, String> objectHeaders = new HashMap<>(VersionSettings.objectHeaders(upload.headers()));
        objectHeaders.remove(FullObjectChecksums.TYPE_HEADER);
        ObjectHeaders headers = new ObjectHeaders(objectHeaders, upload.userMetadata());
        Checksum checksum = upload.checksumAlgorithm() != null && FullObjectChecksums.requested(upload.headers())
                ? FullObjectChecksums.of(upload.checksumAlgorithm(), parts, request)
                : CompositeChecksums.of(upload.checksumAlgorithm(), parts);
        ObjectVersion made = objects.newVersion(upload.bucket(), upload.key(), versioning, size,
                Etags.multipart(etags), new ObjectContent.Blocks(blocks), headers, checksum, sizes,
                VersionSettings.fromUpload(upload.headers()));
        Map<String, String> stored = new HashMap<>(made.headers());
        stored.put(ObjectHeaders.COMPLETED_UPLOAD, upload.uploadId());
        stored.putAll(ServerSideEncryption.storedAmong(upload.headers()));
        ObjectVersion version = made.withHeaders(stored);
        try {
            metadata.completeUpload(upload, version, precondition);
        } catch (NoSuchUploadException e) {
            // Completed (or aborted) meanwhile: a concurrent retry of this completion may have won.
            return completedBefore(request, upload.uploadId()).orElseThrow(() -> new S3Exception(S3Error.NO_SUCH_UPLOAD));
        } catch (PreconditionFailedException e) {
            throw WritePreconditions.failure(precondition, metadata.getObject(upload.bucket(), upload.key()));
        } catch (PartsChangedException e) {
            // A part named here was uploaded again meanwhile: its entity tag no longer matches.
            throw new S3Exception(S3Error.INVALID_PART);
        }
        reclamation.soon();
        return completed(request, version, versioning);
    }

    /** The answer to a completion of {@code uploadId} if the key's current version is the object it made. */
    private Optional<S3Response> completedBefore(S3Request request, String uploadId) {
        String bucket = request.requireBucket();
        return metadata.getObject(bucket, request.requireKey())
                .filter(version -> uploadId.equals(version.headers().get(ObjectHeaders.COMPLETED_UPLOAD)))
                .map(version -> completed(request, version, configurations.versioning(bucket)));
    }

    private S3Response completed(S3Request request, ObjectVersion version,
            Optional<VersioningConfiguration.Status> versioning) {
        String location = "http://" + request.host() + "/" + version.bucket() + "/" + Documents.pathEncode(version.key());
        Map<String, String> responseHeaders = new LinkedHashMap<>();
        ObjectOperations.putVersionId(responseHeaders, version.versionId(), versioning);
        responseHeaders.putAll(encryption.completionHeaders(version.headers()));
        return S3Response.xml(200, responseHeaders, documents.completeMultipartUploadResult(location, version));
    }

    S3Response abort(S3Request request, S3Operation.AbortMultipartUpload operation) {
        MultipartUpload upload = findUpload(request, operation.uploadId());
        if (!metadata.abortUpload(upload)) {
            throw new S3Exception(S3Error.NO_SUCH_UPLOAD);
        }
        reclamation.soon();
        return S3Response.empty(204);
    }

    S3Response listParts(S3Request request, S3Operation.ListParts operation) {
        MultipartUpload upload = findUpload(request, operation.uploadId());
        int maxParts = Listings.limit(request, "max-parts", 1000);
        int marker = Listings.nonNegative(request, "part-number-marker");
        PartListing page = metadata.listParts(upload.uploadId(), marker, maxParts);
        return S3Response.xml(200, documents.listPartsResult(upload, page, marker, maxParts));
    }

    S3Response listUploads(S3Request request) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        Listings.Encoding encoding = Listings.encoding(request);
        String prefix = Optional.ofNullable(request.parameter("prefix")).orElse("");
        String delimiter = request.parameter("delimiter");
        String keyMarker = request.parameter("key-marker");
        String uploadIdMarker = keyMarker == null ? null : request.parameter("upload-id-marker");
        int maxUploads = Listings.limit(request, "max-uploads", 1000);
        UploadListing page = metadata.listUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
        return S3Response.xml(200, documents.listMultipartUploadsResult(
                bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads, encoding, page));
    }

    private MultipartUpload findUpload(S3Request request, String uploadId) {
        String bucket = request.requireBucket();
        return metadata.getUpload(bucket, request.requireKey(), uploadId).orElseThrow(() -> {
            objects.requireBucket(bucket);
            return new S3Exception(S3Error.NO_SUCH_UPLOAD);
        });
    }

    private void store(MultipartUpload upload, Part part) {
        try {
            metadata.putPart(upload, part);
            reclamation.soon();
        } catch (NoSuchUploadException e) {
            throw new S3Exception(S3Error.NO_SUCH_UPLOAD);
        } catch (MetadataUnavailableException e) {
            // Outcome unknown: a replica may hold the part and spread it later; keep its blocks.
            throw e;
        } catch (RuntimeException e) {
            content.discard(part.blocks());
            throw e;
        }
    }

    private static long totalSize(List<BlockRef> blocks) {
        return blocks.stream().mapToLong(BlockRef::size).sum();
    }
}

package dev.hangar.s3api.semantics;

import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.ReaderLeases;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.VersioningConfiguration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CopyObject: the source's plaintext (unsealed as its encryption says) streamed into a new version of the target,
 * sealed as the request or the target bucket says, with the metadata and tags the directives ask for.
 */
final class CopyOperations {
    private final ObjectOperations objects;
    private final ContentStore content;
    private final ServerSideEncryption encryption;
    private final BucketConfigurations configurations;
    private final Documents documents;

    CopyOperations(ObjectOperations objects, ContentStore content, ServerSideEncryption encryption,
            BucketConfigurations configurations, Documents documents) {
        this.objects = objects;
        this.content = content;
        this.encryption = encryption;
        this.configurations = configurations;
        this.documents = documents;
    }

    S3Response copy(S3Request request) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectKeys.validate(key);
        CopySource source = CopySource.parse(request.header("x-amz-copy-source"));
        // Begun before the source is looked up, so that its blocks stay while they are copied.
        try (ReaderLeases.Reading reading = content.beginRead()) {
            return copy(request, bucket, key, source, reading);
        }
    }

    private S3Response copy(S3Request request, String bucket, String key, CopySource source,
            ReaderLeases.Reading reading) {
        ObjectVersion original = objects.copySource(source);
        Optional<Sealing> sourceKey = encryption.forCopySource(request, original);
        Conditions.forCopySource(request, original.etag(), original.lastModified());
        String directive = Optional.ofNullable(request.header("x-amz-metadata-directive")).orElse("COPY");
        if (!directive.equals("COPY") && !directive.equals("REPLACE")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Unknown metadata directive: " + directive);
        }
        String taggingDirective = Optional.ofNullable(request.header("x-amz-tagging-directive")).orElse("COPY");
        if (!taggingDirective.equals("COPY") && !taggingDirective.equals("REPLACE")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Unknown tagging directive: " + taggingDirective);
        }
        if (directive.equals("COPY") && source.versionId() == null && source.bucket().equals(bucket)
                && source.key().equals(key) && !ServerSideEncryption.requestedExplicitly(request)
                && !ServerSideEncryption.isCustomerKeyed(original)) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "This copy request is illegal because it is trying to copy an object to itself without changing "
                            + "the object's metadata, storage class, website redirect location or encryption attributes.");
        }
        objects.requireBucket(bucket);
        Optional<Sealing> targetKey = encryption.forWrite(request, bucket);
        ObjectHeaders headers = directive.equals("REPLACE") ? ObjectHeaders.from(request.headers()) : ObjectHeaders.of(original);
        VersionSettings requested = objects.settings(request, bucket);
        VersionSettings settings = taggingDirective.equals("COPY")
                ? new VersionSettings(original.tags(), requested.acl(), requested.lock())
                : requested;
        ContentStore.Copied<ObjectContent> copied = Failures.io(() -> {
            try {
                return content.copy(reading, original, sourceKey, 0, original.size(), targetKey, content::write);
            } catch (NoSuchBlockException missing) {
                throw objects.copySourceGone(source, original, missing);
            }
        });
        Checksum checksum = original.checksum();
        if (checksum != null && checksum.value().contains("-")) {
            checksum = null;
        }
        Optional<VersioningConfiguration.Status> versioning = configurations.versioning(bucket);
        ObjectVersion version = ObjectOperations.sealedWith(objects.newVersion(bucket, key, versioning, original.size(),
                copied.etag(), copied.stored(), headers, checksum, List.of(), settings), targetKey);
        objects.commit(version);
        Map<String, String> responseHeaders = new LinkedHashMap<>();
        objects.putCopySourceVersionId(responseHeaders, source.bucket(), original.versionId());
        targetKey.ifPresent(how -> responseHeaders.putAll(how.responseHeaders()));
        ObjectOperations.putVersionId(responseHeaders, version.versionId(), versioning);
        return S3Response.xml(200, responseHeaders, documents.copyObjectResult(version));
    }
}

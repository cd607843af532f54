package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.RequestHeaders;

/**
 * The storage classes Hangar stores: one, {@code STANDARD}. Every object is kept the same way (the
 * configured durability, no tiers, no archive), so that is the class listings, ListObjectVersions, HEAD,
 * GetObjectAttributes and the multipart listings report, and the only one a write may ask for. A write that
 * asks for another (REDUCED_REDUNDANCY, STANDARD_IA, GLACIER, ... or a name S3 does not have) is refused
 * with {@code InvalidStorageClass}, as S3 refuses a class a bucket cannot hold, rather than stored as if it
 * had been honoured. As in S3, GET and HEAD of a STANDARD object send no {@code x-amz-storage-class}.
 */
final class StorageClasses {
    static final String HEADER = "x-amz-storage-class";
    static final String STANDARD = "STANDARD";

    private StorageClasses() {}

    /**
     * @throws S3Exception InvalidStorageClass if the request asks for a class other than STANDARD (the
     *     names are case-sensitive, as in S3)
     */
    static void requireStored(RequestHeaders headers) {
        String requested = headers.first(HEADER);
        if (requested != null && !requested.equals(STANDARD)) {
            throw new S3Exception(S3Error.INVALID_STORAGE_CLASS, "The storage class you specified is not valid: "
                    + "Hangar stores objects in the STANDARD storage class only, not " + requested + ".");
        }
    }
}

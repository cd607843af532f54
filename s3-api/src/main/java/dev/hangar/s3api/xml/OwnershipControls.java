package dev.hangar.s3api.xml;

/**
 * The document of PutBucketOwnershipControls and GetBucketOwnershipControls: one rule, which names
 * the bucket's Object Ownership setting.
 *
 * @param objectOwnership the setting of the one {@code Rule}
 */
public record OwnershipControls(ObjectOwnership objectOwnership) {

    /** Who owns the objects written to the bucket, and whether ACLs still apply. */
    public enum ObjectOwnership {
        /** ACLs are disabled: they grant nothing, and a write may set none but {@code bucket-owner-full-control}. */
        BUCKET_OWNER_ENFORCED("BucketOwnerEnforced"),
        /** An object written with {@code bucket-owner-full-control} becomes the bucket owner's. */
        BUCKET_OWNER_PREFERRED("BucketOwnerPreferred"),
        /** The writer owns what it writes. */
        OBJECT_WRITER("ObjectWriter");

        private final String wireName;

        ObjectOwnership(String wireName) {
            this.wireName = wireName;
        }

        /** The value as the document and the {@code x-amz-object-ownership} header spell it. */
        public String wireName() {
            return wireName;
        }
    }
}

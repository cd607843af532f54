package dev.hangar.s3api.access;

/**
 * What one access key may do in one bucket, as Hangar's key store grants it (the caller maps it
 * from storage). The three flags are independent: owner does not imply read or write.
 *
 * <ul>
 *   <li>{@code read}: reading objects and listing the bucket — every {@code s3:Get*} and
 *       {@code s3:List*} action (HeadBucket and HeadObject are {@code s3:ListBucket} and
 *       {@code s3:GetObject}), reading the bucket's configuration included, except its policy;</li>
 *   <li>{@code write}: writing objects — {@code s3:PutObject} (so PUT, copy and multipart uploads),
 *       {@code s3:DeleteObject}, {@code s3:DeleteObjectVersion}, {@code s3:AbortMultipartUpload}, object
 *       tagging, retention and legal holds;</li>
 *   <li>{@code owner}: the bucket's configuration — reading and changing its policy, changing its ACL,
 *       CORS, website, lifecycle, versioning, tagging and object-lock configuration, deleting the
 *       bucket, changing object ACLs and bypassing governance-mode retention.</li>
 * </ul>
 *
 * @param read whether the key may read
 * @param write whether the key may write
 * @param owner whether the key owns the bucket's configuration
 */
public record KeyPermission(boolean read, boolean write, boolean owner) {
    /** No permission on the bucket; also what anonymous requests have. */
    public static final KeyPermission NONE = new KeyPermission(false, false, false);
    /** Read only. */
    public static final KeyPermission READ_ONLY = new KeyPermission(true, false, false);
    /** Read and write, not owner. */
    public static final KeyPermission READ_WRITE = new KeyPermission(true, true, false);
    /** Everything. */
    public static final KeyPermission ALL = new KeyPermission(true, true, true);

    /** Whether this permission gives the IAM action (e.g. {@code s3:GetObject}); false for actions S3 does not have. */
    public boolean allows(String s3Action) {
        S3Action action = S3Action.fromIamName(s3Action);
        if (action == null) {
            return false;
        }
        return switch (action.kind()) {
            case READ -> read;
            case WRITE -> write;
            case OWNER -> owner;
        };
    }
}

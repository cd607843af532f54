package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyPermissionTest {

    @ParameterizedTest(name = "{0} needs {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GetObject                       | read
            HeadObject                      | read
            GetObjectAttributes             | read
            GetObjectAcl                    | read
            GetObjectTagging                | read
            GetObjectRetention              | read
            GetObjectLegalHold              | read
            ListObjects                     | read
            ListObjectsV2                   | read
            ListObjectVersions              | read
            ListMultipartUploads            | read
            ListParts                       | read
            HeadBucket                      | read
            GetBucketLocation               | read
            GetBucketVersioning             | read
            GetBucketAcl                    | read
            GetBucketCors                   | read
            GetBucketWebsite                | read
            GetBucketLifecycleConfiguration | read
            GetBucketTagging                | read
            GetObjectLockConfiguration      | read
            PutObject                       | write
            CopyObject                      | write
            CreateMultipartUpload           | write
            UploadPart                      | write
            UploadPartCopy                  | write
            CompleteMultipartUpload         | write
            AbortMultipartUpload            | write
            DeleteObject                    | write
            DeleteObjects                   | write
            PutObjectTagging                | write
            DeleteObjectTagging             | write
            PutObjectRetention              | write
            PutObjectLegalHold              | write
            GetBucketPolicy                 | owner
            GetBucketPolicyStatus           | owner
            PutBucketPolicy                 | owner
            DeleteBucketPolicy              | owner
            PutBucketAcl                    | owner
            PutObjectAcl                    | owner
            PutBucketCors                   | owner
            DeleteBucketCors                | owner
            PutBucketWebsite                | owner
            DeleteBucketWebsite             | owner
            PutBucketLifecycleConfiguration | owner
            DeleteBucketLifecycle           | owner
            PutBucketVersioning             | owner
            PutBucketTagging                | owner
            DeleteBucketTagging             | owner
            PutObjectLockConfiguration      | owner
            BypassGovernanceRetention       | owner
            DeleteBucket                    | owner
            """)
    void eachOperationNeedsExactlyOneFlag(String operation, String flag) {
        String action = ActionAndResource.of(operation, "b", "k").action();
        assertThat(new KeyPermission(true, false, false).allows(action)).isEqualTo(flag.equals("read"));
        assertThat(new KeyPermission(false, true, false).allows(action)).isEqualTo(flag.equals("write"));
        assertThat(new KeyPermission(false, false, true).allows(action)).isEqualTo(flag.equals("owner"));
        assertThat(KeyPermission.ALL.allows(action)).isTrue();
        assertThat(KeyPermission.NONE.allows(action)).isFalse();
    }

    @Test
    void actionsAreComparedWithoutRegardToCaseAndUnknownOnesAreRefused() {
        assertThat(KeyPermission.READ_ONLY.allows("S3:GETOBJECT")).isTrue();
        assertThat(KeyPermission.ALL.allows("s3:Frobnicate")).isFalse();
        assertThat(KeyPermission.ALL.allows("*")).isFalse();
    }

    @Test
    void namedPermissions() {
        assertThat(KeyPermission.READ_ONLY).isEqualTo(new KeyPermission(true, false, false));
        assertThat(KeyPermission.READ_WRITE).isEqualTo(new KeyPermission(true, true, false));
        assertThat(KeyPermission.ALL).isEqualTo(new KeyPermission(true, true, true));
        assertThat(KeyPermission.NONE).isEqualTo(new KeyPermission(false, false, false));
    }
}

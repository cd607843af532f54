package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.request.S3Operation;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ActionAndResourceTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GetObject               | s3:GetObject
            HeadObject              | s3:GetObject
            SelectObjectContent     | s3:GetObject
            PutObject               | s3:PutObject
            CopyObject              | s3:PutObject
            PostObject              | s3:PutObject
            CreateMultipartUpload   | s3:PutObject
            UploadPart              | s3:PutObject
            UploadPartCopy          | s3:PutObject
            CompleteMultipartUpload | s3:PutObject
            DeleteObject            | s3:DeleteObject
            DeleteObjects           | s3:DeleteObject
            AbortMultipartUpload    | s3:AbortMultipartUpload
            ListParts               | s3:ListMultipartUploadParts
            GetObjectAcl            | s3:GetObjectAcl
            PutObjectAcl            | s3:PutObjectAcl
            GetObjectTagging        | s3:GetObjectTagging
            PutObjectTagging        | s3:PutObjectTagging
            DeleteObjectTagging     | s3:DeleteObjectTagging
            GetObjectRetention      | s3:GetObjectRetention
            PutObjectRetention      | s3:PutObjectRetention
            GetObjectLegalHold      | s3:GetObjectLegalHold
            PutObjectLegalHold      | s3:PutObjectLegalHold
            BypassGovernanceRetention | s3:BypassGovernanceRetention
            GetObjectAttributes     | s3:GetObjectAttributes
            GetObjectTorrent        | s3:GetObjectTorrent
            RestoreObject           | s3:RestoreObject
            """)
    void objectOperationsActOnTheObject(String operation, String action) {
        assertThat(ActionAndResource.of(operation, "photos", "2024/cat.jpg"))
                .isEqualTo(new ActionAndResource(action, "arn:aws:s3:::photos/2024/cat.jpg"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GetObject           | s3:GetObjectVersion
            HeadObject          | s3:GetObjectVersion
            DeleteObject        | s3:DeleteObjectVersion
            DeleteObjects       | s3:DeleteObjectVersion
            GetObjectAcl        | s3:GetObjectVersionAcl
            PutObjectAcl        | s3:PutObjectVersionAcl
            GetObjectTagging    | s3:GetObjectVersionTagging
            PutObjectTagging    | s3:PutObjectVersionTagging
            DeleteObjectTagging | s3:DeleteObjectVersionTagging
            GetObjectAttributes | s3:GetObjectVersionAttributes
            GetObjectTorrent    | s3:GetObjectVersionTorrent
            PutObject           | s3:PutObject
            GetObjectRetention  | s3:GetObjectRetention
            """)
    void aVersionIdAsksForTheVersionAction(String operation, String action) {
        assertThat(ActionAndResource.of(operation, "photos", "cat.jpg", "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY"))
                .isEqualTo(new ActionAndResource(action, "arn:aws:s3:::photos/cat.jpg"));
        assertThat(ActionAndResource.of(operation, "photos", "cat.jpg", "null").action()).isEqualTo(action);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            CreateBucket                     | s3:CreateBucket
            DeleteBucket                     | s3:DeleteBucket
            HeadBucket                       | s3:ListBucket
            ListObjects                      | s3:ListBucket
            ListObjectsV2                    | s3:ListBucket
            ListObjectVersions               | s3:ListBucketVersions
            ListMultipartUploads             | s3:ListBucketMultipartUploads
            GetBucketLocation                | s3:GetBucketLocation
            GetBucketVersioning              | s3:GetBucketVersioning
            PutBucketVersioning              | s3:PutBucketVersioning
            GetBucketPolicy                  | s3:GetBucketPolicy
            PutBucketPolicy                  | s3:PutBucketPolicy
            DeleteBucketPolicy               | s3:DeleteBucketPolicy
            GetBucketPolicyStatus            | s3:GetBucketPolicyStatus
            GetBucketAcl                     | s3:GetBucketAcl
            PutBucketAcl                     | s3:PutBucketAcl
            GetBucketTagging                 | s3:GetBucketTagging
            PutBucketTagging                 | s3:PutBucketTagging
            DeleteBucketTagging              | s3:PutBucketTagging
            GetBucketCors                    | s3:GetBucketCORS
            PutBucketCors                    | s3:PutBucketCORS
            DeleteBucketCors                 | s3:PutBucketCORS
            GetBucketWebsite                 | s3:GetBucketWebsite
            PutBucketWebsite                 | s3:PutBucketWebsite
            DeleteBucketWebsite              | s3:DeleteBucketWebsite
            GetBucketLifecycleConfiguration  | s3:GetLifecycleConfiguration
            PutBucketLifecycleConfiguration  | s3:PutLifecycleConfiguration
            DeleteBucketLifecycle            | s3:PutLifecycleConfiguration
            GetObjectLockConfiguration       | s3:GetBucketObjectLockConfiguration
            PutObjectLockConfiguration       | s3:PutBucketObjectLockConfiguration
            GetBucketEncryption              | s3:GetEncryptionConfiguration
            DeleteBucketEncryption           | s3:PutEncryptionConfiguration
            GetBucketNotificationConfiguration | s3:GetBucketNotification
            PutBucketReplication             | s3:PutReplicationConfiguration
            GetPublicAccessBlock             | s3:GetBucketPublicAccessBlock
            DeleteBucketOwnershipControls    | s3:PutBucketOwnershipControls
            GetBucketAccelerateConfiguration | s3:GetAccelerateConfiguration
            ListBucketMetricsConfigurations  | s3:GetMetricsConfiguration
            DeleteBucketInventoryConfiguration | s3:PutInventoryConfiguration
            GetBucketIntelligentTieringConfiguration | s3:GetIntelligentTieringConfiguration
            """)
    void bucketOperationsActOnTheBucket(String operation, String action) {
        assertThat(ActionAndResource.of(operation, "photos", null))
                .isEqualTo(new ActionAndResource(action, "arn:aws:s3:::photos"));
        assertThat(ActionAndResource.of(operation, "photos", "ignored", "ignored").resource())
                .isEqualTo("arn:aws:s3:::photos");
    }

    @Test
    void listBucketsActsOnAllBuckets() {
        assertThat(ActionAndResource.of("ListBuckets", null, null))
                .isEqualTo(new ActionAndResource("s3:ListAllMyBuckets", "arn:aws:s3:::*"));
    }

    @Test
    void everyOperationHangarRoutesHasAnAction() {
        // Preflights are answered from CORS rules, not authorized; sub-resource operations are named below.
        List<String> routed = new java.util.ArrayList<>(Arrays.stream(S3Operation.class.getPermittedSubclasses())
                .filter(type -> type.isRecord())
                .filter(type -> type != S3Operation.Unsupported.class && type != S3Operation.PreflightRequest.class
                        && type != S3Operation.BucketConfiguration.class && type != S3Operation.ObjectConfiguration.class)
                .map(Class::getSimpleName)
                .toList());
        for (S3Operation.BucketSubresource resource : S3Operation.BucketSubresource.values()) {
            for (S3Operation.Verb verb : S3Operation.Verb.values()) {
                if ((verb != S3Operation.Verb.DELETE || resource.deletable())
                        && (verb != S3Operation.Verb.PUT || resource.writable())) {
                    routed.add(new S3Operation.BucketConfiguration(resource, verb).name());
                }
            }
        }
        for (S3Operation.ObjectSubresource resource : S3Operation.ObjectSubresource.values()) {
            for (S3Operation.Verb verb : S3Operation.Verb.values()) {
                if (verb != S3Operation.Verb.DELETE || resource.deletable()) {
                    routed.add(new S3Operation.ObjectConfiguration(resource, verb).name());
                }
            }
        }
        assertThat(routed).isNotEmpty().allSatisfy(name -> assertThat(ActionAndResource.knows(name)).as(name).isTrue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"GetBucketVersioning", "PutBucketVersioning", "ListObjectVersions", "GetBucketAcl",
        "PutBucketAcl", "GetBucketPolicy", "PutBucketPolicy", "DeleteBucketPolicy", "GetBucketPolicyStatus",
        "GetBucketCors", "PutBucketCors", "DeleteBucketCors", "GetBucketWebsite", "PutBucketWebsite",
        "DeleteBucketWebsite", "GetBucketLifecycleConfiguration", "PutBucketLifecycleConfiguration",
        "DeleteBucketLifecycle", "GetBucketTagging", "PutBucketTagging", "DeleteBucketTagging",
        "GetBucketEncryption", "PutBucketEncryption", "DeleteBucketEncryption", "GetObjectLockConfiguration",
        "PutObjectLockConfiguration", "GetBucketReplication", "PutBucketReplication", "DeleteBucketReplication",
        "GetBucketLogging", "PutBucketLogging", "GetBucketNotificationConfiguration",
        "PutBucketNotificationConfiguration", "GetBucketRequestPayment", "PutBucketRequestPayment",
        "GetBucketAccelerateConfiguration", "PutBucketAccelerateConfiguration", "GetBucketOwnershipControls",
        "PutBucketOwnershipControls", "DeleteBucketOwnershipControls", "GetPublicAccessBlock",
        "PutPublicAccessBlock", "DeletePublicAccessBlock", "GetBucketAnalyticsConfiguration",
        "PutBucketAnalyticsConfiguration", "DeleteBucketAnalyticsConfiguration", "GetBucketInventoryConfiguration",
        "PutBucketInventoryConfiguration", "DeleteBucketInventoryConfiguration", "GetBucketMetricsConfiguration",
        "PutBucketMetricsConfiguration", "DeleteBucketMetricsConfiguration",
        "GetBucketIntelligentTieringConfiguration", "PutBucketIntelligentTieringConfiguration",
        "DeleteBucketIntelligentTieringConfiguration", "GetObjectAcl", "PutObjectAcl", "GetObjectTagging",
        "PutObjectTagging", "DeleteObjectTagging", "GetObjectRetention", "PutObjectRetention", "GetObjectLegalHold",
        "PutObjectLegalHold", "GetObjectAttributes", "GetObjectTorrent", "RestoreObject", "SelectObjectContent",
        "PostObject"})
    void everyOperationNameTheRouterGivesUnsupportedOperationsHasAnAction(String operation) {
        assertThat(ActionAndResource.knows(operation)).isTrue();
    }

    @Test
    void unknownOperationsAreRefused() {
        assertThat(ActionAndResource.knows("PutObjectTorrent")).isFalse();
        assertThatThrownBy(() -> ActionAndResource.of("PutObjectTorrent", "b", "k"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PutObjectTorrent");
    }

    @Test
    void objectOperationsNeedAKeyAndBucketOperationsABucket() {
        assertThatThrownBy(() -> ActionAndResource.of("GetObject", "b", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ActionAndResource.of("DeleteObjects", "b", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("once per key");
        assertThatThrownBy(() -> ActionAndResource.of("ListObjects", null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ActionAndResource.of("CreateBucket", "", null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysGoIntoTheArnAsTheyAre() {
        String key = "a b/ü/%20/?x=1";
        assertThat(ActionAndResource.of("GetObject", "b", key).resource()).isEqualTo("arn:aws:s3:::b/a b/ü/%20/?x=1");
        assertThat(ActionAndResource.of("GetObject", "b", "").resource()).isEqualTo("arn:aws:s3:::b/");
    }

    @Test
    void everyMappedActionIsInTheCatalogueAPolicyIsValidatedAgainst() {
        for (S3Action action : S3Action.values()) {
            assertThat(S3Action.fromIamName(action.iamName())).isEqualTo(action);
            assertThat(S3Action.fromIamName(action.iamName().toUpperCase(java.util.Locale.ROOT))).isEqualTo(action);
        }
        assertThat(S3Action.fromIamName("s3:Nothing")).isNull();
    }
}

package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AccessControlPolicy;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.BucketLifecycleConfiguration;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CORSConfiguration;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.DefaultRetention;
import software.amazon.awssdk.services.s3.model.ErrorDocument;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.GetBucketCorsResponse;
import software.amazon.awssdk.services.s3.model.GetBucketLifecycleConfigurationResponse;
import software.amazon.awssdk.services.s3.model.GetBucketPolicyResponse;
import software.amazon.awssdk.services.s3.model.GetBucketVersioningResponse;
import software.amazon.awssdk.services.s3.model.GetBucketWebsiteResponse;
import software.amazon.awssdk.services.s3.model.GetObjectLockConfigurationResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.IndexDocument;
import software.amazon.awssdk.services.s3.model.LifecycleExpiration;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.LifecycleRuleFilter;
import software.amazon.awssdk.services.s3.model.MFADelete;
import software.amazon.awssdk.services.s3.model.ObjectLockConfiguration;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRule;
import software.amazon.awssdk.services.s3.model.Owner;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Protocol;
import software.amazon.awssdk.services.s3.model.RedirectAllRequestsTo;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.Transition;
import software.amazon.awssdk.services.s3.model.TransitionStorageClass;
import software.amazon.awssdk.services.s3.model.Type;
import software.amazon.awssdk.services.s3.model.WebsiteConfiguration;

/**
 * The bucket configuration operations through the AWS SDK v2: versioning, tagging, CORS, website,
 * lifecycle, policy, ACL and Object Lock configuration, each with its success path and the errors
 * S3 documents; and, end to end, that a bucket policy or ACL opens a bucket to anonymous requests
 * and that a Deny statement closes it to a key its permissions would let in.
 */
class BucketConfigurationIT extends AbstractS3IT {

    private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    private static final String OWNER_ID = "hangar";

    @Autowired
    private ClusterNode node;

    // Versioning

    @Test
    void aBucketNeverVersionedAnswersAnEmptyVersioningConfiguration() {
        String bucket = createBucket("ver-never");
        GetBucketVersioningResponse versioning = s3.getBucketVersioning(request -> request.bucket(bucket));
        assertThat(versioning.status()).isNull();
        assertThat(versioning.mfaDelete()).isNull();
    }

    @Test
    void versioningCanBeEnabledThenSuspended() {
        String bucket = createBucket("ver-states");
        int status = s3.putBucketVersioning(request -> request.bucket(bucket)
                .versioningConfiguration(configuration -> configuration.status(BucketVersioningStatus.ENABLED)))
            .sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(200);
        assertThat(s3.getBucketVersioning(request -> request.bucket(bucket)).status())
            .isEqualTo(BucketVersioningStatus.ENABLED);

        s3.putBucketVersioning(request -> request.bucket(bucket)
            .versioningConfiguration(configuration -> configuration.status(BucketVersioningStatus.SUSPENDED)));
        assertThat(s3.getBucketVersioning(request -> request.bucket(bucket)).status())
            .isEqualTo(BucketVersioningStatus.SUSPENDED);
    }

    @Test
    void mfaDeleteDisabledIsKeptAndTheStatusWithIt() {
        String bucket = createBucket("ver-mfa-off");
        s3.putBucketVersioning(request -> request.bucket(bucket).versioningConfiguration(configuration ->
            configuration.status(BucketVersioningStatus.ENABLED).mfaDelete(MFADelete.DISABLED)));
        GetBucketVersioningResponse versioning = s3.getBucketVersioning(request -> request.bucket(bucket));
        assertThat(versioning.status()).isEqualTo(BucketVersioningStatus.ENABLED);
        assertThat(versioning.mfaDeleteAsString()).isEqualTo("Disabled");
    }

    @Test
    void enablingMfaDeleteIsNotImplemented() {
        String bucket = createBucket("ver-mfa");
        assertS3Error(() -> s3.putBucketVersioning(request -> request.bucket(bucket).mfa("SERIAL 123456")
            .versioningConfiguration(configuration ->
                configuration.status(BucketVersioningStatus.ENABLED).mfaDelete(MFADelete.ENABLED))), 501,
            "NotImplemented");
        assertThat(s3.getBucketVersioning(request -> request.bucket(bucket)).status()).isNull();
    }

    @Test
    void anUnknownVersioningStatusIsMalformedXml() {
        String bucket = createBucket("ver-bad");
        assertS3Error(() -> s3.putBucketVersioning(request -> request.bucket(bucket)
            .versioningConfiguration(configuration -> configuration.status("Paused"))), 400, "MalformedXML");
    }

    @Test
    void versioningOfABucketWithObjectLockCannotBeSuspended() {
        String bucket = createLockedBucket("ver-locked");
        assertS3Error(() -> s3.putBucketVersioning(request -> request.bucket(bucket)
                .versioningConfiguration(configuration -> configuration.status(BucketVersioningStatus.SUSPENDED))),
            409, "InvalidBucketState");
        assertThat(s3.getBucketVersioning(request -> request.bucket(bucket)).status())
            .isEqualTo(BucketVersioningStatus.ENABLED);
    }

    // Tagging

    @Test
    void bucketTagsArePutReadReplacedAndDeleted() {
        String bucket = createBucket("tags");
        assertS3Error(() -> s3.getBucketTagging(request -> request.bucket(bucket)), 404, "NoSuchTagSet");

        int status = s3.putBucketTagging(request -> request.bucket(bucket).tagging(tagging -> tagging.tagSet(
            Tag.builder().key("team").value("storage").build(),
            Tag.builder().key("cost center").value("").build()))).sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(204);
        assertThat(s3.getBucketTagging(request -> request.bucket(bucket)).tagSet())
            .extracting(Tag::key, Tag::value)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("team", "storage"),
                org.assertj.core.groups.Tuple.tuple("cost center", ""));

        s3.putBucketTagging(request -> request.bucket(bucket).tagging(tagging -> tagging.tagSet(
            Tag.builder().key("env").value("test").build())));
        assertThat(s3.getBucketTagging(request -> request.bucket(bucket)).tagSet())
            .extracting(Tag::key).containsExactly("env");

        int deleted = s3.deleteBucketTagging(request -> request.bucket(bucket)).sdkHttpResponse().statusCode();
        assertThat(deleted).isEqualTo(204);
        assertS3Error(() -> s3.getBucketTagging(request -> request.bucket(bucket)), 404, "NoSuchTagSet");
        assertThat(s3.deleteBucketTagging(request -> request.bucket(bucket)).sdkHttpResponse().statusCode())
            .isEqualTo(204);
    }

    @Test
    void aBucketTakesFiftyTagsAndNoMore() {
        String bucket = createBucket("tags-limit");
        List<Tag> fifty = IntStream.range(0, 50).mapToObj(i -> Tag.builder().key("k" + i).value("v").build()).toList();
        s3.putBucketTagging(request -> request.bucket(bucket).tagging(tagging -> tagging.tagSet(fifty)));
        assertThat(s3.getBucketTagging(request -> request.bucket(bucket)).tagSet()).hasSize(50);

        List<Tag> fiftyOne = new ArrayList<>(fifty);
        fiftyOne.add(Tag.builder().key("k50").value("v").build());
        assertS3Error(() -> s3.putBucketTagging(request -> request.bucket(bucket)
            .tagging(tagging -> tagging.tagSet(fiftyOne))), 400, "InvalidTag");
    }

    @Test
    void invalidBucketTagsAreRefused() {
        String bucket = createBucket("tags-bad");
        assertS3Error(() -> s3.putBucketTagging(request -> request.bucket(bucket).tagging(tagging -> tagging.tagSet(
            Tag.builder().key("same").value("1").build(), Tag.builder().key("same").value("2").build()))),
            400, "InvalidTag");
        assertS3Error(() -> s3.putBucketTagging(request -> request.bucket(bucket).tagging(tagging -> tagging.tagSet(
            Tag.builder().key("k".repeat(129)).value("v").build()))), 400, "InvalidTag");
        assertS3Error(() -> s3.putBucketTagging(request -> request.bucket(bucket).tagging(tagging -> tagging.tagSet(
            Tag.builder().key("aws:createdBy").value("me").build()))), 400, "InvalidTag");
        assertS3Error(() -> s3.getBucketTagging(request -> request.bucket(bucket)), 404, "NoSuchTagSet");
    }

    // CORS

    @Test
    void corsConfigurationIsPutReadAndDeleted() {
        String bucket = createBucket("cors");
        assertS3Error(() -> s3.getBucketCors(request -> request.bucket(bucket)), 404, "NoSuchCORSConfiguration");

        CORSRule rule = CORSRule.builder().id("web").allowedOrigins("https://*.example.com")
            .allowedMethods("GET", "PUT").allowedHeaders("*").exposeHeaders("ETag").maxAgeSeconds(3000).build();
        int status = s3.putBucketCors(request -> request.bucket(bucket)
            .corsConfiguration(CORSConfiguration.builder().corsRules(rule).build())).sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(200);

        GetBucketCorsResponse cors = s3.getBucketCors(request -> request.bucket(bucket));
        assertThat(cors.corsRules()).containsExactly(rule);

        assertThat(s3.deleteBucketCors(request -> request.bucket(bucket)).sdkHttpResponse().statusCode()).isEqualTo(204);
        assertS3Error(() -> s3.getBucketCors(request -> request.bucket(bucket)), 404, "NoSuchCORSConfiguration");
    }

    @Test
    void invalidCorsConfigurationsAreRefused() {
        String bucket = createBucket("cors-bad");
        assertS3Error(() -> s3.putBucketCors(request -> request.bucket(bucket).corsConfiguration(cors -> cors.corsRules(
            CORSRule.builder().allowedOrigins("*").allowedMethods("PATCH").build()))), 400, "InvalidRequest");
        assertS3Error(() -> s3.putBucketCors(request -> request.bucket(bucket).corsConfiguration(cors -> cors.corsRules(
            CORSRule.builder().allowedOrigins("https://*.*.example.com").allowedMethods("GET").build()))),
            400, "InvalidRequest");
        assertS3Error(() -> s3.putBucketCors(request -> request.bucket(bucket).corsConfiguration(cors -> cors.corsRules(
            CORSRule.builder().allowedMethods("GET").build()))), 400, "MalformedXML");
        assertS3Error(() -> s3.getBucketCors(request -> request.bucket(bucket)), 404, "NoSuchCORSConfiguration");
    }

    // Website

    @Test
    void websiteConfigurationIsPutReadAndDeleted() {
        String bucket = createBucket("site");
        assertS3Error(() -> s3.getBucketWebsite(request -> request.bucket(bucket)), 404, "NoSuchWebsiteConfiguration");

        int status = s3.putBucketWebsite(request -> request.bucket(bucket).websiteConfiguration(WebsiteConfiguration.builder()
            .indexDocument(IndexDocument.builder().suffix("index.html").build())
            .errorDocument(ErrorDocument.builder().key("errors/404.html").build())
            .build())).sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(200);
        GetBucketWebsiteResponse website = s3.getBucketWebsite(request -> request.bucket(bucket));
        assertThat(website.indexDocument().suffix()).isEqualTo("index.html");
        assertThat(website.errorDocument().key()).isEqualTo("errors/404.html");
        assertThat(website.redirectAllRequestsTo()).isNull();

        s3.putBucketWebsite(request -> request.bucket(bucket).websiteConfiguration(WebsiteConfiguration.builder()
            .redirectAllRequestsTo(RedirectAllRequestsTo.builder().hostName("example.com").protocol(Protocol.HTTPS).build())
            .build()));
        GetBucketWebsiteResponse redirect = s3.getBucketWebsite(request -> request.bucket(bucket));
        assertThat(redirect.indexDocument()).isNull();
        assertThat(redirect.redirectAllRequestsTo().hostName()).isEqualTo("example.com");
        assertThat(redirect.redirectAllRequestsTo().protocol()).isEqualTo(Protocol.HTTPS);

        assertThat(s3.deleteBucketWebsite(request -> request.bucket(bucket)).sdkHttpResponse().statusCode())
            .isEqualTo(204);
        assertS3Error(() -> s3.getBucketWebsite(request -> request.bucket(bucket)), 404, "NoSuchWebsiteConfiguration");
    }

    @Test
    void invalidWebsiteConfigurationsAreRefused() {
        String bucket = createBucket("site-bad");
        assertS3Error(() -> s3.putBucketWebsite(request -> request.bucket(bucket).websiteConfiguration(website ->
            website.errorDocument(ErrorDocument.builder().key("error.html").build()))), 400, "InvalidArgument");
        assertS3Error(() -> s3.putBucketWebsite(request -> request.bucket(bucket).websiteConfiguration(website ->
            website.indexDocument(IndexDocument.builder().suffix("dir/index.html").build()))), 400, "InvalidArgument");
        assertS3Error(() -> s3.putBucketWebsite(request -> request.bucket(bucket).websiteConfiguration(website ->
            website.indexDocument(IndexDocument.builder().suffix("index.html").build())
                .redirectAllRequestsTo(RedirectAllRequestsTo.builder().hostName("example.com").build()))),
            400, "InvalidArgument");
        assertS3Error(() -> s3.getBucketWebsite(request -> request.bucket(bucket)), 404, "NoSuchWebsiteConfiguration");
    }

    // Lifecycle

    @Test
    void lifecycleConfigurationIsPutReadAndDeleted() {
        String bucket = createBucket("lifecycle");
        assertS3Error(() -> s3.getBucketLifecycleConfiguration(request -> request.bucket(bucket)), 404,
            "NoSuchLifecycleConfiguration");

        LifecycleRule logs = LifecycleRule.builder().id("expire-logs")
            .filter(LifecycleRuleFilter.builder().prefix("logs/").build())
            .status(ExpirationStatus.ENABLED)
            .expiration(LifecycleExpiration.builder().days(30).build())
            .noncurrentVersionExpiration(expiration -> expiration.noncurrentDays(7))
            .build();
        LifecycleRule uploads = LifecycleRule.builder()
            .filter(LifecycleRuleFilter.builder().prefix("").build())
            .status(ExpirationStatus.DISABLED)
            .abortIncompleteMultipartUpload(abort -> abort.daysAfterInitiation(2))
            .build();
        int status = s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket)
                .lifecycleConfiguration(BucketLifecycleConfiguration.builder().rules(logs, uploads).build()))
            .sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(200);

        GetBucketLifecycleConfigurationResponse lifecycle =
            s3.getBucketLifecycleConfiguration(request -> request.bucket(bucket));
        assertThat(lifecycle.rules()).hasSize(2);
        LifecycleRule first = lifecycle.rules().get(0);
        assertThat(first.id()).isEqualTo("expire-logs");
        assertThat(first.filter().prefix()).isEqualTo("logs/");
        assertThat(first.status()).isEqualTo(ExpirationStatus.ENABLED);
        assertThat(first.expiration().days()).isEqualTo(30);
        assertThat(first.noncurrentVersionExpiration().noncurrentDays()).isEqualTo(7);
        LifecycleRule second = lifecycle.rules().get(1);
        assertThat(second.id()).as("S3 makes up an ID for a rule sent without one").isNotBlank();
        assertThat(second.status()).isEqualTo(ExpirationStatus.DISABLED);
        assertThat(second.abortIncompleteMultipartUpload().daysAfterInitiation()).isEqualTo(2);
        assertThat(s3.getBucketLifecycleConfiguration(request -> request.bucket(bucket)).rules().get(1).id())
            .as("the made-up ID is stored, not made up again").isEqualTo(second.id());

        assertThat(s3.deleteBucketLifecycle(request -> request.bucket(bucket)).sdkHttpResponse().statusCode())
            .isEqualTo(204);
        assertS3Error(() -> s3.getBucketLifecycleConfiguration(request -> request.bucket(bucket)), 404,
            "NoSuchLifecycleConfiguration");
    }

    @Test
    void lifecycleTransitionsAreNotImplemented() {
        String bucket = createBucket("lifecycle-tr");
        assertS3Error(() -> s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket)
            .lifecycleConfiguration(configuration -> configuration.rules(LifecycleRule.builder().id("archive")
                .filter(LifecycleRuleFilter.builder().prefix("").build())
                .status(ExpirationStatus.ENABLED)
                .transitions(Transition.builder().days(30).storageClass(TransitionStorageClass.GLACIER).build())
                .build()))), 501, "NotImplemented");
        assertS3Error(() -> s3.getBucketLifecycleConfiguration(request -> request.bucket(bucket)), 404,
            "NoSuchLifecycleConfiguration");
    }

    @Test
    void invalidLifecycleConfigurationsAreRefused() {
        String bucket = createBucket("lifecycle-bad");
        LifecycleRule zeroDays = LifecycleRule.builder().id("zero")
            .filter(LifecycleRuleFilter.builder().prefix("").build())
            .status(ExpirationStatus.ENABLED)
            .expiration(LifecycleExpiration.builder().days(0).build())
            .build();
        assertS3Error(() -> s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket)
            .lifecycleConfiguration(configuration -> configuration.rules(zeroDays))), 400, "InvalidArgument");

        LifecycleRule expire = LifecycleRule.builder().id("same")
            .filter(LifecycleRuleFilter.builder().prefix("a/").build())
            .status(ExpirationStatus.ENABLED)
            .expiration(LifecycleExpiration.builder().days(1).build())
            .build();
        assertS3Error(() -> s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket)
            .lifecycleConfiguration(configuration -> configuration.rules(expire, expire))), 400, "InvalidArgument");

        LifecycleRule noAction = LifecycleRule.builder().id("idle")
            .filter(LifecycleRuleFilter.builder().prefix("").build())
            .status(ExpirationStatus.ENABLED)
            .build();
        assertS3Error(() -> s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket)
            .lifecycleConfiguration(configuration -> configuration.rules(noAction))), 400, "InvalidRequest");
        assertS3Error(() -> s3.getBucketLifecycleConfiguration(request -> request.bucket(bucket)), 404,
            "NoSuchLifecycleConfiguration");
    }

    // Policy

    @Test
    void policyIsPutReadAsJsonAndDeleted() {
        String bucket = createBucket("policy");
        assertS3Error(() -> s3.getBucketPolicy(request -> request.bucket(bucket)), 404, "NoSuchBucketPolicy");

        String policy = publicReadPolicy(bucket);
        int status = s3.putBucketPolicy(request -> request.bucket(bucket).policy(policy)).sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(204);

        GetBucketPolicyResponse stored = s3.getBucketPolicy(request -> request.bucket(bucket));
        assertThat(stored.policy()).isEqualTo(policy);
        assertThat(stored.sdkHttpResponse().firstMatchingHeader("Content-Type")).hasValueSatisfying(
            type -> assertThat(type).startsWith("application/json"));

        assertThat(s3.deleteBucketPolicy(request -> request.bucket(bucket)).sdkHttpResponse().statusCode())
            .isEqualTo(204);
        assertS3Error(() -> s3.getBucketPolicy(request -> request.bucket(bucket)), 404, "NoSuchBucketPolicy");
        assertThat(s3.deleteBucketPolicy(request -> request.bucket(bucket)).sdkHttpResponse().statusCode())
            .isEqualTo(204);
    }

    @Test
    void invalidPoliciesAreMalformedPolicy() {
        String bucket = createBucket("policy-bad");
        assertS3Error(() -> s3.putBucketPolicy(request -> request.bucket(bucket).policy("{not json")), 400,
            "MalformedPolicy");
        assertS3Error(() -> s3.putBucketPolicy(request -> request.bucket(bucket).policy(
            publicReadPolicy("some-other-bucket"))), 400, "MalformedPolicy");
        assertS3Error(() -> s3.putBucketPolicy(request -> request.bucket(bucket).policy(
            publicReadPolicy(bucket).replace("\"Allow\"", "\"Perhaps\""))), 400, "MalformedPolicy");
        assertS3Error(() -> s3.getBucketPolicy(request -> request.bucket(bucket)), 404, "NoSuchBucketPolicy");
    }

    @Test
    void aPolicyNamingAnAccessKeyThatDoesNotExistIsRefused() {
        String bucket = createBucket("policy-who");
        var error = assertS3Error(() -> s3.putBucketPolicy(request -> request.bucket(bucket)
            .policy(denyKeyPolicy(bucket, "HANGARNOSUCHKEY00001"))), 400, "MalformedPolicy");
        assertThat(error.awsErrorDetails().errorMessage()).isEqualTo("Invalid principal in policy");

        s3.putBucketPolicy(request -> request.bucket(bucket).policy(denyKeyPolicy(bucket, ACCESS_KEY)));
        assertThat(s3.getBucketPolicy(request -> request.bucket(bucket)).policy()).contains(ACCESS_KEY);
        s3.deleteBucketPolicy(request -> request.bucket(bucket));
    }

    @Test
    void aPolicyOverTwentyKibibytesIsRefused() {
        String bucket = createBucket("policy-big");
        StringBuilder statements = new StringBuilder();
        int index = 0;
        while (statements.length() <= 20 * 1024) {
            statements.append(index == 0 ? "" : ",").append("""
                {"Sid":"S%d","Effect":"Allow","Principal":"*","Action":"s3:GetObject",\
                "Resource":"arn:aws:s3:::%s/prefix-%d/*"}""".formatted(index, bucket, index));
            index++;
        }
        String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}";
        assertS3Error(() -> s3.putBucketPolicy(request -> request.bucket(bucket).policy(policy)), 400,
            "MalformedPolicy");
        assertS3Error(() -> s3.getBucketPolicy(request -> request.bucket(bucket)), 404, "NoSuchBucketPolicy");
    }

    @Test
    void aPublicReadPolicyLetsAnonymousRequestsReadObjects() {
        String bucket = createBucket("policy-anon");
        s3.putObject(request -> request.bucket(bucket).key("hello.txt"), RequestBody.fromString("hello, world"));

        RawS3.Response denied = anonymousGet(bucket, "hello.txt");
        assertThat(denied.status()).as("%s", denied).isEqualTo(403);
        assertThat(denied.errorCode()).contains("AccessDenied");

        s3.putBucketPolicy(request -> request.bucket(bucket).policy(publicReadPolicy(bucket)));
        RawS3.Response allowed = anonymousGet(bucket, "hello.txt");
        assertThat(allowed.status()).as("%s", allowed).isEqualTo(200);
        assertThat(allowed.bodyText()).isEqualTo("hello, world");
        RawS3.Response listing = anonymousGet(bucket, null);
        assertThat(listing.status()).as("the policy allows s3:GetObject, not s3:ListBucket: %s", listing)
            .isEqualTo(403);

        s3.deleteBucketPolicy(request -> request.bucket(bucket));
        RawS3.Response deniedAgain = anonymousGet(bucket, "hello.txt");
        assertThat(deniedAgain.status()).as("%s", deniedAgain).isEqualTo(403);
        assertThat(deniedAgain.errorCode()).contains("AccessDenied");
    }

    @Test
    void aDenyStatementBlocksAKeyItsPermissionsLetIn() {
        String bucket = createBucket("policy-deny");
        s3.putObject(request -> request.bucket(bucket).key("report.csv"), RequestBody.fromString("a,b\n1,2\n"));
        String keyId = "HANGARITREADER" + randomSuffix(6).toUpperCase(java.util.Locale.ROOT);
        String secret = "reader-secret-" + randomSuffix(24);
        node.metadata().putAccessKey(new AccessKey(keyId, secret, Instant.now(), false,
            Map.of(bucket, new BucketPermission(true, false, false))));
        try (S3Client reader = clientFor(keyId, secret)) {
            assertThat(reader.getObjectAsBytes(request -> request.bucket(bucket).key("report.csv")).asUtf8String())
                .isEqualTo("a,b\n1,2\n");

            s3.putBucketPolicy(request -> request.bucket(bucket).policy(denyKeyPolicy(bucket, keyId)));
            assertS3Error(() -> reader.getObjectAsBytes(request -> request.bucket(bucket).key("report.csv")), 403,
                "AccessDenied");
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("report.csv")).asUtf8String())
                .as("the root key is not named by the Deny").isEqualTo("a,b\n1,2\n");

            s3.deleteBucketPolicy(request -> request.bucket(bucket));
            assertThat(reader.getObjectAsBytes(request -> request.bucket(bucket).key("report.csv")).asUtf8String())
                .isEqualTo("a,b\n1,2\n");
        } finally {
            node.metadata().deleteAccessKey(keyId);
        }
    }

    // ACL

    @Test
    void aNewBucketHasThePrivateAcl() {
        String bucket = createBucket("acl-default");
        GetBucketAclResponse acl = s3.getBucketAcl(request -> request.bucket(bucket));
        assertThat(acl.owner().id()).isEqualTo(OWNER_ID);
        assertThat(acl.grants()).hasSize(1);
        Grant grant = acl.grants().getFirst();
        assertThat(grant.grantee().type()).isEqualTo(Type.CANONICAL_USER);
        assertThat(grant.grantee().id()).isEqualTo(OWNER_ID);
        assertThat(grant.permission()).isEqualTo(Permission.FULL_CONTROL);
    }

    @Test
    void aCannedAclSetByHeaderShowsItsGrantsAndOpensListing() {
        String bucket = createBucket("acl-canned");
        assertThat(anonymousGet(bucket, null).status()).isEqualTo(403);

        int status = s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ))
            .sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(200);
        GetBucketAclResponse acl = s3.getBucketAcl(request -> request.bucket(bucket));
        assertThat(acl.grants()).extracting(grant -> grant.grantee().type(), grant -> grant.grantee().id(),
                grant -> grant.grantee().uri(), Grant::permission)
            .containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(Type.CANONICAL_USER, OWNER_ID, null, Permission.FULL_CONTROL),
                org.assertj.core.groups.Tuple.tuple(Type.GROUP, null, ALL_USERS, Permission.READ));
        RawS3.Response listing = anonymousGet(bucket, null);
        assertThat(listing.status()).as("public-read lets anyone list: %s", listing).isEqualTo(200);

        s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE));
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants()).hasSize(1);
        assertThat(anonymousGet(bucket, null).status()).isEqualTo(403);
    }

    @Test
    void aGrantListShapedLikeACannedAclIsAccepted() {
        String bucket = createBucket("acl-body");
        AccessControlPolicy publicRead = AccessControlPolicy.builder()
            .owner(Owner.builder().id(OWNER_ID).build())
            .grants(
                Grant.builder().grantee(Grantee.builder().type(Type.GROUP).uri(ALL_USERS).build())
                    .permission(Permission.READ).build(),
                Grant.builder().grantee(Grantee.builder().type(Type.CANONICAL_USER).id(OWNER_ID).build())
                    .permission(Permission.FULL_CONTROL).build())
            .build();
        s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(publicRead));
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants())
            .extracting(Grant::permission).containsExactlyInAnyOrder(Permission.FULL_CONTROL, Permission.READ);
    }

    @Test
    void aclsS3DoesNotHaveAreRefused() {
        String bucket = createBucket("acl-bad");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).acl("world-writable")), 400,
            "InvalidArgument");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket)
            .grantRead("uri=\"http://acs.amazonaws.com/groups/global/Nobody\"")), 400, "InvalidArgument");
        AccessControlPolicy unknownGroup = AccessControlPolicy.builder()
            .owner(Owner.builder().id(OWNER_ID).build())
            .grants(Grant.builder().grantee(Grantee.builder().type(Type.GROUP)
                .uri("http://acs.amazonaws.com/groups/global/Nobody").build()).permission(Permission.READ).build())
            .build();
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(unknownGroup)), 400,
            "InvalidArgument");
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants()).hasSize(1);
    }

    // Object Lock

    @Test
    void aBucketWithoutObjectLockHasNoConfiguration() {
        String bucket = createBucket("lock-none");
        assertS3Error(() -> s3.getObjectLockConfiguration(request -> request.bucket(bucket)), 404,
            "ObjectLockConfigurationNotFoundError");
    }

    @Test
    void objectLockNeedsVersioningEnabledOnAnExistingBucket() {
        String bucket = createBucket("lock-unversioned");
        assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(bucket)
                .objectLockConfiguration(lock -> lock.objectLockEnabled(ObjectLockEnabled.ENABLED))),
            409, "InvalidBucketState");
        s3.putBucketVersioning(request -> request.bucket(bucket)
            .versioningConfiguration(configuration -> configuration.status(BucketVersioningStatus.SUSPENDED)));
        assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(bucket)
                .objectLockConfiguration(lock -> lock.objectLockEnabled(ObjectLockEnabled.ENABLED))),
            409, "InvalidBucketState");
        assertS3Error(() -> s3.getObjectLockConfiguration(request -> request.bucket(bucket)), 404,
            "ObjectLockConfigurationNotFoundError");
    }

    @Test
    void objectLockIsEnabledOnAVersionedBucketAndItsDefaultRetentionChanged() {
        String bucket = createLockedBucket("lock-on");
        ObjectLockConfiguration enabled = s3.getObjectLockConfiguration(request -> request.bucket(bucket))
            .objectLockConfiguration();
        assertThat(enabled.objectLockEnabled()).isEqualTo(ObjectLockEnabled.ENABLED);
        assertThat(enabled.rule()).isNull();

        int status = s3.putObjectLockConfiguration(request -> request.bucket(bucket).objectLockConfiguration(lock -> lock
                .objectLockEnabled(ObjectLockEnabled.ENABLED)
                .rule(ObjectLockRule.builder().defaultRetention(DefaultRetention.builder()
                    .mode(ObjectLockRetentionMode.GOVERNANCE).days(3).build()).build())))
            .sdkHttpResponse().statusCode();
        assertThat(status).isEqualTo(200);
        GetObjectLockConfigurationResponse retained = s3.getObjectLockConfiguration(request -> request.bucket(bucket));
        DefaultRetention retention = retained.objectLockConfiguration().rule().defaultRetention();
        assertThat(retention.mode()).isEqualTo(ObjectLockRetentionMode.GOVERNANCE);
        assertThat(retention.days()).isEqualTo(3);
        assertThat(retention.years()).isNull();

        s3.putObjectLockConfiguration(request -> request.bucket(bucket).objectLockConfiguration(lock -> lock
            .objectLockEnabled(ObjectLockEnabled.ENABLED)
            .rule(ObjectLockRule.builder().defaultRetention(DefaultRetention.builder()
                .mode(ObjectLockRetentionMode.COMPLIANCE).years(1).build()).build())));
        retention = s3.getObjectLockConfiguration(request -> request.bucket(bucket))
            .objectLockConfiguration().rule().defaultRetention();
        assertThat(retention.mode()).isEqualTo(ObjectLockRetentionMode.COMPLIANCE);
        assertThat(retention.years()).isEqualTo(1);
        assertThat(retention.days()).isNull();
    }

    @Test
    void invalidObjectLockConfigurationsAreRefused() {
        String bucket = createLockedBucket("lock-bad");
        assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(bucket).objectLockConfiguration(lock ->
            lock.rule(ObjectLockRule.builder().defaultRetention(DefaultRetention.builder()
                .mode(ObjectLockRetentionMode.GOVERNANCE).days(1).build()).build()))), 400, "MalformedXML");
        assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(bucket).objectLockConfiguration(lock ->
            lock.objectLockEnabled(ObjectLockEnabled.ENABLED).rule(ObjectLockRule.builder().defaultRetention(
                DefaultRetention.builder().mode(ObjectLockRetentionMode.GOVERNANCE).days(0).build()).build()))),
            400, "InvalidRetentionPeriod");
        assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(bucket).objectLockConfiguration(lock ->
            lock.objectLockEnabled(ObjectLockEnabled.ENABLED).rule(ObjectLockRule.builder().defaultRetention(
                DefaultRetention.builder().mode(ObjectLockRetentionMode.GOVERNANCE).days(1).years(1).build()).build()))),
            400, "MalformedXML");
        assertThat(s3.getObjectLockConfiguration(request -> request.bucket(bucket)).objectLockConfiguration().rule())
            .isNull();
    }

    @Test
    void createBucketWithObjectLockEnablesItAndVersioning() {
        String bucket = newBucketName("lock-create");
        s3.createBucket(request -> request.bucket(bucket).objectLockEnabledForBucket(true));
        assertThat(s3.getObjectLockConfiguration(request -> request.bucket(bucket)).objectLockConfiguration()
            .objectLockEnabled()).isEqualTo(ObjectLockEnabled.ENABLED);
        assertThat(s3.getBucketVersioning(request -> request.bucket(bucket)).status())
            .isEqualTo(BucketVersioningStatus.ENABLED);
    }

    // Every operation needs the bucket

    static Stream<Named<BucketCall>> operationsOnAMissingBucket() {
        return Stream.of(
            Named.of("GetBucketVersioning", (s3, bucket) -> s3.getBucketVersioning(r -> r.bucket(bucket))),
            Named.of("PutBucketVersioning", (s3, bucket) -> s3.putBucketVersioning(r -> r.bucket(bucket)
                .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)))),
            Named.of("GetBucketTagging", (s3, bucket) -> s3.getBucketTagging(r -> r.bucket(bucket))),
            Named.of("PutBucketTagging", (s3, bucket) -> s3.putBucketTagging(r -> r.bucket(bucket)
                .tagging(t -> t.tagSet(Tag.builder().key("k").value("v").build())))),
            Named.of("DeleteBucketTagging", (s3, bucket) -> s3.deleteBucketTagging(r -> r.bucket(bucket))),
            Named.of("GetBucketCors", (s3, bucket) -> s3.getBucketCors(r -> r.bucket(bucket))),
            Named.of("PutBucketCors", (s3, bucket) -> s3.putBucketCors(r -> r.bucket(bucket).corsConfiguration(c ->
                c.corsRules(CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())))),
            Named.of("DeleteBucketCors", (s3, bucket) -> s3.deleteBucketCors(r -> r.bucket(bucket))),
            Named.of("GetBucketWebsite", (s3, bucket) -> s3.getBucketWebsite(r -> r.bucket(bucket))),
            Named.of("PutBucketWebsite", (s3, bucket) -> s3.putBucketWebsite(r -> r.bucket(bucket)
                .websiteConfiguration(w -> w.indexDocument(IndexDocument.builder().suffix("index.html").build())))),
            Named.of("DeleteBucketWebsite", (s3, bucket) -> s3.deleteBucketWebsite(r -> r.bucket(bucket))),
            Named.of("GetBucketLifecycleConfiguration",
                (s3, bucket) -> s3.getBucketLifecycleConfiguration(r -> r.bucket(bucket))),
            Named.of("PutBucketLifecycleConfiguration", (s3, bucket) -> s3.putBucketLifecycleConfiguration(r ->
                r.bucket(bucket).lifecycleConfiguration(c -> c.rules(LifecycleRule.builder().id("x")
                    .filter(LifecycleRuleFilter.builder().prefix("").build()).status(ExpirationStatus.ENABLED)
                    .expiration(LifecycleExpiration.builder().days(1).build()).build())))),
            Named.of("DeleteBucketLifecycle", (s3, bucket) -> s3.deleteBucketLifecycle(r -> r.bucket(bucket))),
            Named.of("GetBucketPolicy", (s3, bucket) -> s3.getBucketPolicy(r -> r.bucket(bucket))),
            Named.of("PutBucketPolicy", (s3, bucket) -> s3.putBucketPolicy(r -> r.bucket(bucket)
                .policy(publicReadPolicy(bucket)))),
            Named.of("DeleteBucketPolicy", (s3, bucket) -> s3.deleteBucketPolicy(r -> r.bucket(bucket))),
            Named.of("GetBucketAcl", (s3, bucket) -> s3.getBucketAcl(r -> r.bucket(bucket))),
            Named.of("PutBucketAcl", (s3, bucket) -> s3.putBucketAcl(r -> r.bucket(bucket)
                .acl(BucketCannedACL.PUBLIC_READ))),
            Named.of("GetObjectLockConfiguration", (s3, bucket) -> s3.getObjectLockConfiguration(r -> r.bucket(bucket))),
            Named.of("PutObjectLockConfiguration", (s3, bucket) -> s3.putObjectLockConfiguration(r -> r.bucket(bucket)
                .objectLockConfiguration(c -> c.objectLockEnabled(ObjectLockEnabled.ENABLED)))));
    }

    @ParameterizedTest
    @MethodSource("operationsOnAMissingBucket")
    void everyOperationAnswersNoSuchBucketForABucketThatDoesNotExist(BucketCall call) {
        String bucket = newBucketName("missing");
        ThrowingCallable callable = () -> call.run(s3, bucket);
        assertS3Error(callable, 404, "NoSuchBucket");
    }

    /** One SDK call on a bucket. */
    @FunctionalInterface
    interface BucketCall {
        void run(S3Client s3, String bucket);
    }

    // Helpers

    /** A bucket with versioning enabled and then Object Lock, without a default retention. */
    private String createLockedBucket(String prefix) {
        String bucket = createBucket(prefix);
        s3.putBucketVersioning(request -> request.bucket(bucket)
            .versioningConfiguration(configuration -> configuration.status(BucketVersioningStatus.ENABLED)));
        s3.putObjectLockConfiguration(request -> request.bucket(bucket)
            .objectLockConfiguration(lock -> lock.objectLockEnabled(ObjectLockEnabled.ENABLED)));
        return bucket;
    }

    private static String publicReadPolicy(String bucket) {
        return """
            {"Version":"2012-10-17","Statement":[{"Sid":"PublicRead","Effect":"Allow","Principal":"*",\
            "Action":"s3:GetObject","Resource":"arn:aws:s3:::%s/*"}]}""".formatted(bucket);
    }

    private static String denyKeyPolicy(String bucket, String keyId) {
        return """
            {"Version":"2012-10-17","Statement":[{"Sid":"NoReader","Effect":"Deny","Principal":{"AWS":["%s"]},\
            "Action":"s3:GetObject","Resource":"arn:aws:s3:::%s/*"}]}""".formatted(keyId, bucket);
    }

    /** An unsigned GET of an object, or of the bucket (a listing) when the key is null. */
    private RawS3.Response anonymousGet(String bucket, String key) {
        URI uri = URI.create(endpoint() + "/" + bucket + (key == null ? "" : "/" + key));
        return raw.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build());
    }
}

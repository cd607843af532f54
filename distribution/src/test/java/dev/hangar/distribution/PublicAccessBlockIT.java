package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.PublicAccessBlockConfiguration;

/**
 * PutPublicAccessBlock, GetPublicAccessBlock and DeletePublicAccessBlock, and what each of the four
 * settings does to the ACLs and policies that would open a bucket to the public. Anonymous requests
 * are plain unsigned {@code java.net.http} requests from 127.0.0.1.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PublicAccessBlockIT extends AbstractS3IT {
    private static final String PUBLIC_READ_POLICY = """
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
              "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"}]}""";

    private AdminApi admin;

    @BeforeAll
    void connectAdmin() {
        admin = new AdminApi(managementEndpoint(), http);
    }

    @Test
    void putGetAndDeleteTheConfiguration() {
        String bucket = createBucket("pab-crud");
        assertS3Error(() -> s3.getPublicAccessBlock(request -> request.bucket(bucket)),
                404, "NoSuchPublicAccessBlockConfiguration");

        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(
                configuration -> configuration.blockPublicAcls(true).restrictPublicBuckets(true)));
        PublicAccessBlockConfiguration stored = s3.getPublicAccessBlock(request -> request.bucket(bucket))
                .publicAccessBlockConfiguration();
        assertThat(stored).isEqualTo(PublicAccessBlockConfiguration.builder().blockPublicAcls(true)
                .ignorePublicAcls(false).blockPublicPolicy(false).restrictPublicBuckets(true).build());

        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(
                configuration -> configuration.ignorePublicAcls(true)));
        assertThat(s3.getPublicAccessBlock(request -> request.bucket(bucket)).publicAccessBlockConfiguration())
                .isEqualTo(PublicAccessBlockConfiguration.builder().blockPublicAcls(false).ignorePublicAcls(true)
                        .blockPublicPolicy(false).restrictPublicBuckets(false).build());

        s3.deletePublicAccessBlock(request -> request.bucket(bucket));
        assertS3Error(() -> s3.getPublicAccessBlock(request -> request.bucket(bucket)),
                404, "NoSuchPublicAccessBlockConfiguration");
        // Deleting what is not there succeeds, as S3's other configuration deletes do.
        s3.deletePublicAccessBlock(request -> request.bucket(bucket));
    }

    @Test
    void refusesAMalformedDocumentAndAMissingBucket() {
        String bucket = createBucket("pab-malformed");
        for (String body : new String[] {
                "<PublicAccessBlockConfiguration><BlockPublicAcls>maybe</BlockPublicAcls></PublicAccessBlockConfiguration>",
                "<PublicAccessBlockConfiguration><BlockPublicAcls>true</BlockPublicAcls>",
                ""}) {
            RawS3.Response response = putPublicAccessBlock(bucket, body);
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.errorCode()).hasValue("MalformedXML");
        }
        assertS3Error(() -> s3.getPublicAccessBlock(request -> request.bucket(bucket)),
                404, "NoSuchPublicAccessBlockConfiguration");

        String missing = newBucketName("pab-missing");
        assertS3Error(() -> s3.putPublicAccessBlock(request -> request.bucket(missing)
                .publicAccessBlockConfiguration(configuration -> configuration.blockPublicAcls(true))), 404, "NoSuchBucket");
        assertS3Error(() -> s3.getPublicAccessBlock(request -> request.bucket(missing)), 404, "NoSuchBucket");
    }

    @Test
    void blockPublicAclsRefusesEveryWriteOfAPublicAclAndKeepsTheAclsAlreadySet() {
        String bucket = createBucket("pab-block-acls");
        s3.putObject(request -> request.bucket(bucket).key("open.txt").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("open"));
        s3.putObject(request -> request.bucket(bucket).key("closed.txt"), RequestBody.fromString("closed"));
        block(bucket, true, false, false, false);

        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ)),
                403, "AccessDenied");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("closed.txt")
                .acl(ObjectCannedACL.AUTHENTICATED_READ)), 403, "AccessDenied");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new.txt")
                .acl(ObjectCannedACL.PUBLIC_READ_WRITE), RequestBody.fromString("new")), 403, "AccessDenied");
        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(bucket).key("upload.bin")
                .acl(ObjectCannedACL.PUBLIC_READ)), 403, "AccessDenied");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("closed.txt")
                .destinationBucket(bucket).destinationKey("copy.txt").acl(ObjectCannedACL.PUBLIC_READ)),
                403, "AccessDenied");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("new.txt")), 404);

        // ACLs that are not public are still taken, and the public ACL set before stays in force.
        s3.putObject(request -> request.bucket(bucket).key("private.txt").acl(ObjectCannedACL.PRIVATE),
                RequestBody.fromString("private"));
        s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(200);

        s3.deletePublicAccessBlock(request -> request.bucket(bucket));
        s3.putObjectAcl(request -> request.bucket(bucket).key("closed.txt").acl(ObjectCannedACL.PUBLIC_READ));
        assertThat(anonymousGet(bucket, "closed.txt").status()).isEqualTo(200);
    }

    @Test
    void ignorePublicAclsMakesPublicAclsGrantNothingWhileItLasts() {
        String bucket = createBucket("pab-ignore-acls");
        s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(request -> request.bucket(bucket).key("open.txt").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("open"));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(200);
        assertThat(anonymousGet(bucket, null).status()).isEqualTo(200);

        block(bucket, false, true, false, false);
        RawS3.Response read = anonymousGet(bucket, "open.txt");
        assertThat(read.status()).isEqualTo(403);
        assertThat(read.errorCode()).hasValue("AccessDenied");
        assertThat(anonymousGet(bucket, null).status()).isEqualTo(403);
        // Ignored, not blocked: a public ACL can still be set, and is still what GetObjectAcl shows.
        s3.putObject(request -> request.bucket(bucket).key("later.txt").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("later"));
        assertThat(anonymousGet(bucket, "later.txt").status()).isEqualTo(403);
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("later.txt")).grants())
                .anySatisfy(grant -> assertThat(grant.grantee().uri()).endsWith("/AllUsers"));

        s3.deletePublicAccessBlock(request -> request.bucket(bucket));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(200);
        assertThat(anonymousGet(bucket, "later.txt").status()).isEqualTo(200);
    }

    @Test
    void blockPublicPolicyRefusesAPublicPolicyOnly() {
        String bucket = createBucket("pab-block-policy");
        String publicPolicy = PUBLIC_READ_POLICY.formatted(bucket);
        s3.putBucketPolicy(request -> request.bucket(bucket).policy(publicPolicy));
        block(bucket, false, false, true, false);

        // The policy set before stays in force.
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("doc"));
        assertThat(anonymousGet(bucket, "doc.txt").status()).isEqualTo(200);

        assertS3Error(() -> s3.putBucketPolicy(request -> request.bucket(bucket).policy(publicPolicy)),
                403, "AccessDenied");
        String limited = """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*",
                  "Condition": {"IpAddress": {"aws:SourceIp": "127.0.0.1/32"}}}]}""".formatted(bucket);
        s3.putBucketPolicy(request -> request.bucket(bucket).policy(limited));
        assertThat(s3.getBucketPolicy(request -> request.bucket(bucket)).policy()).isEqualTo(limited);
    }

    @Test
    void restrictPublicBucketsTakesFromAPublicPolicyWhatItGivesAnonymousRequests() {
        String bucket = createBucket("pab-restrict");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("doc"));
        s3.putBucketPolicy(request -> request.bucket(bucket).policy(PUBLIC_READ_POLICY.formatted(bucket)));
        AdminApi.Key stranger = admin.createKey();
        assertThat(anonymousGet(bucket, "doc.txt").status()).isEqualTo(200);

        block(bucket, false, false, false, true);
        RawS3.Response read = anonymousGet(bucket, "doc.txt");
        assertThat(read.status()).isEqualTo(403);
        assertThat(read.errorCode()).hasValue("AccessDenied");
        // A key without a permission on the bucket is one of Hangar's one account's users: the policy still applies.
        try (S3Client client = clientFor(stranger.id(), stranger.secret())) {
            assertThat(client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                    .isEqualTo("doc");
        }

        s3.deletePublicAccessBlock(request -> request.bucket(bucket));
        assertThat(anonymousGet(bucket, "doc.txt").status()).isEqualTo(200);
    }

    @Test
    void restrictPublicBucketsLeavesAPolicyThatIsNotPublicAlone() {
        String bucket = createBucket("pab-restrict-limited");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("doc"));
        s3.putBucketPolicy(request -> request.bucket(bucket).policy("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*",
                  "Condition": {"IpAddress": {"aws:SourceIp": "127.0.0.0/8"}}}]}""".formatted(bucket)));
        block(bucket, false, false, false, true);

        assertThat(anonymousGet(bucket, "doc.txt").status()).isEqualTo(200);
    }

    // Helpers

    private void block(String bucket, boolean blockAcls, boolean ignoreAcls, boolean blockPolicy, boolean restrict) {
        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(configuration ->
                configuration.blockPublicAcls(blockAcls).ignorePublicAcls(ignoreAcls).blockPublicPolicy(blockPolicy)
                        .restrictPublicBuckets(restrict)));
    }

    private RawS3.Response putPublicAccessBlock(String bucket, String body) {
        return raw.send(raw.sign(raw.request(SdkHttpMethod.PUT, "/" + bucket)
                .putRawQueryParameter("publicAccessBlock", "").build(), body.getBytes(StandardCharsets.UTF_8),
                properties -> {
                }));
    }

    /** An unsigned GET of an object, or of the bucket (a listing) when key is null. */
    private RawS3.Response anonymousGet(String bucket, String key) {
        URI uri = URI.create("http://127.0.0.1:" + nextPort() + "/" + bucket + (key == null ? "" : "/" + key));
        return raw.send(HttpRequest.newBuilder(uri).GET().build());
    }
}

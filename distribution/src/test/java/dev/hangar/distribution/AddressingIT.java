package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Virtual-host-style addressing: {@code bucket.s3.localhost:port} names the bucket in the Host
 * header, the path is only the key. The client resolves every {@code *.localhost} name to
 * 127.0.0.1 itself (see {@link S3Clients#LOCALHOST_RESOLVER}).
 */
class AddressingIT extends AbstractS3IT {

    private final List<String> hosts = new CopyOnWriteArrayList<>();
    private S3Client virtualHost;

    @BeforeAll
    void createVirtualHostClient() {
        virtualHost = clientFor(virtualHostEndpoint(), ACCESS_KEY, SECRET_KEY, false, builder -> builder
            .overrideConfiguration(configuration -> configuration
                .retryStrategy(AwsRetryStrategy.doNotRetry())
                .addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                        hosts.add(context.httpRequest().host() + " " + context.httpRequest().encodedPath());
                    }
                })));
    }

    @AfterAll
    void closeVirtualHostClient() {
        virtualHost.close();
    }

    @Test
    void objectOperationsReachTheBucketNamedInTheHost() {
        String bucket = createBucket("vhost");
        RandomContent content = RandomContent.of(801, 2L * MIB + 3);

        hosts.clear();
        virtualHost.putObject(request -> request.bucket(bucket).key("dir/object"), content.requestBody());
        assertThat(hosts).as("the SDK used virtual-host style").containsExactly(bucket + "." + DOMAIN + " /dir/object");

        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key("dir/object")))).isEqualTo(content.sha256Hex());
        assertThat(Digests.sha256Hex(virtualHost.getObject(request -> request.bucket(bucket).key("dir/object"))))
            .isEqualTo(content.sha256Hex());
        assertThat(virtualHost.headObject(request -> request.bucket(bucket).key("dir/object")).contentLength()).isEqualTo(content.size());
        assertThat(virtualHost.getObjectAsBytes(request -> request.bucket(bucket).key("dir/object").range("bytes=1048570-1048590"))
            .asByteArray()).isEqualTo(content.bytes(1_048_570, 21));

        assertThat(virtualHost.listObjectsV2(request -> request.bucket(bucket)).contents()).extracting(S3Object::key)
            .containsExactly("dir/object");
        assertThat(virtualHost.listObjects(request -> request.bucket(bucket).delimiter("/")).commonPrefixes())
            .extracting(CommonPrefix::prefix).containsExactly("dir/");

        virtualHost.copyObject(request -> request.sourceBucket(bucket).sourceKey("dir/object")
            .destinationBucket(bucket).destinationKey("dir/copy"));
        assertThat(s3.headObject(request -> request.bucket(bucket).key("dir/copy")).eTag()).isEqualTo(content.etag());

        virtualHost.deleteObject(request -> request.bucket(bucket).key("dir/object"));
        virtualHost.deleteObjects(request -> request.bucket(bucket).delete(delete -> delete.objects(
            ObjectIdentifier.builder().key("dir/copy").build())));
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket)).contents()).isEmpty();
    }

    @Test
    void keysThatNeedEncoding() {
        String bucket = createBucket("vhost-keys");
        for (String key : List.of("with space", "ünï/cödé", "plus+and%percent", "trailing/")) {
            virtualHost.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(key));
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo(key);
            assertThat(virtualHost.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo(key);
        }
    }

    @Test
    void bucketOperations() {
        String bucket = newBucketName("vhost-bucket");
        virtualHost.createBucket(request -> request.bucket(bucket));
        assertThat(s3.headBucket(request -> request.bucket(bucket)).sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(virtualHost.headBucket(request -> request.bucket(bucket)).sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(virtualHost.getBucketLocation(request -> request.bucket(bucket)).locationConstraintAsString()).isNullOrEmpty();

        assertS3Error(() -> virtualHost.createBucket(request -> request.bucket(bucket)), 409, "BucketAlreadyOwnedByYou");

        virtualHost.deleteBucket(request -> request.bucket(bucket));
        assertS3Status(() -> s3.headBucket(request -> request.bucket(bucket)), 404);
    }

    @Test
    void listBucketsOnTheBaseDomain() {
        String bucket = createBucket("vhost-list");
        hosts.clear();
        List<String> names = virtualHost.listBuckets().buckets().stream().map(Bucket::name).toList();
        assertThat(hosts).containsExactly(DOMAIN + " /");
        assertThat(names).contains(bucket);
    }

    @Test
    void multipartUpload() {
        String bucket = createBucket("vhost-mpu");
        String uploadId = virtualHost.createMultipartUpload(request -> request.bucket(bucket).key("mpu")).uploadId();
        RandomContent part1 = RandomContent.of(802, 5L * MIB);
        RandomContent part2 = RandomContent.of(803, 1000);
        String etag1 = virtualHost.uploadPart(request -> request.bucket(bucket).key("mpu").uploadId(uploadId).partNumber(1),
            part1.requestBody()).eTag();
        String etag2 = virtualHost.uploadPart(request -> request.bucket(bucket).key("mpu").uploadId(uploadId).partNumber(2),
            part2.requestBody()).eTag();
        assertThat(virtualHost.listMultipartUploads(request -> request.bucket(bucket)).uploads()).hasSize(1);
        virtualHost.completeMultipartUpload(request -> request.bucket(bucket).key("mpu").uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(
                CompletedPart.builder().partNumber(1).eTag(etag1).build(),
                CompletedPart.builder().partNumber(2).eTag(etag2).build())));
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key("mpu"))))
            .isEqualTo(Digests.sha256Hex(RandomContent.concatenation(List.of(part1, part2))));
    }

    @Test
    void missingBucketAndKey() {
        String missing = newBucketName("vhost-missing");
        assertS3Error(() -> virtualHost.getObjectAsBytes(request -> request.bucket(missing).key("key")), 404, "NoSuchBucket");
        assertS3Error(() -> virtualHost.listObjectsV2(request -> request.bucket(missing)), 404, "NoSuchBucket");
        String bucket = createBucket("vhost-nokey");
        assertS3Error(() -> virtualHost.getObjectAsBytes(request -> request.bucket(bucket).key("key")), 404, "NoSuchKey");
    }
}

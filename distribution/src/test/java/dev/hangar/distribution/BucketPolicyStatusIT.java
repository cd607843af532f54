package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.http.SdkHttpMethod;

/** GetBucketPolicyStatus: whether the bucket's policy is public, as Block Public Access judges it. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BucketPolicyStatusIT extends AbstractS3IT {

    @Test
    void aPolicyForEveryoneIsPublic() {
        String bucket = createBucket("status-public");
        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(bucket));

        assertThat(isPublic(bucket)).isTrue();
    }

    @Test
    void aPolicyLimitedToAddressesOrToNamedKeysIsNot() {
        String bucket = createBucket("status-limited");
        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*",
                  "Condition": {"IpAddress": {"aws:SourceIp": "192.0.2.0/24"}}}]}""".formatted(bucket));
        assertThat(isPublic(bucket)).isFalse();

        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "%s"},
                  "Action": "s3:*", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(ACCESS_KEY, bucket));
        assertThat(isPublic(bucket)).isFalse();

        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*",
                  "Action": "s3:DeleteObject", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(bucket));
        assertThat(isPublic(bucket)).isFalse();
    }

    @Test
    void aBucketWithoutAPolicyHasNoStatus() {
        String bucket = createBucket("status-none");
        assertS3Error(() -> s3.getBucketPolicyStatus(request -> request.bucket(bucket)), 404, "NoSuchBucketPolicy");

        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(bucket));
        s3.deleteBucketPolicy(request -> request.bucket(bucket));
        assertS3Error(() -> s3.getBucketPolicyStatus(request -> request.bucket(bucket)), 404, "NoSuchBucketPolicy");

        String missing = newBucketName("status-missing");
        assertS3Error(() -> s3.getBucketPolicyStatus(request -> request.bucket(missing)), 404, "NoSuchBucket");
    }

    @Test
    void theStatusCannotBePut() {
        String bucket = createBucket("status-put");
        RawS3.Response put = raw.send(raw.sign(raw.request(SdkHttpMethod.PUT, "/" + bucket)
                .putRawQueryParameter("policyStatus", "").build(), (byte[]) null, properties -> {
                }));
        assertThat(put.status()).as(put.toString()).isEqualTo(405);
        assertThat(put.errorCode()).hasValue("MethodNotAllowed");
    }

    private void policy(String bucket, String document) {
        s3.putBucketPolicy(request -> request.bucket(bucket).policy(document));
    }

    private boolean isPublic(String bucket) {
        return s3.getBucketPolicyStatus(request -> request.bucket(bucket)).policyStatus().isPublic();
    }
}

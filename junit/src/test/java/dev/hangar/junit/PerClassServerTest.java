package dev.hangar.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/** {@code @ExtendWith(HangarExtension.class)}: one server for the class, clients as parameters and fields. */
@ExtendWith(HangarExtension.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PerClassServerTest {

    @HangarInject
    static URI endpointOfTheClass;

    @HangarInject
    S3AsyncClient async;

    @HangarInject
    HangarServer server;

    @Test
    void aParameterClientTalksToTheServerOverHttp(S3Client s3, HangarServer hangar) {
        s3.createBucket(request -> request.bucket("parameters"));
        s3.putObject(request -> request.bucket("parameters").key("greeting"), RequestBody.fromString("hello"));

        assertThat(s3.getObjectAsBytes(request -> request.bucket("parameters").key("greeting")).asUtf8String())
            .isEqualTo("hello");
        assertThat(hangar.endpoint()).isEqualTo(endpointOfTheClass).isEqualTo(server.endpoint());
        assertThat(hangar.endpoint().getPort()).isPositive();
        assertThat(hangar.accessKey()).hasSize(20);
    }

    @Test
    void anInjectedAsyncClientTalksToTheSameServer() throws Exception {
        assertThat(server.endpoint()).isEqualTo(endpointOfTheClass);
        async.createBucket(request -> request.bucket("async")).get(30, TimeUnit.SECONDS);
        async.putObject(request -> request.bucket("async").key("k"), AsyncRequestBody.fromString("async body"))
            .get(30, TimeUnit.SECONDS);

        byte[] read = async.getObject(request -> request.bucket("async").key("k"), AsyncResponseTransformer.toBytes())
            .get(30, TimeUnit.SECONDS).asByteArray();
        assertThat(new String(read, StandardCharsets.UTF_8)).isEqualTo("async body");
    }
}

package dev.hangar.springboot;

import java.net.URI;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where a Hangar server is and how to sign for it: from {@code hangar.client.*}, or from a container that a test
 * annotated with {@code @ServiceConnection}. {@link HangarClientAutoConfiguration} makes an {@code S3Client} of it.
 */
public interface HangarConnectionDetails extends ConnectionDetails {

    /** The S3 endpoint, {@code http://host:port}; buckets are addressed path-style. */
    URI endpoint();

    String region();

    String accessKey();

    String secretKey();
}

package dev.hangar.springboot.testcontainers;

import dev.hangar.springboot.HangarConnectionDetails;
import dev.hangar.testcontainers.HangarContainer;
import java.net.URI;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

/**
 * {@code @ServiceConnection} on a {@link HangarContainer}: the container's endpoint, region and root key as the
 * application's {@link HangarConnectionDetails}. Registered in {@code META-INF/spring.factories}.
 */
class HangarContainerConnectionDetailsFactory
        extends ContainerConnectionDetailsFactory<HangarContainer, HangarConnectionDetails> {

    HangarContainerConnectionDetailsFactory() {
        super(ANY_CONNECTION_NAME, "dev.hangar.testcontainers.HangarContainer");
    }

    @Override
    protected HangarConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<HangarContainer> source) {
        return new ContainerDetails(source);
    }

    private static final class ContainerDetails extends ContainerConnectionDetails<HangarContainer>
            implements HangarConnectionDetails {

        ContainerDetails(ContainerConnectionSource<HangarContainer> source) {
            super(source);
        }

        @Override
        public URI endpoint() {
            return getContainer().getS3Endpoint();
        }

        @Override
        public String region() {
            return getContainer().getRegion();
        }

        @Override
        public String accessKey() {
            return getContainer().getAccessKey();
        }

        @Override
        public String secretKey() {
            return getContainer().getSecretKey();
        }
    }
}

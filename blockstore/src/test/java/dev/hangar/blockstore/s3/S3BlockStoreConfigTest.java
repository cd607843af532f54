package dev.hangar.blockstore.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the contract test cannot reach: validation of the configuration and the key layout. */
class S3BlockStoreConfigTest {
    private static final URI ENDPOINT = URI.create("http://localhost:9000");

    @Test
    void acceptsAFullConfiguration() {
        S3BlockStoreConfig config =
                new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", "hangar/", "AKID", "secret", true);

        assertThat(config.prefix()).isEqualTo("hangar/");
        assertThat(config.hasStaticCredentials()).isTrue();
    }

    @Test
    void endpointAndCredentialsAreOptional() {
        S3BlockStoreConfig config = new S3BlockStoreConfig(null, "eu-west-3", "blocks", null, null, null, false);

        assertThat(config.endpoint()).isNull();
        assertThat(config.prefix()).isEmpty();
        assertThat(config.hasStaticCredentials()).isFalse();
    }

    @Test
    void blankKeysMeanDefaultCredentials() {
        S3BlockStoreConfig config = new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", "", " ", "", true);

        assertThat(config.accessKey()).isNull();
        assertThat(config.secretKey()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://localhost:21", "localhost:9000", "/relative", "http://localhost:9000/?x=1", "http:opaque"})
    void refusesEndpointsThatAreNotHttpUris(String endpoint) {
        assertThatThrownBy(() -> new S3BlockStoreConfig(
                        URI.create(endpoint), "us-east-1", "blocks", "", "AKID", "secret", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("endpoint");
    }

    @Test
    void requiresARegion() {
        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, " ", "blocks", "", null, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("region");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ab", "Blocks", "-blocks", "blocks-", "under_score", "a/b"})
    void refusesInvalidBucketNames(String bucket) {
        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, "us-east-1", bucket, "", null, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bucket");
    }

    @Test
    void refusesAMissingBucket() {
        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, "us-east-1", null, "", null, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bucket");
    }

    @Test
    void refusesAPrefixStartingWithASlash() {
        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", "/hangar/", null, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prefix");
    }

    @Test
    void refusesAPrefixThatLeavesNoRoomForTheBlockKey() {
        String longest = "p".repeat(1024 - 35);
        new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", longest, null, null, true);

        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", longest + "p", null, null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prefix");
    }

    @Test
    void refusesOneKeyWithoutTheOther() {
        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", "", "AKID", null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("secret key");
        assertThatThrownBy(() -> new S3BlockStoreConfig(ENDPOINT, "us-east-1", "blocks", "", null, "secret", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("secret key");
    }

    @Test
    void toStringHidesTheSecretKey() {
        S3BlockStoreConfig config = new S3BlockStoreConfig(
                ENDPOINT, "us-east-1", "blocks", "", "AKID", "very-secret-value", true);

        assertThat(config.toString()).contains("AKID").doesNotContain("very-secret-value");
    }

    @Test
    void keysFanOutByTheIdsFirstTwoDigitsUnderThePrefix() {
        BlockId id = new BlockId("ab" + "0".repeat(30));

        assertThat(S3BlockStore.keyOf("hangar/blocks/", id)).isEqualTo("hangar/blocks/ab/ab" + "0".repeat(30));
        assertThat(S3BlockStore.keyOf("", id)).isEqualTo("ab/ab" + "0".repeat(30));
    }

    @Test
    void anUnreachableServiceFailsWithAnIOException() throws IOException {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        S3BlockStoreConfig config = new S3BlockStoreConfig(
                URI.create("http://127.0.0.1:1"), "us-east-1", "blocks", "", "AKID", "secret", true);
        try (BlockStore store = BlockStores.s3(config)) {
            BlockId id = BlockId.random();

            assertThatThrownBy(() -> store.write(id, new ByteArrayInputStream(new byte[10])))
                    .isInstanceOf(IOException.class);
            assertThatThrownBy(() -> store.exists(id)).isInstanceOf(IOException.class);
        }
    }
}

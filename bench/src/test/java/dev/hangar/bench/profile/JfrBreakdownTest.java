package dev.hangar.bench.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JfrBreakdownTest {
    @Test
    void aJdkMethodCountsForTheHangarCodeThatCalledIt() {
        assertThat(JfrBreakdown.component(List.of("sun.security.provider.SHA2", "java.security.MessageDigest",
                "dev.hangar.s3api.auth.SigV4Verifier", "dev.hangar.s3api.web.S3Handler", "reactor.core.publisher.Mono")))
                .isEqualTo("SigV4 and other authentication");
    }

    @Test
    void aSpecificPackageWinsOverTheModuleThatHoldsIt() {
        assertThat(JfrBreakdown.component(List.of("dev.hangar.s3api.xml.ListingWriter", "dev.hangar.s3api.web.S3Handler")))
                .isEqualTo("XML");
        assertThat(JfrBreakdown.component(List.of("dev.hangar.s3api.web.S3Handler"))).isEqualTo("routing, request and response");
        assertThat(JfrBreakdown.component(List.of("com.sun.crypto.provider.GaloisCounterMode", "javax.crypto.Cipher",
                "dev.hangar.s3api.encryption.UnsealingStream", "dev.hangar.s3api.semantics.SealedReader")))
                .isEqualTo("encryption (SSE: AES-GCM sealing and unsealing)");
    }

    @Test
    void librariesAndTheRest() {
        assertThat(JfrBreakdown.component(List.of("sun.nio.ch.SocketDispatcher", "io.netty.channel.epoll.EpollEventLoop")))
                .isEqualTo("Netty (sockets, buffers, HTTP codec)");
        assertThat(JfrBreakdown.component(List.of("org.rocksdb.RocksDB", "dev.hangar.metadata.rocksdb.RocksDbMetadataStore")))
                .isEqualTo("metadata store (RocksDB)");
        assertThat(JfrBreakdown.component(List.of("java.lang.Thread"))).isEqualTo(Component.OTHER);
    }
}

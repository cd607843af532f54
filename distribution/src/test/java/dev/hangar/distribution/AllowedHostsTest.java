package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AllowedHostsTest {
    private final AllowedHosts loopback = AllowedHosts.of("127.0.0.1", List.of());

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "localhost:9001", "LocalHost:9001", "127.0.0.1", "127.0.0.1:9001",
            "[::1]", "[::1]:9001", "10.1.2.3:9001", "[fe80::1]:80", " localhost:9001 "})
    void localhostAndAddressesAreAllowed(String host) {
        assertThat(loopback.allows(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.example", "evil.example:9001", "localhost.evil.example", "127.0.0.1.evil.example",
            "localhost.", "::1", "[::1", "[::1]x", "localhost:port", "localhost:9001:1", "", ":9001", "256.0.0.1",
            "[evil.example]:9001"})
    void otherNamesAndMalformedHeadersAreRefused(String host) {
        assertThat(loopback.allows(host)).isFalse();
    }

    @Test
    void aMissingHostIsRefused() {
        assertThat(loopback.allows(null)).isFalse();
    }

    @Test
    void theBindAddressAndListedNamesAreAllowed() {
        AllowedHosts hosts = AllowedHosts.of("admin.internal", List.of("Hangar.Example.com", "[2001:db8::1]", " "));
        assertThat(hosts.allows("admin.internal:9001")).isTrue();
        assertThat(hosts.allows("hangar.example.com")).isTrue();
        assertThat(hosts.allows("HANGAR.EXAMPLE.COM:443")).isTrue();
        assertThat(hosts.allows("www.example.com")).isFalse();
        assertThat(hosts.names()).doesNotContain("");
    }

    @Test
    void aStarAllowsEveryHost() {
        AllowedHosts hosts = AllowedHosts.of("127.0.0.1", List.of("*"));
        assertThat(hosts.allows("evil.example")).isTrue();
        assertThat(hosts.allows(null)).isTrue();
    }

    @Test
    void hostNamesLoseTheirPortAndBrackets() {
        assertThat(AllowedHosts.hostName("Example.com:80")).isEqualTo("example.com");
        assertThat(AllowedHosts.hostName("[::1]:9001")).isEqualTo("::1");
        assertThat(AllowedHosts.hostName("example.com:")).isNull();
    }
}

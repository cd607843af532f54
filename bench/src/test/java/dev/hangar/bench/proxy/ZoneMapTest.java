package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class ZoneMapTest {

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @Test
    void theLongestMatchingPrefixWinsAndOthersGetTheDefaultZone() throws UnknownHostException {
        ZoneMap zones = ZoneMap.parse(List.of("10.0.0.0/8=wide", "10.0.1.0/24=z1", "10.0.1.7=special", "10.0.2.0/23=z2"), "outside");
        assertThat(zones.zoneOf(ip("10.0.1.9"))).isEqualTo("z1");
        assertThat(zones.zoneOf(ip("10.0.1.7"))).isEqualTo("special");
        assertThat(zones.zoneOf(ip("10.0.3.200"))).isEqualTo("z2");
        assertThat(zones.zoneOf(ip("10.9.9.9"))).isEqualTo("wide");
        assertThat(zones.zoneOf(ip("192.168.1.1"))).isEqualTo("outside");
    }

    @Test
    void onATieTheFirstRuleWins() throws UnknownHostException {
        ZoneMap zones = ZoneMap.parse(List.of("10.0.1.0/24=first", "10.0.1.0/24=second"), "outside");
        assertThat(zones.zoneOf(ip("10.0.1.1"))).isEqualTo("first");
    }

    @Test
    void matchesIpv6RangesAndKeepsFamiliesApart() throws UnknownHostException {
        ZoneMap zones = ZoneMap.parse(List.of("fd00:1::/32=v6", "0.0.0.0/0=v4"), "outside");
        assertThat(zones.zoneOf(ip("fd00:1:ffff::5"))).isEqualTo("v6");
        assertThat(zones.zoneOf(ip("fd00:2::5"))).isEqualTo("outside");
        assertThat(zones.zoneOf(ip("8.8.8.8"))).isEqualTo("v4");
    }

    @Test
    void aHostNameMatchesTheAddressesItResolvesTo() throws UnknownHostException {
        ZoneMap zones = ZoneMap.parse(List.of("localhost=here", "no-such-host.invalid=nowhere"), "outside");
        assertThat(zones.zoneOf(InetAddress.getLoopbackAddress())).isEqualTo("here");
        assertThat(zones.zoneOf(ip("10.0.0.1"))).isEqualTo("outside");
    }

    /** Seeded property: a /n range matches exactly the addresses that share its first n bits. */
    @Test
    void aRangeMatchesExactlyTheAddressesSharingItsPrefix() throws UnknownHostException {
        SplittableRandom random = new SplittableRandom(23);
        for (int c = 0; c < 2_000; c++) {
            int network = random.nextInt();
            int prefix = random.nextInt(0, 33);
            int candidate = random.nextBoolean() ? random.nextInt() : network ^ (1 << random.nextInt(32));
            AddressPattern range = AddressPattern.parse(ip(dotted(network)).getHostAddress() + "/" + prefix);
            int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
            boolean expected = ((candidate ^ network) & mask) == 0;
            assertThat(range.matches(ip(dotted(candidate)))).as("%s against %s", range, dotted(candidate)).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33=z", "10.0.0.0/x=z", "10.0.0.0/8", "10.0.0.0/8=", "10.0.0.0/8=a:b", "bad host=z", "node1/8=z"})
    void refusesMalformedRules(String rule) {
        assertThatThrownBy(() -> ZoneMap.parse(List.of(rule), "outside")).isInstanceOf(IllegalArgumentException.class);
    }

    private static String dotted(int address) {
        return (address >>> 24) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "." + (address & 0xff);
    }
}

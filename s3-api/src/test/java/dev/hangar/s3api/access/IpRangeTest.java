package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpRangeTest {

    @ParameterizedTest(name = "{1} in {0} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            192.0.2.0/24            | 192.0.2.0              | true
            192.0.2.0/24            | 192.0.2.255            | true
            192.0.2.0/24            | 192.0.3.0              | false
            192.0.2.77/24           | 192.0.2.1              | true
            10.0.0.0/8              | 10.255.255.255         | true
            10.0.0.0/8              | 11.0.0.0               | false
            172.16.0.0/12           | 172.31.1.1             | true
            172.16.0.0/12           | 172.32.0.1             | false
            203.0.113.7             | 203.0.113.7            | true
            203.0.113.7             | 203.0.113.8            | false
            203.0.113.7/32          | 203.0.113.7            | true
            0.0.0.0/0               | 198.51.100.20          | true
            0.0.0.0/0               | 2001:db8::1            | false
            192.0.2.0/24            | ::ffff:192.0.2.9       | true
            192.0.2.0/24            | ::FFFF:c000:0209       | true
            ::ffff:192.0.2.0/120    | 192.0.2.200            | true
            ::ffff:192.0.2.0/120    | 192.0.3.1              | false
            2001:db8::/32           | 2001:db8:abcd:12::1    | true
            2001:db8::/32           | 2001:db9::1            | false
            2001:DB8:1234:5678::/64 | 2001:db8:1234:5678:ffff:ffff:ffff:ffff | true
            2001:DB8:1234:5678::/64 | 2001:db8:1234:5679::   | false
            2001:db8::/32           | 192.0.2.1              | false
            ::/0                    | ::1                    | true
            ::1                     | ::1                    | true
            ::1                     | 0:0:0:0:0:0:0:1        | true
            ::1/128                 | ::2                    | false
            fe80::/10               | fe80::1:2:3:4          | true
            fe80::/10               | fec0::1                | false
            2001:db8::/32           | 2001:db8::1.2.3.4      | true
            192.0.2.0/24            | not an address         | false
            192.0.2.0/24            | 192.0.2                | false
            2001:db8::/32           | 2001:db8:::1           | false
            """)
    void containsAddressesOfItsRange(String range, String address, boolean expected) {
        IpRange parsed = IpRange.parse(range);
        assertThat(parsed).as(range).isNotNull();
        assertThat(parsed.contains(address)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "/24", "192.0.2.0/", "192.0.2.0/33", "192.0.2.0/-1", "192.0.2.0/2a", "192.0.2", "192.0.2.0.1",
        "192.0.2.256", "192.0.02.1", "1.2.3.4.", "a.b.c.d", "example.com", "2001:db8::/129", "2001:db8::g",
        "2001:db8:::1", "1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "12345::", "::1.2.3", "1:2:3:4:5:6:7::8:9",
        "localhost"})
    void refusesWhatIsNoAddressOrRange(String text) {
        assertThat(IpRange.parse(text)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6::8", "1::8", "::ffff:1.2.3.4",
        "1:2:3:4:5:6:1.2.3.4", "2001:DB8::/48", " 192.0.2.1 "})
    void acceptsEveryIpv6Spelling(String text) {
        assertThat(IpRange.parse(text)).isNotNull();
    }
}

package dev.hangar.bench.proxy;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The zone of a connection's source address: the rule with the longest prefix that matches wins
 * (a host name counts as a single address; on a tie the first rule wins); no match gives {@code
 * defaultZone}.
 */
public record ZoneMap(List<Rule> rules, String defaultZone) {

    /** Source addresses that {@code pattern} covers are in {@code zone}. Written {@code PATTERN=ZONE}. */
    public record Rule(AddressPattern pattern, String zone) {

        public Rule {
            Objects.requireNonNull(pattern, "pattern");
            ZonePair.requireZoneName(zone);
        }

        public static Rule parse(String text) {
            int equals = text.lastIndexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("a zone rule is ADDRESS=ZONE, ADDRESS being an IP, a CIDR range or a host name: " + text);
            }
            return new Rule(AddressPattern.parse(text.substring(0, equals)), text.substring(equals + 1).trim());
        }

        @Override
        public String toString() {
            return pattern + "=" + zone;
        }
    }

    public ZoneMap {
        rules = List.copyOf(rules);
        ZonePair.requireZoneName(defaultZone);
    }

    public static ZoneMap parse(List<String> rules, String defaultZone) {
        return new ZoneMap(rules.stream().map(Rule::parse).toList(), defaultZone);
    }

    /** May look host names up in DNS: call it off any event loop. */
    public String zoneOf(InetAddress source) {
        @Nullable Rule best = null;
        for (Rule rule : rules) {
            if ((best == null || rule.pattern().prefixLength() > best.pattern().prefixLength()) && rule.pattern().matches(source)) {
                best = rule;
            }
        }
        return best == null ? defaultZone : best.zone();
    }
}

package dev.hangar.bench.proxy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** Which source addresses a zone rule covers: an address range, or a host name looked up when a connection comes. */
public sealed interface AddressPattern {

    /** How narrow the pattern is: the longer, the more it wins over other matching patterns. */
    int prefixLength();

    boolean matches(InetAddress address);

    /** {@code 10.0.1.0/24}, {@code fd00::/64}, {@code 10.0.1.7} (a /32), {@code ::1}, or a host name such as {@code node1}. */
    static AddressPattern parse(String text) {
        String trimmed = text.trim();
        int slash = trimmed.indexOf('/');
        if (slash >= 0) {
            InetAddress network = literal(trimmed.substring(0, slash), text);
            int bits = network.getAddress().length * 8;
            int prefix;
            try {
                prefix = Integer.parseInt(trimmed.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a prefix length: " + text, e);
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("prefix length out of 0.." + bits + ": " + text);
            }
            return new Range(network.getAddress(), prefix);
        }
        if (AddressLiterals.isLiteral(trimmed)) {
            byte[] address = literal(trimmed, text).getAddress();
            return new Range(address, address.length * 8);
        }
        if (!AddressLiterals.HOST_NAME.matcher(trimmed).matches()) {
            throw new IllegalArgumentException("not an address, a CIDR range or a host name: " + text);
        }
        return new HostName(trimmed);
    }

    private static InetAddress literal(String text, String whole) {
        if (!AddressLiterals.isLiteral(text)) {
            throw new IllegalArgumentException("not an IP address: " + whole);
        }
        try {
            // A literal never goes to DNS.
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + whole, e);
        }
    }

    /** Every address whose first {@code prefixLength} bits are {@code network}'s. */
    record Range(byte[] network, int prefixLength) implements AddressPattern {

        public Range {
            network = network.clone();
        }

        @Override
        public boolean matches(InetAddress address) {
            byte[] bytes = address.getAddress();
            if (bytes.length != network.length) {
                return false;
            }
            int whole = prefixLength / 8;
            if (!Arrays.equals(bytes, 0, whole, network, 0, whole)) {
                return false;
            }
            int rest = prefixLength % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest);
            return ((bytes[whole] ^ network[whole]) & mask) == 0;
        }

        @Override
        public byte[] network() {
            return network.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Range range && range.prefixLength == prefixLength && Arrays.equals(range.network, network);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(network) + prefixLength;
        }

        @Override
        public String toString() {
            try {
                return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * The addresses a host name has when a connection comes. Containers get their addresses when
     * they start (and a new one when they restart), so the name is looked up every time; the JVM's
     * DNS cache keeps that cheap.
     */
    record HostName(String name) implements AddressPattern {

        @Override
        public int prefixLength() {
            // As narrow as a single address: a name and an exact address tie, and the first rule wins.
            return 128;
        }

        @Override
        public boolean matches(InetAddress address) {
            try {
                for (InetAddress candidate : InetAddress.getAllByName(name)) {
                    if (candidate.equals(address)) {
                        return true;
                    }
                }
                return false;
            } catch (UnknownHostException e) {
                // A node that is down has no name in the container network's DNS: no match.
                return false;
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }
}

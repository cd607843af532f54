package dev.hangar.s3api.access;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * An IPv4 or IPv6 address range in CIDR notation ({@code 192.0.2.0/24}, {@code 2001:db8::/32}), or a
 * single address, for the {@code IpAddress} condition operators.
 *
 * <p>Addresses are parsed here rather than with {@link java.net.InetAddress#getByName}, which would
 * look a host name up in DNS. An IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}) is the IPv4
 * address it maps, so that a dual-stack listener's view of an IPv4 client matches IPv4 ranges.
 */
final class IpRange {
    private final byte[] network;
    private final int prefixLength;

    private IpRange(byte[] network, int prefixLength) {
        this.network = network;
        this.prefixLength = prefixLength;
    }

    /** The number of leading bits the range fixes: 0 for every address. */
    int prefixLength() {
        return prefixLength;
    }

    /** The range this text denotes; null if it is not an address or a CIDR range. */
    static @Nullable IpRange parse(String text) {
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String addressText = slash < 0 ? trimmed : trimmed.substring(0, slash);
        byte[] address = addressText.indexOf(':') >= 0 ? parseIpv6(addressText) : parseIpv4(addressText);
        if (address == null) {
            return null;
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String prefixText = trimmed.substring(slash + 1);
            if (prefixText.isEmpty() || prefixText.length() > 3 || !prefixText.chars().allMatch(IpRange::isDigit)) {
                return null;
            }
            prefix = Integer.parseInt(prefixText);
            if (prefix > bits) {
                return null;
            }
        }
        if (address.length == 16 && isIpv4Mapped(address) && prefix >= 96) {
            // ::ffff:192.0.2.0/120 is 192.0.2.0/24.
            return new IpRange(mask(Arrays.copyOfRange(address, 12, 16), prefix - 96), prefix - 96);
        }
        return new IpRange(mask(address, prefix), prefix);
    }

    /** Whether the address (IPv4 or IPv6 text) lies in this range; false for text that is no address. */
    boolean contains(String addressText) {
        byte[] address = parseAddress(addressText.strip());
        if (address == null) {
            return false;
        }
        if (address.length != network.length) {
            if (address.length == 4) {
                address = mapped(address);
            } else {
                return false;
            }
        }
        return Arrays.equals(mask(address, prefixLength), network);
    }

    /** The address as 4 or 16 bytes (an IPv4-mapped IPv6 address as its 4 IPv4 bytes); null if not an address. */
    static byte @Nullable [] parseAddress(String text) {
        if (text.indexOf(':') >= 0) {
            byte[] v6 = parseIpv6(text);
            return v6 != null && isIpv4Mapped(v6) ? Arrays.copyOfRange(v6, 12, 16) : v6;
        }
        return parseIpv4(text);
    }

    private static byte @Nullable [] parseIpv4(String text) {
        String[] octets = text.split("\\.", -1);
        if (octets.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String octet = octets[i];
            if (octet.isEmpty() || octet.length() > 3 || !octet.chars().allMatch(IpRange::isDigit)
                    || octet.length() > 1 && octet.charAt(0) == '0') {
                return null;
            }
            int value = Integer.parseInt(octet);
            if (value > 255) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    private static byte @Nullable [] parseIpv6(String text) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        int[] head;
        int[] tail;
        if (gap < 0) {
            head = groups(text, true);
            tail = new int[0];
            if (head == null || head.length != 8) {
                return null;
            }
        } else {
            String headText = text.substring(0, gap);
            String tailText = text.substring(gap + 2);
            head = headText.isEmpty() ? new int[0] : groups(headText, false);
            tail = tailText.isEmpty() ? new int[0] : groups(tailText, true);
            if (head == null || tail == null || head.length + tail.length > 7) {
                return null;
            }
        }
        byte[] bytes = new byte[16];
        for (int i = 0; i < head.length; i++) {
            bytes[2 * i] = (byte) (head[i] >> 8);
            bytes[2 * i + 1] = (byte) head[i];
        }
        int offset = 8 - tail.length;
        for (int i = 0; i < tail.length; i++) {
            bytes[2 * (offset + i)] = (byte) (tail[i] >> 8);
            bytes[2 * (offset + i) + 1] = (byte) tail[i];
        }
        return bytes;
    }

    /** The 16-bit groups of a colon-separated run; a trailing dotted IPv4 address counts as two groups. */
    private static int @Nullable [] groups(String text, boolean mayEndInIpv4) {
        String[] pieces = text.split(":", -1);
        int[] groups = new int[pieces.length + 1];
        int count = 0;
        for (int i = 0; i < pieces.length; i++) {
            String piece = pieces[i];
            if (mayEndInIpv4 && i == pieces.length - 1 && piece.indexOf('.') >= 0) {
                byte[] v4 = parseIpv4(piece);
                if (v4 == null) {
                    return null;
                }
                groups[count++] = (v4[0] & 0xff) << 8 | v4[1] & 0xff;
                groups[count++] = (v4[2] & 0xff) << 8 | v4[3] & 0xff;
            } else {
                if (piece.isEmpty() || piece.length() > 4
                        || !piece.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128)) {
                    return null;
                }
                groups[count++] = Integer.parseInt(piece, 16);
            }
        }
        return Arrays.copyOf(groups, count);
    }

    private static boolean isIpv4Mapped(byte[] v6) {
        for (int i = 0; i < 10; i++) {
            if (v6[i] != 0) {
                return false;
            }
        }
        return v6[10] == (byte) 0xff && v6[11] == (byte) 0xff;
    }

    private static byte[] mapped(byte[] v4) {
        byte[] v6 = new byte[16];
        v6[10] = (byte) 0xff;
        v6[11] = (byte) 0xff;
        System.arraycopy(v4, 0, v6, 12, 4);
        return v6;
    }

    private static byte[] mask(byte[] address, int prefixLength) {
        byte[] masked = address.clone();
        for (int i = 0; i < masked.length; i++) {
            int keep = Math.clamp(prefixLength - 8L * i, 0, 8);
            masked[i] &= (byte) (0xff << (8 - keep));
        }
        return masked;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    @Override
    public String toString() {
        return Arrays.toString(network) + "/" + prefixLength;
    }
}

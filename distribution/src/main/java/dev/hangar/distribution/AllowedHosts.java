package dev.hangar.distribution;

import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The names a request to the management port may give in its {@code Host} header.
 *
 * <p>This defeats DNS rebinding: a web page on {@code evil.example} whose name its owner then points at
 * {@code 127.0.0.1} reaches the management port from the browser of someone running Hangar, but the browser
 * still sends {@code Host: evil.example}. Allowed are {@code localhost}, the management bind address, the names
 * an operator lists ({@code hangar.admin.allowed-hosts}, {@code *} for any), and every IP address: a browser
 * sends an address as Host only for a page loaded from that very address, which an attacker cannot serve
 * (and so health probes and scrapers that know a node by its address keep working).
 *
 * @param names allowed host names, lower case
 * @param any whether every Host is allowed ({@code *})
 */
record AllowedHosts(Set<String> names, boolean any) {
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]*:[0-9a-f:.]*");
    private static final Pattern PORT = Pattern.compile("\\d{1,5}");

    AllowedHosts {
        names = Set.copyOf(names);
    }

    /**
     * @param bindAddress the management bind address as configured (a name or an address), or null
     * @param configured further names ({@code hangar.admin.allowed-hosts}); {@code *} allows every Host
     */
    static AllowedHosts of(@Nullable String bindAddress, Collection<String> configured) {
        Set<String> names = new HashSet<>();
        names.add("localhost");
        boolean any = false;
        if (bindAddress != null && !bindAddress.isBlank()) {
            names.add(bare(bindAddress.strip()));
        }
        for (String entry : configured) {
            String name = entry.strip();
            if (name.equals("*")) {
                any = true;
            } else if (!name.isEmpty()) {
                String host = hostName(name);
                names.add(host == null ? bare(name) : host);
            }
        }
        return new AllowedHosts(names, any);
    }

    /** Whether a request with this {@code Host} header (null: none) may reach the management port. */
    boolean allows(@Nullable String hostHeader) {
        if (any) {
            return true;
        }
        if (hostHeader == null) {
            return false;
        }
        String host = hostName(hostHeader);
        return host != null && (isAddress(host) || names.contains(host));
    }

    /**
     * The host of a {@code Host} header without its port, lower case, an IPv6 address without its brackets;
     * null when the header is not {@code host[:port]}.
     */
    static @Nullable String hostName(String header) {
        String value = header.strip().toLowerCase(Locale.ROOT);
        String host;
        String port;
        if (value.startsWith("[")) {
            int end = value.indexOf(']');
            if (end < 0) {
                return null;
            }
            host = value.substring(1, end);
            if (!IPV6.matcher(host).matches()) {
                return null;
            }
            String rest = value.substring(end + 1);
            if (rest.isEmpty()) {
                return host;
            }
            if (!rest.startsWith(":")) {
                return null;
            }
            port = rest.substring(1);
        } else {
            int colon = value.indexOf(':');
            if (colon != value.lastIndexOf(':')) {
                return null;
            }
            host = colon < 0 ? value : value.substring(0, colon);
            port = colon < 0 ? null : value.substring(colon + 1);
        }
        if (host.isEmpty() || (port != null && !PORT.matcher(port).matches())) {
            return null;
        }
        return host;
    }

    private static boolean isAddress(String host) {
        return IPV4.matcher(host).matches() || IPV6.matcher(host).matches();
    }

    private static String bare(String address) {
        String lower = address.toLowerCase(Locale.ROOT);
        return lower.startsWith("[") && lower.endsWith("]") ? lower.substring(1, lower.length() - 1) : lower;
    }
}

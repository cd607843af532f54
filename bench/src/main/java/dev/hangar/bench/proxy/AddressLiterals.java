package dev.hangar.bench.proxy;

import java.util.regex.Pattern;

/** The syntax of IP address literals and host names, checked without DNS. */
final class AddressLiterals {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
    static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?)*");

    private AddressLiterals() {
    }

    static boolean isLiteral(String text) {
        return IPV4.matcher(text).matches() || IPV6.matcher(text).matches();
    }
}

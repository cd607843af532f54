package dev.hangar.s3api.auth;

import java.util.Arrays;
import java.util.Optional;

/**
 * The {@code Credential} of a signature: {@code AKID/yyyyMMdd/region/service/aws4_request}. The four scope
 * parts are taken from the right, so an access key id is whatever precedes them.
 */
record CredentialScope(String accessKeyId, String date, String region, String service, String terminator) {

    static Optional<CredentialScope> parse(String credential) {
        String[] parts = credential.split("/", -1);
        if (parts.length < 5) {
            return Optional.empty();
        }
        int last = parts.length - 1;
        String accessKeyId = String.join("/", Arrays.copyOf(parts, parts.length - 4));
        if (accessKeyId.isEmpty() || !isDate(parts[last - 3])) {
            return Optional.empty();
        }
        return Optional.of(new CredentialScope(accessKeyId, parts[last - 3], parts[last - 2], parts[last - 1],
                parts[last]));
    }

    /** The scope as it appears in strings to sign: {@code yyyyMMdd/region/service/aws4_request}. */
    String scope() {
        return date + '/' + region + '/' + service + '/' + terminator;
    }

    private static boolean isDate(String value) {
        return value.length() == 8 && value.chars().allMatch(character -> character >= '0' && character <= '9');
    }
}

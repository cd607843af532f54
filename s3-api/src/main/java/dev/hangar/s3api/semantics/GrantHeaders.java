package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.Permission;
import dev.hangar.s3api.xml.S3Xml;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The ACL headers of a request: the canned ACL of {@code x-amz-acl}, or the {@code x-amz-grant-*}
 * headers (of PutBucketAcl, CreateBucket, PutObjectAcl and object writes), read into grants. Each header
 * names one permission and lists its grantees, comma-separated, each as {@code type="value"}:
 * {@code id} (a canonical user), {@code uri} (a group) or {@code emailAddress}, e.g.
 * {@code x-amz-grant-read: id="AKEXAMPLE", uri="http://acs.amazonaws.com/groups/global/AllUsers"}.
 * A value that is not such a list is InvalidArgument, as S3 answers it.
 */
final class GrantHeaders {
    /** The canned ACL header. */
    static final String ACL_HEADER = "x-amz-acl";

    /** The headers, in the order their grants are listed. */
    static final Map<String, Permission> HEADERS = headers();

    private static final Set<String> KNOWN_GROUPS = Set.of(Grantee.Group.ALL_USERS_URI,
            Grantee.Group.AUTHENTICATED_USERS_URI, Grantee.Group.LOG_DELIVERY_URI);

    private GrantHeaders() {}

    private static Map<String, Permission> headers() {
        Map<String, Permission> headers = new LinkedHashMap<>();
        headers.put("x-amz-grant-full-control", Permission.FULL_CONTROL);
        headers.put("x-amz-grant-read", Permission.READ);
        headers.put("x-amz-grant-read-acp", Permission.READ_ACP);
        headers.put("x-amz-grant-write", Permission.WRITE);
        headers.put("x-amz-grant-write-acp", Permission.WRITE_ACP);
        return Collections.unmodifiableMap(headers);
    }

    /**
     * The canned ACL the request names, stripped; null when it names none.
     *
     * @throws S3Exception InvalidRequest when grant headers are given beside it, as S3 refuses them
     */
    static @Nullable String cannedOrNone(Function<String, @Nullable String> headers) {
        String canned = headers.apply(ACL_HEADER);
        if (canned == null) {
            return null;
        }
        if (present(headers)) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Specifying both Canned ACLs and Header Grants is not allowed");
        }
        return canned.strip();
    }

    /** Whether the request has any grant header. */
    static boolean present(Function<String, @Nullable String> headers) {
        return HEADERS.keySet().stream().anyMatch(name -> headers.apply(name) != null);
    }

    /**
     * The grants of every grant header present, header by header in {@link #HEADERS}' order, grantees
     * in the order listed.
     *
     * @throws S3Exception InvalidArgument for a value that is not a list of grantees or names a group S3
     *     does not have, MalformedACLError for more grants than an ACL holds ({@value S3Xml#MAXIMUM_GRANTS},
     *     as for a body: a longer list could be stored but never read back), UnresolvableGrantByEmailAddress for an {@code emailAddress} grantee (Hangar's
     *     keys have no email address, so none resolves)
     */
    static List<Grant> parse(Function<String, @Nullable String> headers) {
        List<Grant> grants = new ArrayList<>();
        HEADERS.forEach((name, permission) -> {
            String value = headers.apply(name);
            if (value != null) {
                for (Grantee grantee : grantees(name, value)) {
                    grants.add(new Grant(grantee, permission));
                }
            }
        });
        if (grants.size() > S3Xml.MAXIMUM_GRANTS) {
            throw new S3Exception(S3Error.MALFORMED_ACL_ERROR, S3Error.MALFORMED_ACL_ERROR.message()
                    + " An ACL has at most " + S3Xml.MAXIMUM_GRANTS + " grants; the headers give " + grants.size() + ".");
        }
        return List.copyOf(grants);
    }

    /** The grantees of one header's value. */
    static List<Grantee> grantees(String header, String value) {
        List<Grantee> grantees = new ArrayList<>();
        int position = 0;
        int length = value.length();
        while (true) {
            position = skipSpaces(value, position);
            int equals = value.indexOf('=', position);
            if (equals < 0) {
                throw malformed(header, value);
            }
            String type = value.substring(position, equals).strip();
            int start = skipSpaces(value, equals + 1);
            String granteeValue;
            int end;
            if (start < length && value.charAt(start) == '"') {
                int close = value.indexOf('"', start + 1);
                if (close < 0) {
                    throw malformed(header, value);
                }
                granteeValue = value.substring(start + 1, close);
                end = skipSpaces(value, close + 1);
            } else {
                int comma = value.indexOf(',', start);
                end = comma < 0 ? length : comma;
                granteeValue = value.substring(start, end).strip();
                if (granteeValue.indexOf('"') >= 0) {
                    throw malformed(header, value);
                }
            }
            if (granteeValue.isEmpty()) {
                throw malformed(header, value);
            }
            grantees.add(grantee(header, value, type, granteeValue));
            if (end >= length) {
                return List.copyOf(grantees);
            }
            if (value.charAt(end) != ',') {
                throw malformed(header, value);
            }
            position = end + 1;
        }
    }

    private static Grantee grantee(String header, String value, String type, String granteeValue) {
        return switch (type) {
            case "id" -> new Grantee.CanonicalUser(granteeValue, null);
            case "uri" -> {
                if (!KNOWN_GROUPS.contains(granteeValue)) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid group uri");
                }
                yield new Grantee.Group(granteeValue);
            }
            case "emailAddress" -> throw new S3Exception(S3Error.UNRESOLVABLE_GRANT_BY_EMAIL_ADDRESS,
                    "The e-mail address you provided does not match any account on record: Hangar's access keys "
                            + "have no e-mail address; grant to a key by its canonical id (id=\"ACCESS-KEY-ID\").");
            default -> throw malformed(header, value);
        };
    }

    private static int skipSpaces(String value, int position) {
        int at = position;
        while (at < value.length() && Character.isWhitespace(value.charAt(at))) {
            at++;
        }
        return at;
    }

    private static S3Exception malformed(String header, String value) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid value of " + header + ": '" + value
                + "'; expected a comma-separated list of id=\"...\", uri=\"...\" or emailAddress=\"...\".");
    }
}

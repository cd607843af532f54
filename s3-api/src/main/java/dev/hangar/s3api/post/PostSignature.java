package dev.hangar.s3api.post;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies the SigV4 signature of a POST policy: {@code hex(HMAC-SHA256(signingKey, policy))}, where the string
 * signed is the form's {@code policy} field exactly as received (the base64 text, not the JSON) and the signing
 * key is derived as for any SigV4 request from the secret key and the credential's date, region and {@code s3}.
 *
 * <p>The form carries the signature's inputs as fields: {@code x-amz-algorithm} (which must be
 * {@value #ALGORITHM}; the caller checks it, since it chooses between this and anything else),
 * {@code x-amz-credential}, {@code x-amz-date} and {@code x-amz-signature}.
 */
public final class PostSignature {
    /** The one {@code x-amz-algorithm} a SigV4 POST may name. */
    public static final String ALGORITHM = "AWS4-HMAC-SHA256";

    private static final String SERVICE = "s3";
    private static final String TERMINATOR = "aws4_request";
    private static final DateTimeFormatter CREDENTIAL_DATE =
            DateTimeFormatter.ofPattern("uuuuMMdd", Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'", Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);
    private static final HexFormat HEX = HexFormat.of();

    private PostSignature() {
    }

    /**
     * Checks the signature and returns the access key that made it.
     *
     * @param base64Policy the {@code policy} field as received
     * @param credential the {@code x-amz-credential} field: {@code AKID/yyyyMMdd/region/s3/aws4_request}
     * @param amzDate the {@code x-amz-date} field, {@code yyyyMMdd'T'HHmmss'Z'}, whose day is the credential's
     * @param signatureHex the {@code x-amz-signature} field; hex letters in either case
     * @param secretKeys the secret key of an access key id, empty when there is no such key
     * @param region the region this endpoint answers for
     * @return the access key id of the credential
     * @throws S3Exception {@link S3Error#INVALID_ARGUMENT} for a credential that is malformed or scoped to another
     *     region, service or terminator, or an {@code x-amz-date} that is malformed or of another day (S3 answers a
     *     POST's credential errors so, with the messages a presigned URL gets); {@link S3Error#INVALID_ACCESS_KEY_ID}
     *     for an unknown key; {@link S3Error#SIGNATURE_DOES_NOT_MATCH} for a wrong signature
     */
    public static String verify(String base64Policy, String credential, String amzDate, String signatureHex,
            Function<String, Optional<String>> secretKeys, String region) {
        String[] parts = credential.split("/", -1);
        if (parts.length < 5) {
            throw invalidArgument("the Credential is mal-formed; expecting "
                    + "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
        }
        int last = parts.length - 1;
        String accessKeyId = String.join("/", Arrays.copyOf(parts, parts.length - 4));
        String date = parts[last - 3];
        String scopeRegion = parts[last - 2];
        String service = parts[last - 1];
        String terminator = parts[last];
        if (accessKeyId.isEmpty()) {
            throw invalidArgument("a non-empty Access Key (AKID) must be provided in the credential.");
        }
        if (!isDate(date)) {
            throw invalidArgument("incorrect date format \"" + date
                    + "\". This date in the credential must be in the format \"yyyyMMdd\".");
        }
        if (!scopeRegion.equals(region)) {
            throw invalidArgument("the region '" + scopeRegion + "' is wrong; expecting '" + region + "'");
        }
        if (!service.equals(SERVICE)) {
            throw invalidArgument("incorrect service \"" + service + "\". This endpoint belongs to \"" + SERVICE
                    + "\".");
        }
        if (!terminator.equals(TERMINATOR)) {
            throw invalidArgument("incorrect terminal \"" + terminator + "\". This endpoint uses \"" + TERMINATOR
                    + "\".");
        }
        if (!isAmzDate(amzDate)) {
            // S3's own spelling, "formated".
            throw invalidArgument("X-Amz-Date must be formated via ISO8601 Long format");
        }
        if (!amzDate.startsWith(date)) {
            throw invalidArgument("Invalid credential date \"" + date
                    + "\". This date is not the same as X-Amz-Date: \"" + amzDate.substring(0, 8) + "\".");
        }
        String secretKey = secretKeys.apply(accessKeyId).orElseThrow(() -> new S3Exception(
                S3Error.INVALID_ACCESS_KEY_ID));
        String expected = sign(secretKey, date, region, base64Policy);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                signatureHex.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH);
        }
        return accessKeyId;
    }

    /** The lower-case hex signature of a policy under a secret key, for a credential of this day and region. */
    static String sign(String secretKey, String date, String region, String base64Policy) {
        byte[] dateKey = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), date);
        byte[] regionKey = hmac(dateKey, region);
        byte[] serviceKey = hmac(regionKey, SERVICE);
        byte[] signingKey = hmac(serviceKey, TERMINATOR);
        return HEX.formatHex(hmac(signingKey, base64Policy));
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            // HmacSHA256 is required of every Java platform and any key length is valid for it.
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static boolean isDate(String value) {
        try {
            LocalDate.parse(value, CREDENTIAL_DATE);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isAmzDate(String value) {
        try {
            LocalDateTime.parse(value, AMZ_DATE);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static S3Exception invalidArgument(String message) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, message);
    }
}

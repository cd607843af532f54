package dev.hangar.s3api.xml;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.InputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What the configuration parsers share: opening a body, reading typed values from element text,
 * and the errors S3 answers beyond MalformedXML. Values typed as numbers, booleans, timestamps or
 * enumerations are read with surrounding white space removed (XML Schema collapses it for every
 * type but string); free text is kept as sent.
 */
final class RequestValues {
    private RequestValues() {}

    /** Reads the body and moves to its root, refusing an empty body as S3 does (MalformedXML). */
    static XmlDocumentReader open(InputStream body, int maximumBytes, String rootName) {
        byte[] bytes = XmlDocumentReader.readBounded(body, maximumBytes);
        if (XmlDocumentReader.isBlank(bytes)) {
            throw XmlDocumentReader.malformed("The request body is empty.");
        }
        return XmlDocumentReader.openAtRoot(bytes, rootName);
    }

    /** The value, refusing a second one for the same element. */
    static <T> T once(@Nullable T existing, T value, String context, String elementName) {
        if (existing != null) {
            throw XmlDocumentReader.malformed(context + " has more than one " + elementName + ".");
        }
        return value;
    }

    /** The value, refusing its absence. */
    static <T> T required(@Nullable T value, String context, String elementName) {
        if (value == null) {
            throw XmlDocumentReader.malformed(context + " has no " + elementName + ".");
        }
        return value;
    }

    /** An xsd:int, leading sign and zeros allowed. */
    static int integer(String text, String elementName) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException exception) {
            throw XmlDocumentReader.malformed(elementName + " has to be an integer.");
        }
    }

    /** An xsd:long. */
    static long longInteger(String text, String elementName) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException exception) {
            throw XmlDocumentReader.malformed(elementName + " has to be an integer.");
        }
    }

    /** An xsd:boolean; case is forgiven because clients differ. */
    static boolean bool(String text, String elementName) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw XmlDocumentReader.malformed(elementName + " has to be true or false.");
        };
    }

    /**
     * An ISO 8601 timestamp, as botocore writes one ({@code 2026-01-01T00:00:00Z}, with a fraction
     * when there is one) and as other clients do: with any offset, without one (read as UTC), or a
     * date alone (midnight UTC). Anything else, an HTTP date among them, is MalformedXML, as S3
     * answered {@code Fri, 01 Jan 2016 00:00:00 GMT} in a lifecycle rule.
     */
    static Instant timestamp(String text, String elementName) {
        String value = text.strip();
        try {
            return OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            // Try the forms without an offset below.
        }
        try {
            return LocalDateTime.parse(value, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notLocal) {
            // Try a date alone below.
        }
        try {
            return LocalDate.parse(value, DateTimeFormatter.ISO_LOCAL_DATE).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notADate) {
            throw XmlDocumentReader.malformed(elementName + " has to be an ISO 8601 timestamp.");
        }
    }

    /** The enumeration constant whose wire spelling is the text, or MalformedXML naming the element. */
    static <E extends Enum<E>> E enumeration(
            String text, E[] constants, Function<E, String> wireName, String elementName) {
        String value = text.strip();
        for (E constant : constants) {
            if (wireName.apply(constant).equals(value)) {
                return constant;
            }
        }
        throw XmlDocumentReader.malformed(elementName + " has to be one of " + spellings(constants, wireName) + ".");
    }

    private static <E extends Enum<E>> String spellings(E[] constants, Function<E, String> wireName) {
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < constants.length; index++) {
            if (index > 0) {
                text.append(index == constants.length - 1 ? " or " : ", ");
            }
            text.append(wireName.apply(constants[index]));
        }
        return text.toString();
    }

    static S3Exception invalidArgument(String message) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, message);
    }

    static S3Exception invalidRequest(String message) {
        return new S3Exception(S3Error.INVALID_REQUEST, message);
    }

    static S3Exception invalidTag(String message) {
        return new S3Exception(S3Error.INVALID_TAG, message);
    }

    static S3Exception invalidRetentionPeriod(String message) {
        return new S3Exception(S3Error.INVALID_RETENTION_PERIOD, message);
    }

    static S3Exception malformedAcl(String detail) {
        return new S3Exception(S3Error.MALFORMED_ACL_ERROR, S3Error.MALFORMED_ACL_ERROR.message() + " " + detail);
    }
}

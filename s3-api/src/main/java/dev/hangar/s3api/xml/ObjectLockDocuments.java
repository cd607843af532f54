package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The Object Lock documents, both ways: {@code ObjectLockConfiguration}, {@code Retention} and
 * {@code LegalHold}. As S3 answered in LocalStack's recordings and ceph s3-tests: a configuration
 * without {@code ObjectLockEnabled} or with another value, an empty {@code Rule} or {@code
 * DefaultRetention}, a mode without a period, an unknown mode, days and years together, a retention
 * with only one of mode and date, and an unknown legal hold status are MalformedXML; a period that
 * is not positive, or too long, is InvalidRetentionPeriod.
 */
final class ObjectLockDocuments {
    private static final String CONFIGURATION = "ObjectLockConfiguration";
    private static final Set<String> DEFAULT_RETENTION_ELEMENTS = Set.of("Mode", "Days", "Years");
    private static final Set<String> RETENTION_ELEMENTS = Set.of("Mode", "RetainUntilDate");
    private static final Set<String> LEGAL_HOLD_ELEMENTS = Set.of("Status");

    private ObjectLockDocuments() {}

    static ObjectLockConfiguration parseConfiguration(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, CONFIGURATION);
        @Nullable String enabled = null;
        ObjectLockConfiguration.@Nullable DefaultRetention retention = null;
        boolean ruleSeen = false;
        while (document.nextChild(CONFIGURATION)) {
            String name = document.s3LocalName();
            if ("ObjectLockEnabled".equals(name)) {
                enabled = RequestValues.once(enabled, document.text(), CONFIGURATION, "ObjectLockEnabled");
            } else if ("Rule".equals(name)) {
                if (ruleSeen) {
                    throw XmlDocumentReader.malformed(CONFIGURATION + " has more than one Rule.");
                }
                ruleSeen = true;
                retention = rule(document);
            } else {
                document.skip();
            }
        }
        document.finish();
        if (enabled == null) {
            throw XmlDocumentReader.malformed(CONFIGURATION + " has no ObjectLockEnabled.");
        }
        if (!enabled.strip().equals("Enabled")) {
            throw XmlDocumentReader.malformed("ObjectLockEnabled has to be Enabled.");
        }
        return new ObjectLockConfiguration(retention);
    }

    private static ObjectLockConfiguration.DefaultRetention rule(XmlDocumentReader document) {
        ObjectLockConfiguration.@Nullable DefaultRetention retention = null;
        while (document.nextChild("Rule")) {
            if (document.isS3Element("DefaultRetention")) {
                retention = RequestValues.once(retention, defaultRetention(document), "Rule", "DefaultRetention");
            } else {
                document.skip();
            }
        }
        return RequestValues.required(retention, "Rule", "DefaultRetention");
    }

    private static ObjectLockConfiguration.DefaultRetention defaultRetention(XmlDocumentReader document) {
        Map<String, String> leaves = document.readLeaves(DEFAULT_RETENTION_ELEMENTS, "DefaultRetention");
        RetentionMode mode = mode(RequestValues.required(leaves.get("Mode"), "DefaultRetention", "Mode"));
        String days = leaves.get("Days");
        String years = leaves.get("Years");
        if ((days == null) == (years == null)) {
            throw XmlDocumentReader.malformed("DefaultRetention has to hold exactly one of Days and Years.");
        }
        if (days != null) {
            return ObjectLockConfiguration.DefaultRetention.days(
                    mode, period(RequestValues.integer(days, "Days"), S3Xml.MAXIMUM_RETENTION_DAYS));
        }
        return ObjectLockConfiguration.DefaultRetention.years(
                mode, period(RequestValues.integer(years, "Years"), S3Xml.MAXIMUM_RETENTION_YEARS));
    }

    private static int period(int value, int maximum) {
        if (value <= 0) {
            throw RequestValues.invalidRetentionPeriod("Default retention period must be a positive integer value.");
        }
        if (value > maximum) {
            throw RequestValues.invalidRetentionPeriod("Default retention period too large.");
        }
        return value;
    }

    private static RetentionMode mode(String text) {
        return RequestValues.enumeration(text, RetentionMode.values(), RetentionMode::name, "Mode");
    }

    static Retention parseRetention(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, "Retention");
        Map<String, String> leaves = document.readLeaves(RETENTION_ELEMENTS, "Retention");
        document.finish();
        String mode = leaves.get("Mode");
        String date = leaves.get("RetainUntilDate");
        if ((mode == null) != (date == null)) {
            throw XmlDocumentReader.malformed("Retention has to hold both a Mode and a RetainUntilDate, or neither.");
        }
        if (mode == null || date == null) {
            return Retention.none();
        }
        return new Retention(mode(mode), RequestValues.timestamp(date, "RetainUntilDate"));
    }

    static LegalHold parseLegalHold(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, "LegalHold");
        Map<String, String> leaves = document.readLeaves(LEGAL_HOLD_ELEMENTS, "LegalHold");
        document.finish();
        String status = RequestValues.required(leaves.get("Status"), "LegalHold", "Status");
        return new LegalHold(
                RequestValues.enumeration(status, LegalHold.Status.values(), LegalHold.Status::name, "Status"));
    }

    static byte[] renderConfiguration(ObjectLockConfiguration configuration) {
        XmlDocumentWriter document =
                XmlDocumentWriter.inS3Namespace(CONFIGURATION).element("ObjectLockEnabled", "Enabled");
        ObjectLockConfiguration.DefaultRetention retention = configuration.defaultRetention();
        if (retention != null) {
            document.start("Rule").start("DefaultRetention").element("Mode", retention.mode().name());
            Integer days = retention.days();
            if (days != null) {
                document.element("Days", days.longValue());
            }
            Integer years = retention.years();
            if (years != null) {
                document.element("Years", years.longValue());
            }
            document.end().end();
        }
        return document.finish();
    }

    static byte[] renderRetention(Retention retention) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("Retention");
        RetentionMode mode = retention.mode();
        Instant date = retention.retainUntilDate();
        if (mode != null && date != null) {
            document.element("Mode", mode.name()).element("RetainUntilDate", date);
        }
        return document.finish();
    }

    static byte[] renderLegalHold(LegalHold legalHold) {
        return XmlDocumentWriter.inS3Namespace("LegalHold").element("Status", legalHold.status().name()).finish();
    }
}

package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code LifecycleConfiguration} document, both ways. The parser refuses what
 * PutBucketLifecycleConfiguration refuses, with the codes and messages S3 answered (LocalStack's
 * snapshots recorded against S3, and answers quoted in public issue trackers): schema faults are
 * MalformedXML, bad numbers and dates InvalidArgument, combinations S3 does not allow
 * InvalidRequest. Checks within a rule run as the rule is read; those across rules (the two forms
 * mixed, an ID used twice) once all are read.
 */
final class LifecycleDocuments {
    private static final String ROOT = "LifecycleConfiguration";
    private static final int MAXIMUM_ID_LENGTH = 255;
    /** The bound S3 names when it refuses a size filter. */
    private static final long MAXIMUM_SIZE_FILTER = 1_099_511_627_776_000L;
    private static final Set<String> STORAGE_CLASSES =
            Set.of("GLACIER", "STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "DEEP_ARCHIVE", "GLACIER_IR");

    private LifecycleDocuments() {}

    static LifecycleConfiguration parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        List<LifecycleRule> rules = new ArrayList<>();
        while (document.nextChild(ROOT)) {
            if (document.isS3Element("Rule")) {
                if (rules.size() == S3Xml.MAXIMUM_LIFECYCLE_RULES) {
                    throw RequestValues.invalidRequest("The number of lifecycle rules must not exceed the allowed "
                            + "limit of " + S3Xml.MAXIMUM_LIFECYCLE_RULES + " rules.");
                }
                rules.add(rule(document, "Rule " + (rules.size() + 1)));
            } else {
                document.skip();
            }
        }
        document.finish();
        if (rules.isEmpty()) {
            throw RequestValues.invalidRequest("At least one lifecycle rule must be specified.");
        }
        checkAcrossRules(rules);
        return new LifecycleConfiguration(rules);
    }

    private static void checkAcrossRules(List<LifecycleRule> rules) {
        boolean firstHasFilter = rules.getFirst().filter() != null;
        for (LifecycleRule rule : rules) {
            boolean hasFilter = rule.filter() != null;
            if (hasFilter != firstHasFilter) {
                throw RequestValues.invalidRequest(firstHasFilter
                        ? "Base level prefix cannot be used in Lifecycle V2, prefixes are only supported in the Filter."
                        : "Filter element can only be used in Lifecycle V2.");
            }
            if (!hasFilter && usesNewerNoncurrentVersions(rule)) {
                throw RequestValues.invalidRequest("NewerNoncurrentVersions element can only be used in Lifecycle V2.");
            }
        }
        Set<String> ids = new HashSet<>();
        for (LifecycleRule rule : rules) {
            String id = rule.id();
            if (id != null && !ids.add(id)) {
                throw RequestValues.invalidArgument("Rule ID must be unique. Found same ID for more than one rule");
            }
        }
    }

    private static boolean usesNewerNoncurrentVersions(LifecycleRule rule) {
        NoncurrentVersionExpiration expiration = rule.noncurrentVersionExpiration();
        if (expiration != null && expiration.newerNoncurrentVersions() != null) {
            return true;
        }
        return rule.noncurrentVersionTransitions().stream().anyMatch(t -> t.newerNoncurrentVersions() != null);
    }

    private static LifecycleRule rule(XmlDocumentReader document, String context) {
        @Nullable String id = null;
        @Nullable String prefix = null;
        @Nullable LifecycleFilter filter = null;
        LifecycleRule.@Nullable Status status = null;
        @Nullable LifecycleExpiration expiration = null;
        @Nullable NoncurrentVersionExpiration noncurrentExpiration = null;
        @Nullable AbortIncompleteMultipartUpload abort = null;
        List<LifecycleTransition> transitions = new ArrayList<>();
        List<NoncurrentVersionTransition> noncurrentTransitions = new ArrayList<>();
        while (document.nextChild(context)) {
            String name = document.s3LocalName();
            switch (name == null ? "" : name) {
                case "ID" -> id = RequestValues.once(id, document.text(), context, "ID");
                case "Prefix" -> prefix = RequestValues.once(prefix, document.text(), context, "Prefix");
                case "Filter" ->
                    filter = RequestValues.once(filter, filter(document, context + " Filter"), context, "Filter");
                case "Status" -> status = RequestValues.once(status, RequestValues.enumeration(document.text(),
                        LifecycleRule.Status.values(), LifecycleRule.Status::wireName, "Status"), context, "Status");
                case "Expiration" -> expiration =
                        RequestValues.once(
                                expiration, expiration(document, context + " Expiration"), context, "Expiration");
                case "Transition" -> transitions.add(transition(document, context + " Transition"));
                case "NoncurrentVersionExpiration" -> noncurrentExpiration = RequestValues.once(noncurrentExpiration,
                        noncurrentExpiration(document, context + " NoncurrentVersionExpiration"), context,
                        "NoncurrentVersionExpiration");
                case "NoncurrentVersionTransition" ->
                    noncurrentTransitions.add(noncurrentTransition(document, context + " NoncurrentVersionTransition"));
                case "AbortIncompleteMultipartUpload" -> abort = RequestValues.once(abort,
                        abort(document, context + " AbortIncompleteMultipartUpload"), context,
                        "AbortIncompleteMultipartUpload");
                default -> document.skip();
            }
        }
        if (id != null && id.length() > MAXIMUM_ID_LENGTH) {
            throw RequestValues.invalidArgument("ID length should not exceed allowed limit of " + MAXIMUM_ID_LENGTH);
        }
        if (status == null) {
            throw XmlDocumentReader.malformed(context + " has no Status.");
        }
        if (filter != null && prefix != null) {
            throw XmlDocumentReader.malformed(context + " has both a Filter and a rule-level Prefix.");
        }
        if (filter == null && prefix == null) {
            throw XmlDocumentReader.malformed(context + " has neither a Filter nor a Prefix.");
        }
        if (transitions.isEmpty() && expiration == null && noncurrentTransitions.isEmpty()
                && noncurrentExpiration == null && abort == null) {
            throw RequestValues.invalidRequest("At least one action needs to be specified in a rule");
        }
        if (filter != null) {
            if (abort != null) {
                refuseFilterFor(filter, "AbortIncompleteMultipartUpload");
            }
            if (expiration != null && expiration.expiredObjectDeleteMarker() != null) {
                refuseFilterFor(filter, "ExpiredObjectDeleteMarker");
            }
        }
        return new LifecycleRule(id, filter, prefix, status, transitions, expiration, noncurrentTransitions,
                noncurrentExpiration, abort);
    }

    /** Neither an abort nor a delete-marker expiration may be limited by tags or size. */
    private static void refuseFilterFor(LifecycleFilter filter, String action) {
        if (filter.usesTags()) {
            throw RequestValues.invalidRequest(action + " cannot be specified with Tags.");
        }
        if (filter.usesObjectSize()) {
            throw RequestValues.invalidRequest(action + " cannot be specified with Object Size.");
        }
    }

    private static LifecycleFilter filter(XmlDocumentReader document, String context) {
        @Nullable String prefix = null;
        @Nullable Tag tag = null;
        @Nullable Long greaterThan = null;
        @Nullable Long lessThan = null;
        LifecycleFilter.@Nullable And and = null;
        int predicates = 0;
        while (document.nextChild(context)) {
            String name = document.s3LocalName();
            switch (name == null ? "" : name) {
                case "Prefix" -> prefix = RequestValues.once(prefix, document.text(), context, "Prefix");
                case "Tag" -> tag = RequestValues.once(tag, filterTag(document, context + " Tag"), context, "Tag");
                case "ObjectSizeGreaterThan" -> greaterThan = RequestValues.once(greaterThan,
                        sizeGreaterThan(document.text()), context, "ObjectSizeGreaterThan");
                case "ObjectSizeLessThan" -> lessThan =
                        RequestValues.once(lessThan, sizeLessThan(document.text()), context, "ObjectSizeLessThan");
                case "And" -> and = RequestValues.once(and, and(document, context + " And"), context, "And");
                default -> {
                    document.skip();
                    continue;
                }
            }
            predicates++;
        }
        if (predicates > 1) {
            throw XmlDocumentReader.malformed(context + " holds more than one predicate; they are combined in an And.");
        }
        return new LifecycleFilter(prefix, tag, greaterThan, lessThan, and);
    }

    private static LifecycleFilter.And and(XmlDocumentReader document, String context) {
        @Nullable String prefix = null;
        @Nullable Long greaterThan = null;
        @Nullable Long lessThan = null;
        List<Tag> tags = new ArrayList<>();
        while (document.nextChild(context)) {
            String name = document.s3LocalName();
            switch (name == null ? "" : name) {
                case "Prefix" -> prefix = RequestValues.once(prefix, document.text(), context, "Prefix");
                case "Tag" -> tags.add(filterTag(document, context + " Tag " + (tags.size() + 1)));
                case "ObjectSizeGreaterThan" -> greaterThan = RequestValues.once(greaterThan,
                        sizeGreaterThan(document.text()), context, "ObjectSizeGreaterThan");
                case "ObjectSizeLessThan" -> lessThan =
                        RequestValues.once(lessThan, sizeLessThan(document.text()), context, "ObjectSizeLessThan");
                default -> document.skip();
            }
        }
        int predicates =
                (prefix == null ? 0 : 1) + tags.size() + (greaterThan == null ? 0 : 1) + (lessThan == null ? 0 : 1);
        if (predicates < 2) {
            throw XmlDocumentReader.malformed(context + " combines fewer than two predicates.");
        }
        Set<String> keys = new HashSet<>();
        for (Tag tag : tags) {
            if (!keys.add(tag.key())) {
                throw RequestValues.invalidRequest("Duplicate Tag Keys are not allowed.");
            }
        }
        if (greaterThan != null && lessThan != null && greaterThan >= lessThan) {
            throw RequestValues.invalidRequest(
                    "'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.");
        }
        return new LifecycleFilter.And(prefix, tags, greaterThan, lessThan);
    }

    /**
     * A filter's tag: {@code Key} is required; a {@code Value} left out reads as the empty value,
     * which the user guide says such a rule matches ("objects that ... do not have a value").
     */
    private static Tag filterTag(XmlDocumentReader document, String context) {
        var leaves = document.readLeaves(Set.of("Key", "Value"), context);
        String value = leaves.get("Value");
        return new Tag(RequestValues.required(leaves.get("Key"), context, "Key"), value == null ? "" : value);
    }

    private static long sizeGreaterThan(String text) {
        long size = RequestValues.longInteger(text, "ObjectSizeGreaterThan");
        if (size < 0 || size > MAXIMUM_SIZE_FILTER) {
            throw RequestValues.invalidRequest(
                    "'ObjectSizeGreaterThan' should be between 0 and " + MAXIMUM_SIZE_FILTER + ".");
        }
        return size;
    }

    private static long sizeLessThan(String text) {
        long size = RequestValues.longInteger(text, "ObjectSizeLessThan");
        if (size < 1 || size > MAXIMUM_SIZE_FILTER) {
            throw RequestValues.invalidRequest(
                    "'ObjectSizeLessThan' should be between 1 and " + MAXIMUM_SIZE_FILTER + ".");
        }
        return size;
    }

    private static LifecycleExpiration expiration(XmlDocumentReader document, String context) {
        @Nullable String date = null;
        @Nullable String days = null;
        @Nullable String marker = null;
        while (document.nextChild(context)) {
            String name = document.s3LocalName();
            switch (name == null ? "" : name) {
                case "Date" -> date = RequestValues.once(date, document.text(), context, "Date");
                case "Days" -> days = RequestValues.once(days, document.text(), context, "Days");
                case "ExpiredObjectDeleteMarker" ->
                    marker = RequestValues.once(marker, document.text(), context, "ExpiredObjectDeleteMarker");
                default -> document.skip();
            }
        }
        int set = (date == null ? 0 : 1) + (days == null ? 0 : 1) + (marker == null ? 0 : 1);
        if (set != 1) {
            throw XmlDocumentReader.malformed(
                    context + " has to hold exactly one of Date, Days and ExpiredObjectDeleteMarker.");
        }
        if (days != null) {
            int value = RequestValues.integer(days, "Days");
            if (value <= 0) {
                throw RequestValues.invalidArgument("'Days' for Expiration action must be a positive integer");
            }
            return LifecycleExpiration.afterDays(value);
        }
        if (date != null) {
            return LifecycleExpiration.on(midnight(RequestValues.timestamp(date, "Date")));
        }
        return LifecycleExpiration.expiredObjectDeleteMarker(
                RequestValues.bool(RequestValues.required(marker, context, "ExpiredObjectDeleteMarker"),
                        "ExpiredObjectDeleteMarker"));
    }

    private static Instant midnight(Instant date) {
        if (!LifecycleExpiration.isMidnightUtc(date)) {
            throw RequestValues.invalidArgument("'Date' must be at midnight GMT");
        }
        return date;
    }

    private static NoncurrentVersionExpiration noncurrentExpiration(XmlDocumentReader document, String context) {
        var leaves = document.readLeaves(Set.of("NoncurrentDays", "NewerNoncurrentVersions"), context);
        int days = RequestValues.integer(
                RequestValues.required(leaves.get("NoncurrentDays"), context, "NoncurrentDays"), "NoncurrentDays");
        if (days <= 0) {
            throw RequestValues.invalidArgument(
                    "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer");
        }
        return new NoncurrentVersionExpiration(
                days, newerNoncurrentVersions(leaves.get("NewerNoncurrentVersions"), "NoncurrentVersionExpiration"));
    }

    private static @Nullable Integer newerNoncurrentVersions(@Nullable String text, String action) {
        if (text == null) {
            return null;
        }
        int versions = RequestValues.integer(text, "NewerNoncurrentVersions");
        if (versions <= 0) {
            throw RequestValues.invalidArgument(
                    "'NewerNoncurrentVersions' for " + action + " action must be a positive integer");
        }
        return versions;
    }

    private static AbortIncompleteMultipartUpload abort(XmlDocumentReader document, String context) {
        var leaves = document.readLeaves(Set.of("DaysAfterInitiation"), context);
        int days = RequestValues.integer(
                RequestValues.required(leaves.get("DaysAfterInitiation"), context, "DaysAfterInitiation"),
                "DaysAfterInitiation");
        if (days <= 0) {
            throw RequestValues.invalidArgument(
                    "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer");
        }
        return new AbortIncompleteMultipartUpload(days);
    }

    private static LifecycleTransition transition(XmlDocumentReader document, String context) {
        var leaves = document.readLeaves(Set.of("Date", "Days", "StorageClass"), context);
        String date = leaves.get("Date");
        String days = leaves.get("Days");
        if ((date == null) == (days == null)) {
            throw XmlDocumentReader.malformed(context + " has to hold exactly one of Date and Days.");
        }
        String storageClass = storageClass(leaves.get("StorageClass"), context);
        if (days != null) {
            int value = RequestValues.integer(days, "Days");
            if (value < 0) {
                throw RequestValues.invalidArgument("'Days' for Transition action must be a nonnegative integer");
            }
            return new LifecycleTransition(null, value, storageClass);
        }
        return new LifecycleTransition(midnight(RequestValues.timestamp(date, "Date")), null, storageClass);
    }

    private static NoncurrentVersionTransition noncurrentTransition(XmlDocumentReader document, String context) {
        var leaves = document.readLeaves(Set.of("NoncurrentDays", "StorageClass", "NewerNoncurrentVersions"), context);
        int days = RequestValues.integer(
                RequestValues.required(leaves.get("NoncurrentDays"), context, "NoncurrentDays"), "NoncurrentDays");
        if (days < 0) {
            throw RequestValues.invalidArgument(
                    "'NoncurrentDays' for NoncurrentVersionTransition action must be a nonnegative integer");
        }
        return new NoncurrentVersionTransition(days, storageClass(leaves.get("StorageClass"), context),
                newerNoncurrentVersions(leaves.get("NewerNoncurrentVersions"), "NoncurrentVersionTransition"));
    }

    private static String storageClass(@Nullable String text, String context) {
        String storageClass = RequestValues.required(text, context, "StorageClass").strip();
        if (!STORAGE_CLASSES.contains(storageClass)) {
            throw XmlDocumentReader.malformed(context + " names a storage class S3 does not transition to.");
        }
        return storageClass;
    }

    static byte[] render(LifecycleConfiguration configuration) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(ROOT);
        for (LifecycleRule rule : configuration.rules()) {
            document.start("Rule").elementIfPresent("ID", rule.id());
            LifecycleFilter filter = rule.filter();
            if (filter != null) {
                filter(document, filter);
            } else {
                document.elementIfPresent("Prefix", rule.prefix());
            }
            document.element("Status", rule.status().wireName());
            for (LifecycleTransition transition : rule.transitions()) {
                document.start("Transition");
                dateOrDays(document, transition.date(), transition.days());
                document.element("StorageClass", transition.storageClass()).end();
            }
            LifecycleExpiration expiration = rule.expiration();
            if (expiration != null) {
                document.start("Expiration");
                dateOrDays(document, expiration.date(), expiration.days());
                Boolean marker = expiration.expiredObjectDeleteMarker();
                if (marker != null) {
                    document.element("ExpiredObjectDeleteMarker", marker.booleanValue());
                }
                document.end();
            }
            for (NoncurrentVersionTransition transition : rule.noncurrentVersionTransitions()) {
                document.start("NoncurrentVersionTransition")
                        .element("NoncurrentDays", transition.noncurrentDays())
                        .element("StorageClass", transition.storageClass());
                integerIfPresent(document, "NewerNoncurrentVersions", transition.newerNoncurrentVersions());
                document.end();
            }
            NoncurrentVersionExpiration noncurrentExpiration = rule.noncurrentVersionExpiration();
            if (noncurrentExpiration != null) {
                document.start("NoncurrentVersionExpiration")
                        .element("NoncurrentDays", noncurrentExpiration.noncurrentDays());
                integerIfPresent(document, "NewerNoncurrentVersions", noncurrentExpiration.newerNoncurrentVersions());
                document.end();
            }
            AbortIncompleteMultipartUpload abort = rule.abortIncompleteMultipartUpload();
            if (abort != null) {
                document.start("AbortIncompleteMultipartUpload")
                        .element("DaysAfterInitiation", abort.daysAfterInitiation())
                        .end();
            }
            document.end();
        }
        return document.finish();
    }

    private static void filter(XmlDocumentWriter document, LifecycleFilter filter) {
        document.start("Filter").elementIfPresent("Prefix", filter.prefix());
        Tag tag = filter.tag();
        if (tag != null) {
            TaggingDocuments.tag(document, tag);
        }
        longIfPresent(document, "ObjectSizeGreaterThan", filter.objectSizeGreaterThan());
        longIfPresent(document, "ObjectSizeLessThan", filter.objectSizeLessThan());
        LifecycleFilter.And and = filter.and();
        if (and != null) {
            document.start("And").elementIfPresent("Prefix", and.prefix());
            and.tags().forEach(each -> TaggingDocuments.tag(document, each));
            longIfPresent(document, "ObjectSizeGreaterThan", and.objectSizeGreaterThan());
            longIfPresent(document, "ObjectSizeLessThan", and.objectSizeLessThan());
            document.end();
        }
        document.end();
    }

    private static void dateOrDays(XmlDocumentWriter document, @Nullable Instant date, @Nullable Integer days) {
        if (date != null) {
            document.element("Date", date);
        }
        integerIfPresent(document, "Days", days);
    }

    private static void integerIfPresent(XmlDocumentWriter document, String name, @Nullable Integer value) {
        if (value != null) {
            document.element(name, value.longValue());
        }
    }

    private static void longIfPresent(XmlDocumentWriter document, String name, @Nullable Long value) {
        if (value != null) {
            document.element(name, value.longValue());
        }
    }
}

package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.assertRefused;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.xml.LifecycleRule.Status;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class LifecycleConfigurationTest {
    private static final Instant MIDNIGHT = Instant.parse("2027-01-01T00:00:00Z");
    private static final String EXPIRE_IN_A_DAY = "<Expiration><Days>1</Days></Expiration>";

    private static String lifecycle(String rules) {
        return "<LifecycleConfiguration" + NAMESPACE + ">" + rules + "</LifecycleConfiguration>";
    }

    private static String rule(String elements) {
        return "<Rule><Status>Enabled</Status>" + elements + "</Rule>";
    }

    private static String filtered(String filter, String actions) {
        return lifecycle(rule("<Filter>" + filter + "</Filter>" + actions));
    }

    private static LifecycleConfiguration parse(String document) {
        return S3Xml.parseLifecycleConfiguration(body(document));
    }

    static Stream<LifecycleConfiguration> configurations() {
        return Stream.of(
                new LifecycleConfiguration(List.of(LifecycleRule.of(
                        "logs", LifecycleFilter.prefix("logs/"), Status.ENABLED, LifecycleExpiration.afterDays(365), null, null))),
                new LifecycleConfiguration(List.of(
                        LifecycleRule.of(null, LifecycleFilter.empty(), Status.DISABLED, LifecycleExpiration.on(MIDNIGHT),
                                new NoncurrentVersionExpiration(30, 5), new AbortIncompleteMultipartUpload(7)),
                        LifecycleRule.of("markers", LifecycleFilter.prefix(""), Status.ENABLED,
                                LifecycleExpiration.expiredObjectDeleteMarker(true), null, null),
                        LifecycleRule.of("tagged", LifecycleFilter.tag(new Tag("class", "temp")), Status.ENABLED, null,
                                new NoncurrentVersionExpiration(1), null),
                        LifecycleRule.of("sized", new LifecycleFilter(null, null, 1024L, null, null), Status.ENABLED,
                                LifecycleExpiration.afterDays(1), null, null),
                        LifecycleRule.of("small", new LifecycleFilter(null, null, null, 1L, null), Status.ENABLED,
                                LifecycleExpiration.afterDays(2), null, null),
                        LifecycleRule.of("both", LifecycleFilter.and(new LifecycleFilter.And(
                                        "tax/", List.of(new Tag("a", "1"), new Tag("b", "")), 10L, 20L)), Status.ENABLED,
                                LifecycleExpiration.afterDays(3), null, null),
                        new LifecycleRule("moves", LifecycleFilter.prefix("archive/"), null, Status.ENABLED,
                                List.of(new LifecycleTransition(null, 30, "STANDARD_IA"),
                                        new LifecycleTransition(MIDNIGHT, null, "GLACIER")),
                                LifecycleExpiration.afterDays(3650),
                                List.of(new NoncurrentVersionTransition(0, "GLACIER_IR", 2)),
                                new NoncurrentVersionExpiration(400), null))),
                new LifecycleConfiguration(List.of(
                        new LifecycleRule("old", null, "projectdocs/", Status.ENABLED, List.of(),
                                LifecycleExpiration.afterDays(3650), List.of(), null, null),
                        new LifecycleRule(null, null, "", Status.DISABLED, List.of(), null, List.of(), null,
                                new AbortIncompleteMultipartUpload(1)))));
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void survivesTheRoundTrip(LifecycleConfiguration configuration) {
        byte[] document = S3Xml.renderLifecycleConfiguration(configuration);

        assertThat(S3Xml.parseLifecycleConfiguration(body(document))).isEqualTo(configuration);
    }

    @Test
    void rendersARuleAsIdFilterStatusThenItsActions() {
        var rule = new LifecycleRule("r", LifecycleFilter.empty(), null, Status.ENABLED,
                List.of(new LifecycleTransition(null, 30, "STANDARD_IA")), LifecycleExpiration.on(MIDNIGHT),
                List.of(new NoncurrentVersionTransition(10, "GLACIER", 3)), new NoncurrentVersionExpiration(30, 2),
                new AbortIncompleteMultipartUpload(7));

        Element root = DomDocuments.s3Root(
                S3Xml.renderLifecycleConfiguration(new LifecycleConfiguration(List.of(rule))), "LifecycleConfiguration");

        Element element = child(root, "Rule");
        assertThat(childNames(element)).containsExactly(
                "ID", "Filter", "Status", "Transition", "Expiration", "NoncurrentVersionTransition",
                "NoncurrentVersionExpiration", "AbortIncompleteMultipartUpload");
        assertThat(childNames(child(element, "Filter"))).isEmpty();
        assertThat(text(element, "Status")).isEqualTo("Enabled");
        assertThat(childNames(child(element, "Transition"))).containsExactly("Days", "StorageClass");
        assertThat(text(child(element, "Expiration"), "Date")).isEqualTo("2027-01-01T00:00:00.000Z");
        assertThat(childNames(child(element, "NoncurrentVersionTransition")))
                .containsExactly("NoncurrentDays", "StorageClass", "NewerNoncurrentVersions");
        assertThat(childNames(child(element, "NoncurrentVersionExpiration")))
                .containsExactly("NoncurrentDays", "NewerNoncurrentVersions");
        assertThat(text(child(element, "AbortIncompleteMultipartUpload"), "DaysAfterInitiation")).isEqualTo("7");
    }

    @Test
    void rendersAFilterAndItsAnd() {
        var and = new LifecycleFilter.And("tax/", List.of(new Tag("a", "1"), new Tag("b", "2")), 10L, 20L);
        var rule = LifecycleRule.of(null, LifecycleFilter.and(and), Status.ENABLED, LifecycleExpiration.afterDays(1), null, null);

        Element root = DomDocuments.s3Root(
                S3Xml.renderLifecycleConfiguration(new LifecycleConfiguration(List.of(rule))), "LifecycleConfiguration");

        Element element = child(root, "Rule");
        assertThat(childNames(element)).containsExactly("Filter", "Status", "Expiration");
        Element andElement = child(child(element, "Filter"), "And");
        assertThat(childNames(andElement))
                .containsExactly("Prefix", "Tag", "Tag", "ObjectSizeGreaterThan", "ObjectSizeLessThan");
        assertThat(children(andElement, "Tag")).extracting(tag -> text(tag, "Key")).containsExactly("a", "b");
    }

    @Test
    void keepsTheRuleLevelPrefixOfTheDeprecatedForm() {
        Element root = DomDocuments.s3Root(S3Xml.renderLifecycleConfiguration(new LifecycleConfiguration(List.of(
                new LifecycleRule("id", null, "projectdocs/", Status.ENABLED, List.of(), LifecycleExpiration.afterDays(1),
                        List.of(), null, null)))), "LifecycleConfiguration");

        assertThat(childNames(child(root, "Rule"))).containsExactly("ID", "Prefix", "Status", "Expiration");
    }

    @Test
    void readsTheApiReferenceExample() {
        LifecycleConfiguration configuration = parse("""
                <LifecycleConfiguration>
                  <Rule>
                    <ID>id1</ID>
                    <Filter>
                       <Prefix>documents/</Prefix>
                    </Filter>
                    <Status>Enabled</Status>
                    <Transition>
                      <Days>30</Days>
                      <StorageClass>GLACIER</StorageClass>
                    </Transition>
                  </Rule>
                  <Rule>
                    <ID>id2</ID>
                    <Filter>
                       <Prefix>logs/</Prefix>
                    </Filter>
                    <Status>Enabled</Status>
                    <Expiration>
                      <Days>365</Days>
                    </Expiration>
                  </Rule>
                </LifecycleConfiguration>""");

        assertThat(configuration.rules()).hasSize(2);
        assertThat(configuration.rules().get(0).transitions()).containsExactly(new LifecycleTransition(null, 30, "GLACIER"));
        assertThat(configuration.rules().get(1).expiration()).isEqualTo(LifecycleExpiration.afterDays(365));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2027-01-01T00:00:00Z", "2027-01-01T00:00:00.000Z", "2027-01-01T00:00:00", "2027-01-01",
        "2027-01-01T01:00:00+01:00"})
    void readsAnIso8601Date(String date) {
        LifecycleConfiguration configuration = parse(filtered("", "<Expiration><Date>" + date + "</Date></Expiration>"));

        assertThat(configuration.rules().getFirst().expiration()).isEqualTo(LifecycleExpiration.on(MIDNIGHT));
    }

    @Test
    void acceptsAThousandRulesAndRefusesMore() {
        String oneRule = rule("<Filter/>" + EXPIRE_IN_A_DAY);
        assertThat(parse(lifecycle(oneRule.repeat(1000))).rules()).hasSize(1000);
        assertRefused(() -> parse(lifecycle(oneRule.repeat(1001))), S3Error.INVALID_REQUEST,
                "The number of lifecycle rules must not exceed the allowed limit of 1000 rules.");
    }

    @Test
    void refusesAConfigurationWithoutRules() {
        assertRefused(() -> parse(lifecycle("")), S3Error.INVALID_REQUEST, "At least one lifecycle rule must be specified.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"enabled", "ENABLED", "On", ""})
    void refusesAStatusS3DoesNotHave(String status) {
        assertMalformed(() -> parse(lifecycle("<Rule><Filter/><Status>" + status + "</Status>" + EXPIRE_IN_A_DAY + "</Rule>")),
                "Status has to be one of Enabled or Disabled");
    }

    @Test
    void refusesARuleWithoutStatus() {
        assertMalformed(() -> parse(lifecycle("<Rule><Filter/>" + EXPIRE_IN_A_DAY + "</Rule>")), "Rule 1 has no Status");
    }

    @Test
    void refusesARuleWithNeitherOrBothOfFilterAndPrefix() {
        assertMalformed(() -> parse(lifecycle(rule(EXPIRE_IN_A_DAY))), "Rule 1 has neither a Filter nor a Prefix");
        assertMalformed(() -> parse(lifecycle(rule("<Prefix>a</Prefix><Filter/>" + EXPIRE_IN_A_DAY))),
                "Rule 1 has both a Filter and a rule-level Prefix");
    }

    @Test
    void refusesTwoPredicatesDirectlyInAFilter() {
        assertMalformed(() -> parse(filtered("<Prefix>a</Prefix><ObjectSizeGreaterThan>1</ObjectSizeGreaterThan>", EXPIRE_IN_A_DAY)),
                "holds more than one predicate");
        assertMalformed(() -> parse(filtered("<Prefix>a</Prefix><And><Prefix>b</Prefix><Tag><Key>k</Key><Value>v</Value></Tag>"
                + "</And>", EXPIRE_IN_A_DAY)), "holds more than one predicate");
    }

    @Test
    void refusesAnAndOfFewerThanTwoPredicates() {
        assertMalformed(() -> parse(filtered("<And><Prefix>a</Prefix></And>", EXPIRE_IN_A_DAY)),
                "combines fewer than two predicates");
        assertThat(parse(filtered("<And><Prefix></Prefix><ObjectSizeGreaterThan>5</ObjectSizeGreaterThan></And>",
                EXPIRE_IN_A_DAY)).rules()).hasSize(1);
    }

    @Test
    void refusesDuplicateTagKeysInAnAnd() {
        assertRefused(() -> parse(filtered("<And><Tag><Key>k</Key><Value>1</Value></Tag><Tag><Key>k</Key><Value>2</Value>"
                + "</Tag></And>", EXPIRE_IN_A_DAY)), S3Error.INVALID_REQUEST, "Duplicate Tag Keys are not allowed.");
    }

    @Test
    void refusesSizeFiltersOutOfRange() {
        assertRefused(() -> parse(filtered("<ObjectSizeLessThan>0</ObjectSizeLessThan>", EXPIRE_IN_A_DAY)),
                S3Error.INVALID_REQUEST, "'ObjectSizeLessThan' should be between 1 and 1099511627776000.");
        assertRefused(() -> parse(filtered("<ObjectSizeGreaterThan>-1</ObjectSizeGreaterThan>", EXPIRE_IN_A_DAY)),
                S3Error.INVALID_REQUEST, "'ObjectSizeGreaterThan' should be between 0 and 1099511627776000.");
        assertRefused(() -> parse(filtered("<And><ObjectSizeGreaterThan>20</ObjectSizeGreaterThan>"
                        + "<ObjectSizeLessThan>20</ObjectSizeLessThan></And>", EXPIRE_IN_A_DAY)),
                S3Error.INVALID_REQUEST, "'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.");
    }

    @Test
    void refusesAnExpirationWithoutExactlyOneOfItsChoices() {
        String exactlyOne = "has to hold exactly one of Date, Days and ExpiredObjectDeleteMarker";
        assertMalformed(() -> parse(filtered("", "<Expiration/>")), exactlyOne);
        assertMalformed(() -> parse(filtered("",
                "<Expiration><Days>1</Days><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>")), exactlyOne);
        assertMalformed(() -> parse(filtered("", "<Expiration><Days>1</Days><Date>2027-01-01</Date></Expiration>")), exactlyOne);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1})
    void refusesDayCountsThatAreNotPositive(int days) {
        assertRefused(() -> parse(filtered("", "<Expiration><Days>" + days + "</Days></Expiration>")),
                S3Error.INVALID_ARGUMENT, "'Days' for Expiration action must be a positive integer");
        assertRefused(() -> parse(filtered("",
                        "<NoncurrentVersionExpiration><NoncurrentDays>" + days + "</NoncurrentDays></NoncurrentVersionExpiration>")),
                S3Error.INVALID_ARGUMENT, "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer");
        assertRefused(() -> parse(filtered("", "<AbortIncompleteMultipartUpload><DaysAfterInitiation>" + days
                        + "</DaysAfterInitiation></AbortIncompleteMultipartUpload>")),
                S3Error.INVALID_ARGUMENT,
                "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2027-01-01T00:00:01Z", "2027-01-01T12:00:00.000Z", "2027-01-01T00:00:00+01:00"})
    void refusesADateNotAtMidnightUtc(String date) {
        assertRefused(() -> parse(filtered("", "<Expiration><Date>" + date + "</Date></Expiration>")),
                S3Error.INVALID_ARGUMENT, "'Date' must be at midnight GMT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Fri, 01 Jan 2016 00:00:00 GMT", "tomorrow", "20200101"})
    void refusesADateThatIsNotIso8601(String date) {
        assertMalformed(() -> parse(filtered("", "<Expiration><Date>" + date + "</Date></Expiration>")),
                "Date has to be an ISO 8601 timestamp");
    }

    @Test
    void refusesActionsWithoutTheirNumbers() {
        assertMalformed(() -> parse(filtered("", "<NoncurrentVersionExpiration><NewerNoncurrentVersions>5"
                + "</NewerNoncurrentVersions></NoncurrentVersionExpiration>")), "has no NoncurrentDays");
        assertMalformed(() -> parse(filtered("", "<AbortIncompleteMultipartUpload/>")), "has no DaysAfterInitiation");
        assertMalformed(() -> parse(filtered("", "<Expiration><Days>often</Days></Expiration>")), "Days has to be an integer");
    }

    @Test
    void refusesARuleWithoutAction() {
        assertRefused(() -> parse(filtered("<Prefix>a</Prefix>", "")), S3Error.INVALID_REQUEST,
                "At least one action needs to be specified in a rule");
    }

    @Test
    void refusesAnAbortOrADeleteMarkerExpirationLimitedByTagsOrSize() {
        String abort = "<AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>";
        String markers = "<Expiration><ExpiredObjectDeleteMarker>false</ExpiredObjectDeleteMarker></Expiration>";
        String tag = "<Tag><Key>k</Key><Value>v</Value></Tag>";
        String size = "<ObjectSizeGreaterThan>5</ObjectSizeGreaterThan>";
        assertRefused(() -> parse(filtered(tag, abort)), S3Error.INVALID_REQUEST,
                "AbortIncompleteMultipartUpload cannot be specified with Tags.");
        assertRefused(() -> parse(filtered("<And><Prefix>p</Prefix>" + tag + "</And>", abort)), S3Error.INVALID_REQUEST,
                "AbortIncompleteMultipartUpload cannot be specified with Tags.");
        assertRefused(() -> parse(filtered(size, abort)), S3Error.INVALID_REQUEST,
                "AbortIncompleteMultipartUpload cannot be specified with Object Size.");
        assertRefused(() -> parse(filtered(size, markers)), S3Error.INVALID_REQUEST,
                "ExpiredObjectDeleteMarker cannot be specified with Object Size.");
        assertRefused(() -> parse(filtered(tag, markers)), S3Error.INVALID_REQUEST,
                "ExpiredObjectDeleteMarker cannot be specified with Tags.");
    }

    @Test
    void refusesAnIdTooLongOrUsedTwice() {
        assertRefused(() -> parse(lifecycle("<Rule><ID>" + "i".repeat(256) + "</ID><Filter/><Status>Enabled</Status>"
                        + EXPIRE_IN_A_DAY + "</Rule>")),
                S3Error.INVALID_ARGUMENT, "ID length should not exceed allowed limit of 255");
        String same = "<Rule><ID>same</ID><Filter/><Status>Enabled</Status>" + EXPIRE_IN_A_DAY + "</Rule>";
        assertRefused(() -> parse(lifecycle(same + same)), S3Error.INVALID_ARGUMENT,
                "Rule ID must be unique. Found same ID for more than one rule");
    }

    @Test
    void refusesTheTwoFormsMixed() {
        String filtered = rule("<Filter/>" + EXPIRE_IN_A_DAY);
        String prefixed = rule("<Prefix>a</Prefix>" + EXPIRE_IN_A_DAY);
        assertRefused(() -> parse(lifecycle(prefixed + filtered)), S3Error.INVALID_REQUEST,
                "Filter element can only be used in Lifecycle V2.");
        assertRefused(() -> parse(lifecycle(filtered + prefixed)), S3Error.INVALID_REQUEST,
                "Base level prefix cannot be used in Lifecycle V2, prefixes are only supported in the Filter.");
        assertRefused(() -> parse(lifecycle(rule("<Prefix>a</Prefix><NoncurrentVersionExpiration><NoncurrentDays>1"
                        + "</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>"))),
                S3Error.INVALID_REQUEST, "NewerNoncurrentVersions element can only be used in Lifecycle V2.");
    }

    @Test
    void refusesATransitionS3Refuses() {
        assertMalformed(() -> parse(filtered("", "<Transition><Days>1</Days><StorageClass>TAPE</StorageClass></Transition>")),
                "names a storage class S3 does not transition to");
        assertMalformed(() -> parse(filtered("", "<Transition><StorageClass>GLACIER</StorageClass></Transition>")),
                "has to hold exactly one of Date and Days");
        assertMalformed(() -> parse(filtered("", "<Transition><Days>1</Days></Transition>")), "has no StorageClass");
    }

    @Test
    void refusesAnEmptyBodyAndTheWrongRoot() {
        assertMalformed(() -> parse(""), "empty");
        assertMalformed(() -> parse("<LifeCycleConfiguration/>"), "not LifecycleConfiguration");
    }

    @Test
    void theRecordsRefuseWhatS3WouldNot() {
        assertThatThrownBy(() -> new LifecycleFilter("a", new Tag("k", "v"), null, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifecycleFilter.And("a", List.of(), null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifecycleExpiration(MIDNIGHT, 1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LifecycleExpiration.on(Instant.parse("2027-01-01T00:00:01Z")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LifecycleExpiration.afterDays(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifecycleRule(null, LifecycleFilter.empty(), null, Status.ENABLED, List.of(), null,
                List.of(), null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifecycleRule(null, LifecycleFilter.empty(), "a", Status.ENABLED, List.of(),
                LifecycleExpiration.afterDays(1), List.of(), null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LifecycleConfiguration(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}

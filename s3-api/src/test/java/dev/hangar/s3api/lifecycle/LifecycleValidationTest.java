package dev.hangar.s3api.lifecycle;

import static dev.hangar.s3api.lifecycle.Rules.rule;
import static dev.hangar.s3api.lifecycle.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LifecycleValidationTest {
    private static final RuleFilter TAGGED = new RuleFilter("", Map.of("class", "temp"), null, null);
    private static final RuleFilter SIZED = new RuleFilter("", Map.of(), 1024L, null);

    private static void assertValid(LifecycleRule... rules) {
        assertThatCode(() -> LifecycleValidation.validate(List.of(rules))).doesNotThrowAnyException();
    }

    private static void assertRefused(S3Error error, String message, LifecycleRule... rules) {
        assertS3Error(() -> LifecycleValidation.validate(List.of(rules)), error, message);
    }

    @Test
    void acceptsAConfigurationUsingEveryAction() {
        assertValid(
                rule("logs").filter(RuleFilter.prefix("logs/")).expireAfterDays(30).noncurrentDays(7)
                        .keepNewerNoncurrent(3).abortAfterDays(2).build(),
                rule("by-date").filter(new RuleFilter("tmp/", Map.of("class", "temp"), 0L, 1024L))
                        .expireOn(LocalDate.of(2030, 1, 1)).build(),
                rule("markers").filter(RuleFilter.prefix("logs/")).expiredObjectDeleteMarker().build(),
                rule(null).disabled().noncurrentDays(1).build(),
                rule(null).abortAfterDays(1).build());
    }

    @Test
    void refusesAConfigurationWithoutRules() {
        assertS3Error(() -> LifecycleValidation.validate(List.of()), S3Error.MALFORMED_XML);
    }

    @Test
    void acceptsAThousandRulesAndNoMore() {
        List<LifecycleRule> rules = new ArrayList<>(IntStream.range(0, 1000)
                .mapToObj(index -> rule("rule-" + index).expireAfterDays(1).build())
                .toList());
        assertThatCode(() -> LifecycleValidation.validate(rules)).doesNotThrowAnyException();

        rules.add(rule("one-too-many").expireAfterDays(1).build());
        assertS3Error(() -> LifecycleValidation.validate(rules), S3Error.INVALID_REQUEST,
                "The number of lifecycle rules must not exceed the allowed limit of 1000 rules.");
    }

    @Test
    void acceptsAnIdOf255CharactersAndNoLonger() {
        assertValid(rule("i".repeat(255)).expireAfterDays(1).build());
        assertRefused(S3Error.INVALID_ARGUMENT, "ID length should not exceed allowed limit of 255",
                rule("i".repeat(256)).expireAfterDays(1).build());
    }

    @Test
    void refusesTwoRulesWithTheSameId() {
        assertRefused(S3Error.INVALID_ARGUMENT, "Rule ID must be unique. Found same ID for more than one rule",
                rule("same").expireAfterDays(1).build(), rule("other").expireAfterDays(2).build(),
                rule("same").noncurrentDays(1).build());
    }

    @Test
    void idsAreCaseSensitive() {
        assertValid(rule("Rule").expireAfterDays(1).build(), rule("rule").expireAfterDays(1).build());
    }

    @Test
    void rulesWithoutAnIdNeedNotDiffer() {
        assertValid(rule(null).expireAfterDays(1).build(), rule(null).expireAfterDays(1).build(),
                rule("").expireAfterDays(1).build(), rule("").expireAfterDays(1).build());
    }

    @Test
    void checksTheIdsOfAllRulesBeforeAnyRulesActions() {
        assertRefused(S3Error.INVALID_ARGUMENT, "Rule ID must be unique. Found same ID for more than one rule",
                rule("a").build(), rule("a").expireAfterDays(1).build());
    }

    @Test
    void refusesARuleWithoutAction() {
        assertRefused(S3Error.INVALID_REQUEST, "At least one action needs to be specified in a rule",
                rule("ok").expireAfterDays(1).build(), rule("idle").filter(RuleFilter.prefix("x/")).build());
    }

    @Test
    void aDisabledRuleIsCheckedAllTheSame() {
        assertRefused(S3Error.INVALID_ARGUMENT, "'Days' for Expiration action must be a positive integer",
                rule("off").disabled().expireAfterDays(0).build());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void refusesExpirationDaysThatAreNotPositive(int days) {
        assertRefused(S3Error.INVALID_ARGUMENT, "'Days' for Expiration action must be a positive integer",
                rule("r").expireAfterDays(days).build());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -3})
    void refusesNoncurrentDaysThatAreNotPositive(int days) {
        assertRefused(S3Error.INVALID_ARGUMENT,
                "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer",
                rule("r").noncurrentDays(days).build());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1})
    void refusesANewerNoncurrentVersionsCountThatIsNotPositive(int versions) {
        assertRefused(S3Error.INVALID_ARGUMENT,
                "'NewerNoncurrentVersions' for NoncurrentVersionExpiration action must be a positive integer",
                rule("r").noncurrentDays(1).keepNewerNoncurrent(versions).build());
    }

    @Test
    void acceptsLargeNewerNoncurrentVersionsCountsAsS3Does() {
        assertValid(rule("r").noncurrentDays(1).keepNewerNoncurrent(500).build());
    }

    @Test
    void refusesNewerNoncurrentVersionsWithoutNoncurrentDaysAsMalformed() {
        assertS3Error(() -> LifecycleValidation.validate(List.of(rule("r").keepNewerNoncurrent(3).build())),
                S3Error.MALFORMED_XML);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -7})
    void refusesAbortDaysThatAreNotPositive(int days) {
        assertRefused(S3Error.INVALID_ARGUMENT,
                "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer",
                rule("r").abortAfterDays(days).build());
    }

    @Test
    void refusesAnExpirationWithMoreThanOneOfDaysDateAndTheMarkerFlagAsMalformed() {
        List<LifecycleRule> malformed = List.of(
                rule("days-and-date").expireAfterDays(1).expireOn(LocalDate.of(2030, 1, 1)).build(),
                rule("days-and-marker").expireAfterDays(1).expiredObjectDeleteMarker().build(),
                rule("date-and-marker").expireOn(LocalDate.of(2030, 1, 1)).expiredObjectDeleteMarker().build());

        for (LifecycleRule rule : malformed) {
            assertS3Error(() -> LifecycleValidation.validate(List.of(rule)), S3Error.MALFORMED_XML);
        }
    }

    @Test
    void aMarkerRuleMayStandBesideOtherActions() {
        assertValid(rule("r").expiredObjectDeleteMarker().noncurrentDays(1).abortAfterDays(1).build());
    }

    @Test
    void refusesTheMarkerFlagBesideATagOrSizeFilter() {
        assertRefused(S3Error.INVALID_REQUEST, "ExpiredObjectDeleteMarker cannot be specified with Tags.",
                rule("r").filter(TAGGED).expiredObjectDeleteMarker().build());
        assertRefused(S3Error.INVALID_REQUEST, "ExpiredObjectDeleteMarker cannot be specified with Object Size.",
                rule("r").filter(SIZED).expiredObjectDeleteMarker().build());
    }

    @Test
    void refusesAnAbortBesideATagOrSizeFilter() {
        assertRefused(S3Error.INVALID_REQUEST, "AbortIncompleteMultipartUpload cannot be specified with Tags.",
                rule("r").filter(TAGGED).abortAfterDays(1).build());
        assertRefused(S3Error.INVALID_REQUEST, "AbortIncompleteMultipartUpload cannot be specified with Object Size.",
                rule("r").filter(new RuleFilter("", Map.of(), null, 10L)).abortAfterDays(1).build());
    }

    @Test
    void expirationsMayFilterOnTagsAndSizes() {
        assertValid(rule("r").filter(new RuleFilter("a/", Map.of("class", "temp"), 10L, 20L)).expireAfterDays(1)
                .noncurrentDays(1).build());
    }

    @Test
    void refusesObjectSizeBoundsOutOfRange() {
        assertRefused(S3Error.INVALID_REQUEST, "'ObjectSizeGreaterThan' should be between 0 and 1099511627776000.",
                rule("r").filter(new RuleFilter("", Map.of(), -1L, null)).expireAfterDays(1).build());
        assertRefused(S3Error.INVALID_REQUEST, "'ObjectSizeGreaterThan' should be between 0 and 1099511627776000.",
                rule("r").filter(new RuleFilter("", Map.of(), 1_099_511_627_776_001L, null)).expireAfterDays(1)
                        .build());
        assertRefused(S3Error.INVALID_REQUEST, "'ObjectSizeLessThan' should be between 1 and 1099511627776000.",
                rule("r").filter(new RuleFilter("", Map.of(), null, 0L)).expireAfterDays(1).build());
        assertValid(rule("r").filter(new RuleFilter("", Map.of(), 0L, 1_099_511_627_776_000L)).expireAfterDays(1)
                .build());
    }

    @Test
    void refusesASizeIntervalWithNothingInIt() {
        assertRefused(S3Error.INVALID_REQUEST,
                "'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.",
                rule("r").filter(new RuleFilter("", Map.of(), 10L, 10L)).expireAfterDays(1).build());
        assertRefused(S3Error.INVALID_REQUEST,
                "'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.",
                rule("r").filter(new RuleFilter("", Map.of(), 20L, 10L)).expireAfterDays(1).build());
        assertValid(rule("r").filter(new RuleFilter("", Map.of(), 10L, 11L)).expireAfterDays(1).build());
    }

    @Test
    void refusesFilterTagsOfTheWrongLength() {
        assertRefused(S3Error.INVALID_REQUEST, "A Tag's Key must be a length between 1 and 128.",
                rule("r").filter(new RuleFilter("", Map.of("", "v"), null, null)).expireAfterDays(1).build());
        assertRefused(S3Error.INVALID_REQUEST, "A Tag's Key must be a length between 1 and 128.",
                rule("r").filter(new RuleFilter("", Map.of("k".repeat(129), "v"), null, null)).expireAfterDays(1)
                        .build());
        assertRefused(S3Error.INVALID_REQUEST, "A Tag's Value must be a length between 0 and 256.",
                rule("r").filter(new RuleFilter("", Map.of("k", "v".repeat(257)), null, null)).expireAfterDays(1)
                        .build());
        assertValid(rule("r").filter(new RuleFilter("", Map.of("k".repeat(128), "v".repeat(256)), null, null))
                .expireAfterDays(1).build(), rule("s").filter(new RuleFilter("", Map.of("k", ""), null, null))
                .expireAfterDays(1).build());
    }

    @Test
    void reportsTheFirstFaultyRuleInOrder() {
        assertRefused(S3Error.INVALID_ARGUMENT,
                "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer",
                rule("a").expireAfterDays(1).build(), rule("b").noncurrentDays(0).build(),
                rule("c").expireAfterDays(0).build());
    }
}

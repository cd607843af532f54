package dev.hangar.s3api.lifecycle;

import static dev.hangar.s3api.lifecycle.Rules.rule;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LifecycleTest {
    private static final Instant CREATED = Instant.parse("2014-01-15T10:30:00Z");

    private static VersionFacts object(String key) {
        return VersionFacts.object(key, 1024, Map.of(), CREATED);
    }

    private static Optional<Expiry> unversioned(List<LifecycleRule> rules, VersionFacts current, String now) {
        return Lifecycle.currentVersionAction(rules, current, false, false, Instant.parse(now));
    }

    @Nested
    class DayCounting {

        @Test
        void addsTheDaysToTheCreationAndRoundsUpToTheNextMidnightUtcAsAwsExample() {
            // "if an object was created on 1/15/2014 at 10:30 AM UTC and you specify 3 days ..., then the
            // ... date of the object would be calculated as 1/19/2014 00:00 UTC."
            assertThat(Lifecycle.dueAfterDays(CREATED, 3)).isEqualTo(Instant.parse("2014-01-19T00:00:00Z"));
        }

        @ParameterizedTest
        @CsvSource({
                "2014-01-15T00:00:00Z, 3, 2014-01-19T00:00:00Z",
                "2014-01-15T00:00:00.000000001Z, 3, 2014-01-19T00:00:00Z",
                "2014-01-15T23:59:59.999999999Z, 3, 2014-01-19T00:00:00Z",
                "2014-01-15T12:00:00Z, 1, 2014-01-17T00:00:00Z",
                "2014-01-15T12:00:00Z, 0, 2014-01-16T00:00:00Z",
                "2016-02-28T08:00:00Z, 1, 2016-03-01T00:00:00Z",
                "2015-12-31T18:00:00Z, 365, 2016-12-31T00:00:00Z"})
        void everyTimeOfADayFallsDueAtTheSameMidnight(String start, int days, String due) {
            assertThat(Lifecycle.dueAfterDays(Instant.parse(start), days)).isEqualTo(Instant.parse(due));
        }

        @Test
        void anObjectExpiresAtThatMidnightAndNotAnInstantBefore() {
            List<LifecycleRule> rules = List.of(rule("three-days").expireAfterDays(3).build());

            assertThat(unversioned(rules, object("a"), "2014-01-18T23:59:59.999Z")).isEmpty();
            assertThat(unversioned(rules, object("a"), "2014-01-19T00:00:00Z")).contains(
                    new Expiry(Expiry.Action.DELETE, Instant.parse("2014-01-19T00:00:00Z"), "three-days"));
            assertThat(unversioned(rules, object("a"), "2024-01-01T00:00:00Z")).isPresent();
        }
    }

    @Nested
    class CurrentVersions {

        @Test
        void anExpiredObjectInABucketNeverVersionedIsDeleted() {
            List<LifecycleRule> rules = List.of(rule("r").expireAfterDays(1).build());

            assertThat(Lifecycle.currentVersionAction(rules, object("a"), false, false,
                    Instant.parse("2014-02-01T00:00:00Z")))
                    .map(Expiry::action).contains(Expiry.Action.DELETE);
        }

        @Test
        void anExpiredObjectInAVersionedBucketGetsADeleteMarker() {
            List<LifecycleRule> rules = List.of(rule("r").expireAfterDays(1).build());

            assertThat(Lifecycle.currentVersionAction(rules, object("a"), true, true,
                    Instant.parse("2014-02-01T00:00:00Z")))
                    .map(Expiry::action).contains(Expiry.Action.ADD_DELETE_MARKER);
        }

        @Test
        void aDateExpiresObjectsFromItsMidnightUtcOn() {
            List<LifecycleRule> rules = List.of(rule("by-date").expireOn(LocalDate.of(2020, 6, 1)).build());
            VersionFacts old = VersionFacts.object("a", 1, Map.of(), Instant.parse("2019-01-01T00:00:00Z"));

            assertThat(unversioned(rules, old, "2020-05-31T23:59:59Z")).isEmpty();
            assertThat(unversioned(rules, old, "2020-06-01T00:00:00Z")).contains(
                    new Expiry(Expiry.Action.DELETE, Instant.parse("2020-06-01T00:00:00Z"), "by-date"));
        }

        @Test
        void aDateInThePastExpiresObjectsCreatedAfterIt() {
            List<LifecycleRule> rules = List.of(rule("by-date").expireOn(LocalDate.of(2020, 6, 1)).build());
            VersionFacts fresh = VersionFacts.object("a", 1, Map.of(), Instant.parse("2020-07-01T10:00:00Z"));

            assertThat(unversioned(rules, fresh, "2020-07-01T10:00:01Z")).map(Expiry::dueAt)
                    .contains(Instant.parse("2020-06-01T00:00:00Z"));
        }

        @Test
        void aDisabledRuleTakesNoAction() {
            List<LifecycleRule> rules = List.of(rule("off").disabled().expireAfterDays(1).build());

            assertThat(unversioned(rules, object("a"), "2030-01-01T00:00:00Z")).isEmpty();
            assertThat(Lifecycle.currentVersionExpiration(rules, object("a"))).isEmpty();
        }

        @Test
        void aRuleWithoutAnExpirationLeavesCurrentVersionsAlone() {
            List<LifecycleRule> rules = List.of(rule("noncurrent").noncurrentDays(1).abortAfterDays(1).build(),
                    rule("markers").expiredObjectDeleteMarker().build());

            assertThat(unversioned(rules, object("a"), "2030-01-01T00:00:00Z")).isEmpty();
        }

        @Test
        void theRuleDueFirstIsTheOneTaken() {
            List<LifecycleRule> rules = List.of(
                    rule("ten").expireAfterDays(10).build(),
                    rule("three").expireAfterDays(3).build(),
                    rule("date").expireOn(LocalDate.of(2014, 1, 20)).build());

            assertThat(unversioned(rules, object("a"), "2014-03-01T00:00:00Z"))
                    .contains(new Expiry(Expiry.Action.DELETE, Instant.parse("2014-01-19T00:00:00Z"), "three"));
        }

        @Test
        void onATieTheFirstListedRuleIsTheOneTaken() {
            List<LifecycleRule> rules = List.of(rule("first").expireAfterDays(3).build(),
                    rule("second").expireAfterDays(3).build());

            assertThat(unversioned(rules, object("a"), "2014-03-01T00:00:00Z")).map(Expiry::ruleId)
                    .contains("first");
        }

        @Test
        void aRuleWithoutAnIdIsReportedWithoutOne() {
            List<LifecycleRule> rules = List.of(rule(null).expireAfterDays(3).build());

            assertThat(unversioned(rules, object("a"), "2014-03-01T00:00:00Z"))
                    .contains(new Expiry(Expiry.Action.DELETE, Instant.parse("2014-01-19T00:00:00Z"), null));
        }

        @Test
        void reportsTheExpirationOfAnObjectBeforeItIsDueForTheExpirationHeader() {
            List<LifecycleRule> rules = List.of(rule("Rule for testfile.txt").expireAfterDays(3).build());

            assertThat(Lifecycle.currentVersionExpiration(rules, object("testfile.txt")))
                    .contains(new Due(Instant.parse("2014-01-19T00:00:00Z"), "Rule for testfile.txt"));
            assertThat(Lifecycle.currentVersionExpiration(rules,
                    VersionFacts.deleteMarker("testfile.txt", CREATED))).isEmpty();
        }
    }

    @Nested
    class Filters {

        @ParameterizedTest
        @CsvSource({"logs/2024/app.log, true", "logs/, true", "log/app.log, false", "LOGS/app.log, false",
                "archive/logs/app.log, false"})
        void aPrefixMatchesKeysThatStartWithIt(String key, boolean matches) {
            List<LifecycleRule> rules = List.of(rule("r").filter(RuleFilter.prefix("logs/")).expireAfterDays(1).build());

            assertThat(unversioned(rules, object(key), "2030-01-01T00:00:00Z").isPresent()).isEqualTo(matches);
        }

        @Test
        void anEmptyPrefixMatchesEveryKey() {
            List<LifecycleRule> rules = List.of(rule("r").filter(RuleFilter.prefix("")).expireAfterDays(1).build());

            assertThat(unversioned(rules, object("anything"), "2030-01-01T00:00:00Z")).isPresent();
        }

        @Test
        void everyTagOfTheFilterMustBeOnTheObjectWithTheSameValue() {
            RuleFilter filter = new RuleFilter("", Map.of("class", "temp", "team", "a"), null, null);
            List<LifecycleRule> rules = List.of(rule("r").filter(filter).expireAfterDays(1).build());

            assertThat(expires(rules, Map.of("class", "temp", "team", "a"))).isTrue();
            assertThat(expires(rules, Map.of("class", "temp", "team", "a", "other", "x"))).isTrue();
            assertThat(expires(rules, Map.of("class", "temp"))).isFalse();
            assertThat(expires(rules, Map.of("class", "temp", "team", "b"))).isFalse();
            assertThat(expires(rules, Map.of("class", "Temp", "team", "a"))).isFalse();
            assertThat(expires(rules, Map.of())).isFalse();
        }

        private boolean expires(List<LifecycleRule> rules, Map<String, String> tags) {
            return unversioned(rules, VersionFacts.object("k", 1, tags, CREATED), "2030-01-01T00:00:00Z").isPresent();
        }

        @ParameterizedTest
        @CsvSource({"0, false", "100, false", "101, true", "5000, true"})
        void aSizeGreaterThanIsStrict(long size, boolean matches) {
            RuleFilter filter = new RuleFilter("", Map.of(), 100L, null);

            assertThat(matches(filter, size)).isEqualTo(matches);
        }

        @ParameterizedTest
        @CsvSource({"0, true", "99, true", "100, false", "5000, false"})
        void aSizeLessThanIsStrict(long size, boolean matches) {
            RuleFilter filter = new RuleFilter("", Map.of(), null, 100L);

            assertThat(matches(filter, size)).isEqualTo(matches);
        }

        @ParameterizedTest
        @CsvSource({"10, false", "11, true", "19, true", "20, false"})
        void sizeBoundsTogetherMakeAnOpenInterval(long size, boolean matches) {
            assertThat(matches(new RuleFilter("", Map.of(), 10L, 20L), size)).isEqualTo(matches);
        }

        @Test
        void everyPredicateOfTheFilterMustHold() {
            RuleFilter filter = new RuleFilter("tmp/", Map.of("class", "temp"), 10L, null);

            assertThat(filter.matches("tmp/a", Map.of("class", "temp"), 11)).isTrue();
            assertThat(filter.matches("var/a", Map.of("class", "temp"), 11)).isFalse();
            assertThat(filter.matches("tmp/a", Map.of(), 11)).isFalse();
            assertThat(filter.matches("tmp/a", Map.of("class", "temp"), 10)).isFalse();
        }

        private boolean matches(RuleFilter filter, long size) {
            List<LifecycleRule> rules = List.of(rule("r").filter(filter).expireAfterDays(1).build());
            return unversioned(rules, VersionFacts.object("k", size, Map.of(), CREATED), "2030-01-01T00:00:00Z")
                    .isPresent();
        }

        @Test
        void aRuleThatDoesNotMatchLeavesTheObjectToTheNextRule() {
            List<LifecycleRule> rules = List.of(
                    rule("logs").filter(RuleFilter.prefix("logs/")).expireAfterDays(1).build(),
                    rule("all").expireAfterDays(30).build());

            assertThat(unversioned(rules, object("data/x"), "2030-01-01T00:00:00Z")).map(Expiry::ruleId)
                    .contains("all");
            assertThat(unversioned(rules, object("logs/x"), "2030-01-01T00:00:00Z")).map(Expiry::ruleId)
                    .contains("logs");
        }
    }

    @Nested
    class DeleteMarkers {
        private final Instant markedAt = Instant.parse("2024-05-10T09:00:00Z");
        private final VersionFacts marker = VersionFacts.deleteMarker("k", markedAt);

        @Test
        void aMarkerWithNothingBeneathIsRemovedAtOnceUnderExpiredObjectDeleteMarker() {
            List<LifecycleRule> rules = List.of(rule("markers").expiredObjectDeleteMarker().build());

            assertThat(Lifecycle.currentVersionAction(rules, marker, true, false, markedAt))
                    .contains(new Expiry(Expiry.Action.REMOVE_DELETE_MARKER, markedAt, "markers"));
        }

        @Test
        void aMarkerWithVersionsBeneathIsLeftAlone() {
            List<LifecycleRule> rules = List.of(rule("markers").expiredObjectDeleteMarker().build(),
                    rule("days").expireAfterDays(1).build());

            assertThat(Lifecycle.currentVersionAction(rules, marker, true, true,
                    Instant.parse("2030-01-01T00:00:00Z"))).isEmpty();
        }

        @Test
        void underDaysAMarkerAloneIsRemovedOnceItIsOldEnough() {
            List<LifecycleRule> rules = List.of(rule("days").expireAfterDays(2).build());

            assertThat(Lifecycle.currentVersionAction(rules, marker, true, false,
                    Instant.parse("2024-05-12T23:59:59Z"))).isEmpty();
            assertThat(Lifecycle.currentVersionAction(rules, marker, true, false,
                    Instant.parse("2024-05-13T00:00:00Z"))).contains(new Expiry(Expiry.Action.REMOVE_DELETE_MARKER,
                    Instant.parse("2024-05-13T00:00:00Z"), "days"));
        }

        @Test
        void aDateDoesNotRemoveMarkers() {
            List<LifecycleRule> rules = List.of(rule("date").expireOn(LocalDate.of(2020, 1, 1)).build());

            assertThat(Lifecycle.currentVersionAction(rules, marker, true, false,
                    Instant.parse("2030-01-01T00:00:00Z"))).isEmpty();
        }

        @Test
        void aMarkerHasNoTagsAndNoSize() {
            VersionFacts markerClaimingTags = new VersionFacts("k", 500, Map.of("class", "temp"), markedAt, true);
            List<LifecycleRule> byTag = List.of(rule("tag").filter(new RuleFilter("", Map.of("class", "temp"), null,
                    null)).expireAfterDays(1).build());
            List<LifecycleRule> small = List.of(rule("small").filter(new RuleFilter("", Map.of(), null, 1L))
                    .expireAfterDays(1).build());
            Instant later = Instant.parse("2030-01-01T00:00:00Z");

            assertThat(Lifecycle.currentVersionAction(byTag, markerClaimingTags, true, false, later)).isEmpty();
            assertThat(Lifecycle.currentVersionAction(small, markerClaimingTags, true, false, later)).isPresent();
        }

        @Test
        void theMarkerRuleFollowsThePrefix() {
            List<LifecycleRule> rules = List.of(rule("markers").filter(RuleFilter.prefix("tmp/"))
                    .expiredObjectDeleteMarker().build());

            assertThat(Lifecycle.currentVersionAction(rules, VersionFacts.deleteMarker("tmp/a", markedAt), true,
                    false, markedAt)).isPresent();
            assertThat(Lifecycle.currentVersionAction(rules, VersionFacts.deleteMarker("keep/a", markedAt), true,
                    false, markedAt)).isEmpty();
        }

        @Test
        void theMarkerRuleDoesNotExpireObjects() {
            List<LifecycleRule> rules = List.of(rule("markers").expiredObjectDeleteMarker().build());

            assertThat(Lifecycle.currentVersionAction(rules, object("k"), true, false,
                    Instant.parse("2030-01-01T00:00:00Z"))).isEmpty();
        }
    }

    @Nested
    class NoncurrentVersions {
        private final Instant becameNoncurrent = Instant.parse("2024-03-10T15:00:00Z");
        private final VersionFacts version = VersionFacts.object("doc.txt", 10, Map.of(), Instant.parse(
                "2024-01-01T00:00:00Z"));

        @Test
        void expiresTheDaysAfterItBecameNoncurrentRoundedToMidnight() {
            List<LifecycleRule> rules = List.of(rule("nc").noncurrentDays(1).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 0,
                    Instant.parse("2024-03-11T23:59:59Z"))).isFalse();
            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 0,
                    Instant.parse("2024-03-12T00:00:00Z"))).isTrue();
            assertThat(Lifecycle.noncurrentVersionExpiration(rules, version, becameNoncurrent, 0))
                    .contains(new Due(Instant.parse("2024-03-12T00:00:00Z"), "nc"));
        }

        @Test
        void countsFromWhenItBecameNoncurrentNotFromItsCreation() {
            List<LifecycleRule> rules = List.of(rule("nc").noncurrentDays(30).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 0,
                    Instant.parse("2024-03-20T00:00:00Z"))).isFalse();
        }

        @ParameterizedTest
        @CsvSource({"0, false", "1, false", "2, true", "3, true", "50, true"})
        void keepsTheNewestNoncurrentVersionsWhateverTheirAge(int newer, boolean expires) {
            List<LifecycleRule> rules = List.of(rule("keep-two").noncurrentDays(1).keepNewerNoncurrent(2).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, newer,
                    Instant.parse("2030-01-01T00:00:00Z"))).isEqualTo(expires);
        }

        @Test
        void aVersionBeyondTheKeptOnesStillWaitsItsDays() {
            List<LifecycleRule> rules = List.of(rule("keep-two").noncurrentDays(5).keepNewerNoncurrent(2).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 7,
                    Instant.parse("2024-03-15T12:00:00Z"))).isFalse();
            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 7,
                    Instant.parse("2024-03-16T00:00:00Z"))).isTrue();
        }

        @ParameterizedTest
        @ValueSource(ints = {0, 1, 100})
        void withoutAKeepCountTheNumberOfNewerVersionsDoesNotMatter(int newer) {
            List<LifecycleRule> rules = List.of(rule("nc").noncurrentDays(1).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, newer,
                    Instant.parse("2030-01-01T00:00:00Z"))).isTrue();
        }

        @Test
        void noncurrentDeleteMarkersExpireToo() {
            List<LifecycleRule> rules = List.of(rule("nc").noncurrentDays(1).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, VersionFacts.deleteMarker("doc.txt",
                    Instant.parse("2024-02-01T00:00:00Z")), becameNoncurrent, 0,
                    Instant.parse("2030-01-01T00:00:00Z"))).isTrue();
        }

        @Test
        void theFilterAppliesToTheNoncurrentVersion() {
            List<LifecycleRule> rules = List.of(rule("nc").filter(new RuleFilter("doc", Map.of("keep", "no"), null,
                    null)).noncurrentDays(1).build());
            Instant later = Instant.parse("2030-01-01T00:00:00Z");

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 0, later)).isFalse();
            assertThat(Lifecycle.noncurrentVersionExpires(rules, VersionFacts.object("doc.txt", 10,
                    Map.of("keep", "no"), CREATED), becameNoncurrent, 0, later)).isTrue();
            assertThat(Lifecycle.noncurrentVersionExpires(rules, VersionFacts.object("other.txt", 10,
                    Map.of("keep", "no"), CREATED), becameNoncurrent, 0, later)).isFalse();
        }

        @Test
        void currentVersionExpirationsDoNotApplyToNoncurrentVersions() {
            List<LifecycleRule> rules = List.of(rule("current").expireAfterDays(1).expiredObjectDeleteMarker()
                    .build(), rule("disabled").disabled().noncurrentDays(1).build());

            assertThat(Lifecycle.noncurrentVersionExpires(rules, version, becameNoncurrent, 0,
                    Instant.parse("2030-01-01T00:00:00Z"))).isFalse();
        }

        @Test
        void theEarliestRuleSetsTheDate() {
            List<LifecycleRule> rules = List.of(rule("keep-five").noncurrentDays(1).keepNewerNoncurrent(5).build(),
                    rule("thirty").noncurrentDays(30).build(),
                    rule("ten").noncurrentDays(10).build());

            assertThat(Lifecycle.noncurrentVersionExpiration(rules, version, becameNoncurrent, 1))
                    .contains(new Due(Instant.parse("2024-03-21T00:00:00Z"), "ten"));
            assertThat(Lifecycle.noncurrentVersionExpiration(rules, version, becameNoncurrent, 5))
                    .contains(new Due(Instant.parse("2024-03-12T00:00:00Z"), "keep-five"));
        }
    }

    @Nested
    class MultipartUploads {
        private final Instant initiated = Instant.parse("2024-01-01T12:00:00Z");

        @Test
        void abortsTheDaysAfterInitiationRoundedToMidnight() {
            List<LifecycleRule> rules = List.of(rule("abort").abortAfterDays(7).build());

            assertThat(Lifecycle.abortUpload(rules, "big.bin", initiated, Instant.parse("2024-01-08T23:59:59Z")))
                    .isFalse();
            assertThat(Lifecycle.abortUpload(rules, "big.bin", initiated, Instant.parse("2024-01-09T00:00:00Z")))
                    .isTrue();
            assertThat(Lifecycle.uploadAbortDate(rules, "big.bin", initiated))
                    .contains(new Due(Instant.parse("2024-01-09T00:00:00Z"), "abort"));
        }

        @Test
        void onlyUploadsUnderThePrefixAreAborted() {
            List<LifecycleRule> rules = List.of(rule("abort").filter(RuleFilter.prefix("tmp/")).abortAfterDays(1)
                    .build());
            Instant later = Instant.parse("2030-01-01T00:00:00Z");

            assertThat(Lifecycle.abortUpload(rules, "tmp/x", initiated, later)).isTrue();
            assertThat(Lifecycle.abortUpload(rules, "keep/x", initiated, later)).isFalse();
        }

        @Test
        void aRuleFilteringOnTagsOrSizesNeverAppliesToAnUpload() {
            List<LifecycleRule> rules = List.of(
                    rule("tags").filter(new RuleFilter("", Map.of("a", "b"), null, null)).abortAfterDays(1).build(),
                    rule("size").filter(new RuleFilter("", Map.of(), null, 1000L)).abortAfterDays(1).build());

            assertThat(Lifecycle.abortUpload(rules, "x", initiated, Instant.parse("2030-01-01T00:00:00Z"))).isFalse();
        }

        @Test
        void disabledRulesAndOtherActionsDoNotAbortUploads() {
            List<LifecycleRule> rules = List.of(rule("off").disabled().abortAfterDays(1).build(),
                    rule("expire").expireAfterDays(1).noncurrentDays(1).build());

            assertThat(Lifecycle.abortUpload(rules, "x", initiated, Instant.parse("2030-01-01T00:00:00Z"))).isFalse();
            assertThat(Lifecycle.uploadAbortDate(rules, "x", initiated)).isEmpty();
        }

        @Test
        void theEarliestRuleSetsTheAbortDate() {
            List<LifecycleRule> rules = List.of(rule("week").abortAfterDays(7).build(),
                    rule("day").filter(RuleFilter.prefix("tmp/")).abortAfterDays(1).build());

            assertThat(Lifecycle.uploadAbortDate(rules, "tmp/x", initiated))
                    .contains(new Due(Instant.parse("2024-01-03T00:00:00Z"), "day"));
            assertThat(Lifecycle.uploadAbortDate(rules, "var/x", initiated))
                    .contains(new Due(Instant.parse("2024-01-09T00:00:00Z"), "week"));
        }
    }
}

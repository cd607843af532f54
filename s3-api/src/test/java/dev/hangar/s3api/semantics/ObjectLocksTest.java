package dev.hangar.s3api.semantics;

import dev.hangar.metadata.command.VersionChange;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.xml.LegalHold;
import dev.hangar.s3api.xml.ObjectLockConfiguration;
import dev.hangar.s3api.xml.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class ObjectLocksTest {
    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private static final Instant TOMORROW = NOW.plus(Duration.ofDays(1));
    private static final Instant NEXT_WEEK = NOW.plus(Duration.ofDays(7));
    private static final Instant YESTERDAY = NOW.minus(Duration.ofDays(1));

    @Test
    void headersGiveModeAndDateTogetherAndALegalHold() {
        Map<String, String> headers = Map.of(ObjectLocks.MODE_HEADER, "GOVERNANCE",
                ObjectLocks.RETAIN_UNTIL_HEADER, "2026-11-23T09:00:00.000Z", ObjectLocks.LEGAL_HOLD_HEADER, "ON");

        assertThat(ObjectLocks.fromHeaders(headers::get, NOW))
                .isEqualTo(new ObjectLock(RetentionMode.GOVERNANCE, TOMORROW, true));
        assertThat(ObjectLocks.fromHeaders(Map.<String, String>of()::get, NOW)).isNull();
    }

    @Test
    void refusesHalfARetentionADateInThePastAndUnknownValues() {
        assertInvalidArgument(() -> ObjectLocks.fromHeaders(Map.of(ObjectLocks.MODE_HEADER, "GOVERNANCE")::get, NOW));
        assertInvalidArgument(() -> ObjectLocks.fromHeaders(
                Map.of(ObjectLocks.RETAIN_UNTIL_HEADER, TOMORROW.toString())::get, NOW));
        assertInvalidArgument(() -> ObjectLocks.fromHeaders(Map.of(ObjectLocks.MODE_HEADER, "COMPLIANCE",
                ObjectLocks.RETAIN_UNTIL_HEADER, YESTERDAY.toString())::get, NOW));
        assertInvalidArgument(() -> ObjectLocks.fromHeaders(Map.of(ObjectLocks.MODE_HEADER, "FOREVER",
                ObjectLocks.RETAIN_UNTIL_HEADER, TOMORROW.toString())::get, NOW));
        assertInvalidArgument(() -> ObjectLocks.fromHeaders(Map.of(ObjectLocks.LEGAL_HOLD_HEADER, "on")::get, NOW));
        assertInvalidArgument(() -> ObjectLocks.fromHeaders(Map.of(ObjectLocks.MODE_HEADER, "COMPLIANCE",
                ObjectLocks.RETAIN_UNTIL_HEADER, "tomorrow")::get, NOW));
    }

    @Test
    void theDefaultRetentionAppliesWhenNoneIsAsked() {
        ObjectLockConfiguration days = new ObjectLockConfiguration(
                ObjectLockConfiguration.DefaultRetention.days(dev.hangar.s3api.xml.RetentionMode.COMPLIANCE, 7));
        ObjectLockConfiguration years = new ObjectLockConfiguration(
                ObjectLockConfiguration.DefaultRetention.years(dev.hangar.s3api.xml.RetentionMode.GOVERNANCE, 1));

        assertThat(ObjectLocks.forNewVersion(null, days, NOW))
                .isEqualTo(new ObjectLock(RetentionMode.COMPLIANCE, NEXT_WEEK, false));
        assertThat(ObjectLocks.forNewVersion(new ObjectLock(null, null, true), years, NOW))
                .isEqualTo(new ObjectLock(RetentionMode.GOVERNANCE, Instant.parse("2027-11-22T09:00:00Z"), true));
        ObjectLock asked = new ObjectLock(RetentionMode.GOVERNANCE, TOMORROW, false);
        assertThat(ObjectLocks.forNewVersion(asked, days, NOW)).isEqualTo(asked);
        assertThat(ObjectLocks.forNewVersion(null, new ObjectLockConfiguration(null), NOW)).isNull();
        assertThat(ObjectLocks.forNewVersion(null, null, NOW)).isNull();
    }

    @Test
    void aRetentionChangeMustSetADateAhead() {
        assertInvalidArgument(() -> ObjectLocks.retentionChange(retention("GOVERNANCE", YESTERDAY), false, NOW));
        assertThat(ObjectLocks.retentionChange(retention("COMPLIANCE", TOMORROW), true, NOW)).isEqualTo(
                new VersionChange.SetRetention(RetentionMode.COMPLIANCE, TOMORROW, NOW, true));
        assertThat(ObjectLocks.retentionChange(Retention.none(), false, NOW))
                .isEqualTo(new VersionChange.SetRetention(null, null, NOW, false));
    }

    @Test
    void responseHeadersCarryTheDateInIsoForm() {
        assertThat(ObjectLocks.responseHeaders(version(new ObjectLock(RetentionMode.GOVERNANCE, TOMORROW, true))))
                .containsExactly(Map.entry(ObjectLocks.MODE_HEADER, "GOVERNANCE"),
                        Map.entry(ObjectLocks.RETAIN_UNTIL_HEADER, "2026-11-23T09:00:00.000Z"),
                        Map.entry(ObjectLocks.LEGAL_HOLD_HEADER, "ON"));
        assertThat(ObjectLocks.responseHeaders(version(null))).isEmpty();
    }

    private static Retention retention(String mode, Instant until) {
        return new Retention(dev.hangar.s3api.xml.RetentionMode.valueOf(mode), until);
    }

    private static ObjectVersion version(ObjectLock lock) {
        return new ObjectVersion("bucket", "key", "null", NOW, 1, "\"etag\"", new ObjectContent.Inline(new byte[1]),
                Map.of(), Map.of(), null, List.of(), Map.of(), lock, null, null);
    }

    private static void assertAccessDenied(ThrowingCallable call) {
        S3Assertions.assertS3Error(call, S3Error.ACCESS_DENIED);
    }

    private static void assertInvalidArgument(ThrowingCallable call) {
        S3Assertions.assertS3Error(call, S3Error.INVALID_ARGUMENT);
    }
}

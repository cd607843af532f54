package dev.hangar.s3api.lifecycle;

import java.time.LocalDate;
import org.jspecify.annotations.Nullable;

/** Rules for tests, built one action at a time: {@code Rules.rule("r").filter(...).expireAfterDays(3).build()}. */
final class Rules {
    private @Nullable String id;
    private boolean enabled = true;
    private RuleFilter filter = RuleFilter.ALL;
    private @Nullable Integer expirationDays;
    private @Nullable LocalDate expirationDate;
    private boolean expiredObjectDeleteMarker;
    private @Nullable Integer noncurrentDays;
    private @Nullable Integer newerNoncurrentVersions;
    private @Nullable Integer abortIncompleteDays;

    private Rules(@Nullable String id) {
        this.id = id;
    }

    static Rules rule(@Nullable String id) {
        return new Rules(id);
    }

    Rules disabled() {
        enabled = false;
        return this;
    }

    Rules filter(RuleFilter value) {
        filter = value;
        return this;
    }

    Rules expireAfterDays(@Nullable Integer days) {
        expirationDays = days;
        return this;
    }

    Rules expireOn(LocalDate date) {
        expirationDate = date;
        return this;
    }

    Rules expiredObjectDeleteMarker() {
        expiredObjectDeleteMarker = true;
        return this;
    }

    Rules noncurrentDays(@Nullable Integer days) {
        noncurrentDays = days;
        return this;
    }

    Rules keepNewerNoncurrent(@Nullable Integer versions) {
        newerNoncurrentVersions = versions;
        return this;
    }

    Rules abortAfterDays(@Nullable Integer days) {
        abortIncompleteDays = days;
        return this;
    }

    LifecycleRule build() {
        return new LifecycleRule(id, enabled, filter, expirationDays, expirationDate, expiredObjectDeleteMarker,
                noncurrentDays, newerNoncurrentVersions, abortIncompleteDays);
    }
}

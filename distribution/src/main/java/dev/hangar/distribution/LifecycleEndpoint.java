package dev.hangar.distribution;

import dev.hangar.metadata.MetadataStore;
import dev.hangar.s3api.semantics.LifecycleAction;
import dev.hangar.s3api.semantics.LifecycleWorker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The lifecycle worker, on the management port ({@code /actuator/lifecycle}): how often it runs and what it has
 * done, and a pass run now, over every bucket or one, optionally as of another instant (what is due is decided
 * at that instant; retention is still judged at the real time, so a pass as of a future instant never frees a
 * version still retained).
 *
 * <p>A pass as of a future instant deletes now what is due then, so how far ahead it may look is bounded
 * ({@code hangar.admin.lifecycle-as-of-limit}, a day by default): a mistyped year must not empty a bucket.
 */
@Endpoint(id = "lifecycle")
public class LifecycleEndpoint {
    private final LifecycleWorker worker;
    private final MetadataStore metadata;
    private final Duration interval;
    private final Duration asOfLimit;
    private final Clock clock;

    LifecycleEndpoint(LifecycleWorker worker, MetadataStore metadata, Duration interval, Duration asOfLimit,
            Clock clock) {
        this.worker = worker;
        this.metadata = metadata;
        this.interval = interval;
        this.asOfLimit = asOfLimit;
        this.clock = clock;
    }

    /**
     * The worker's state.
     *
     * @param interval how often a pass runs on its own (ISO-8601), or {@code "disabled"}
     * @param actions what every pass since the server started did, by action
     */
    public record Status(String interval, Map<String, Long> actions) {}

    /**
     * A pass that ran.
     *
     * @param asOf the instant it decided what was due at
     * @param bucket the one bucket it covered, null for every bucket
     * @param actions how many actions it took
     */
    public record Pass(String asOf, @Nullable String bucket, long actions) {}

    /** Why a request was refused. */
    public record Failure(String error) {}

    @ReadOperation
    public Status status() {
        Map<String, Long> actions = new LinkedHashMap<>();
        for (LifecycleAction action : LifecycleAction.values()) {
            actions.put(action.tag(), worker.total(action));
        }
        boolean disabled = interval.isZero() || interval.isNegative();
        return new Status(disabled ? "disabled" : interval.toString(), actions);
    }

    /**
     * Runs one pass now and answers when it is done. It waits for a pass already running to finish first.
     *
     * @param asOf an ISO-8601 instant ({@code 2030-01-01T00:00:00Z}) to decide what is due at, at most the
     *     limit ahead of now; now if absent
     * @param bucket the one bucket to cover; every bucket if absent; 404 if there is no such bucket
     */
    @WriteOperation
    public WebEndpointResponse<Object> run(@Nullable String asOf, @Nullable String bucket) {
        Instant now = clock.instant();
        Instant at;
        try {
            at = asOf == null || asOf.isBlank() ? now : Instant.parse(asOf.trim());
        } catch (DateTimeParseException e) {
            return failure("asOf is not an ISO-8601 instant: " + asOf, WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        if (at.isAfter(now.plus(asOfLimit))) {
            return failure("asOf may be at most " + asOfLimit + " ahead of now (hangar.admin.lifecycle-as-of-limit), "
                    + "because what is due then is deleted now: " + asOf, WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        if (bucket != null && bucket.isBlank()) {
            bucket = null;
        }
        if (bucket != null) {
            String badBucket = AccessKeysEndpoint.bucketProblem(bucket);
            if (badBucket != null) {
                return failure(badBucket, WebEndpointResponse.STATUS_BAD_REQUEST);
            }
            if (metadata.getBucket(bucket).isEmpty()) {
                return failure("no bucket " + bucket, WebEndpointResponse.STATUS_NOT_FOUND);
            }
        }
        long actions = bucket == null ? worker.runOnce(at) : worker.runOnce(bucket, at);
        return new WebEndpointResponse<>(new Pass(at.toString(), bucket, actions));
    }

    private static WebEndpointResponse<Object> failure(String message, int status) {
        return new WebEndpointResponse<>(new Failure(message), status);
    }
}

package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectLockedException;
import dev.hangar.metadata.command.VersionMatch;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.PreconditionFailedException;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.s3api.lifecycle.Expiry;
import dev.hangar.s3api.lifecycle.Lifecycle;
import dev.hangar.s3api.lifecycle.LifecycleRule;
import dev.hangar.s3api.lifecycle.VersionFacts;
import dev.hangar.s3api.xml.VersioningConfiguration;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the buckets' lifecycle rules: expirations, noncurrent versions, delete markers, stale uploads.
 *
 * <p>A pass reads every bucket's rules and pages through its versions (by key, newest first) and its multipart
 * uploads, a page at a time, asking {@link Lifecycle} what is due as of the instant it is given. It acts on the
 * metadata store directly:
 * <ul>
 *   <li>a current object expires: deleted in a bucket never versioned; in a versioned one a delete marker is put
 *       on top (a fresh version id when versioning is enabled, {@code null} when suspended), on condition that
 *       the object is still current;</li>
 *   <li>a noncurrent version expires ({@code NoncurrentVersionExpiration}): deleted; it became noncurrent when
 *       the next newer version was written;</li>
 *   <li>a delete marker with nothing beneath it (also once this pass deleted everything beneath it) is removed;</li>
 *   <li>an incomplete multipart upload is aborted.</li>
 * </ul>
 * A version under Object Lock retention or legal hold is never deleted. Before a version is deleted it is read
 * again, so one that changed since it was listed is left for the next pass. Freed blocks are queued by the store
 * and reclaimed soon after.
 *
 * <p>Passes never overlap: a pass started while another runs waits for it. A pass whose thread is interrupted
 * stops at the next page. The instant a pass runs "as of" decides what is due; what it writes (the time of a
 * delete marker) and whether a retention still holds use the real clock, so a pass run as of a future instant
 * never frees a version whose retention has not really ended.
 */
public final class LifecycleWorker {
    private static final Logger LOG = LoggerFactory.getLogger(LifecycleWorker.class);
    /** Versions and uploads are listed this many at a time. */
    static final int PAGE = 1000;
    private static final String DELETE_MARKER_ETAG = "\"\"";

    private final MetadataStore metadata;
    private final BucketConfigurations configurations;
    private final Reclamation reclamation;
    private final Clock clock;
    private final int pageSize;
    private final VersionIds versionIds;
    private final ReentrantLock running = new ReentrantLock();
    private final Map<LifecycleAction, LongAdder> totals = new EnumMap<>(LifecycleAction.class);

    LifecycleWorker(MetadataStore metadata, BucketConfigurations configurations, Reclamation reclamation,
            Clock clock) {
        this(metadata, configurations, reclamation, clock, PAGE);
    }

    /** With another page size, so tests can cross page boundaries with few versions. */
    LifecycleWorker(MetadataStore metadata, BucketConfigurations configurations, Reclamation reclamation,
            Clock clock, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be positive: " + pageSize);
        }
        this.metadata = metadata;
        this.configurations = configurations;
        this.reclamation = reclamation;
        this.clock = clock;
        this.pageSize = pageSize;
        this.versionIds = new VersionIds(clock);
        for (LifecycleAction action : LifecycleAction.values()) {
            totals.put(action, new LongAdder());
        }
    }

    /** One pass over every bucket as of {@code now}; returns how many actions it took. */
    public long runOnce(Instant now) {
        running.lock();
        try {
            long actions = 0;
            for (BucketRecord bucket : metadata.listBuckets()) {
                if (stopping()) {
                    break;
                }
                actions += applySafely(bucket.name(), now);
            }
            if (actions > 0) {
                LOG.info("lifecycle pass as of {} took {} actions", now, actions);
            }
            return actions;
        } finally {
            running.unlock();
        }
    }

    /** One pass over one bucket as of {@code now}; returns how many actions it took (0 if there is no such bucket). */
    public long runOnce(String bucket, Instant now) {
        running.lock();
        try {
            if (metadata.getBucket(bucket).isEmpty()) {
                return 0;
            }
            return applySafely(bucket, now);
        } finally {
            running.unlock();
        }
    }

    /** How many actions of this kind every pass so far took, since the server started. */
    public long total(LifecycleAction action) {
        return totals.get(action).sum();
    }

    /** A failure in one bucket is logged, and the pass goes on with the next. */
    private long applySafely(String bucket, Instant now) {
        try {
            return new BucketPass(bucket, now).run();
        } catch (RuntimeException e) {
            LOG.warn("lifecycle pass of bucket {} failed; the next pass retries", bucket, e);
            return 0;
        }
    }

    /** The work on one bucket: its rules and versioning read once, then its versions and its uploads. */
    private final class BucketPass {
        private final String bucket;
        private final Instant now;
        private final List<LifecycleRule> rules;
        private final Optional<VersioningConfiguration.Status> versioning;
        private long actions;

        BucketPass(String bucket, Instant now) {
            this.bucket = bucket;
            this.now = now;
            this.rules = configurations.lifecycle(bucket).stream().filter(LifecycleRule::enabled).toList();
            this.versioning = rules.isEmpty() ? Optional.empty() : configurations.versioning(bucket);
        }

        long run() {
            if (rules.isEmpty()) {
                return 0;
            }
            try {
                if (rules.stream().anyMatch(BucketPass::actsOnVersions)) {
                    versions();
                }
                if (rules.stream().anyMatch(rule -> rule.abortIncompleteDays() != null)) {
                    uploads();
                }
            } finally {
                if (actions > 0) {
                    reclamation.soon();
                }
            }
            return actions;
        }

        private static boolean actsOnVersions(LifecycleRule rule) {
            return rule.expirationDays() != null || rule.expirationDate() != null || rule.expiredObjectDeleteMarker()
                    || rule.noncurrentDays() != null;
        }

        /** Every version, key by key; a current delete marker is decided once the key's other versions are. */
        private void versions() {
            VersionCursor cursor = new VersionCursor(bucket);
            @Nullable String key = null;
            boolean skipKey = false;
            @Nullable ObjectVersion currentMarker = null;
            @Nullable ObjectVersion newer = null;
            int noncurrentSeen = 0;
            int noncurrentLeft = 0;
            while (cursor.hasNext()) {
                ListedVersion listed = cursor.next();
                ObjectVersion version = listed.version();
                if (!version.key().equals(key)) {
                    finishKey(currentMarker, noncurrentLeft);
                    key = version.key();
                    // The first version seen of a key is its current one, unless the key changed between pages.
                    skipKey = !listed.latest();
                    currentMarker = null;
                    newer = null;
                    noncurrentSeen = 0;
                    noncurrentLeft = 0;
                }
                if (skipKey) {
                    continue;
                }
                if (newer == null) {
                    if (version.isDeleteMarker()) {
                        currentMarker = version;
                    } else {
                        expireCurrent(version);
                    }
                } else {
                    if (!expireNoncurrent(version, newer.lastModified(), noncurrentSeen)) {
                        noncurrentLeft++;
                    }
                    noncurrentSeen++;
                }
                newer = version;
            }
            finishKey(currentMarker, noncurrentLeft);
        }

        private void expireCurrent(ObjectVersion current) {
            Optional<Expiry> expiry = Lifecycle.currentVersionAction(rules, facts(current), versioning.isPresent(),
                    false, now);
            if (expiry.isEmpty()) {
                return;
            }
            switch (expiry.get().action()) {
                case DELETE -> {
                    if (deleteExactly(current)) {
                        count(LifecycleAction.EXPIRE_OBJECT);
                    }
                }
                case ADD_DELETE_MARKER -> {
                    if (addDeleteMarker(current)) {
                        count(LifecycleAction.ADD_DELETE_MARKER);
                    }
                }
                case REMOVE_DELETE_MARKER -> throw new IllegalStateException("an object is not a delete marker");
            }
        }

        /** Deletes a noncurrent version if it is due; returns whether it did. */
        private boolean expireNoncurrent(ObjectVersion version, Instant becameNoncurrentAt, int newerNoncurrent) {
            if (!Lifecycle.noncurrentVersionExpires(rules, facts(version), becameNoncurrentAt, newerNoncurrent, now)) {
                return false;
            }
            if (!deleteExactly(version)) {
                return false;
            }
            count(LifecycleAction.EXPIRE_NONCURRENT_VERSION);
            return true;
        }

        /** A current delete marker with no noncurrent version left beneath it may be due for removal. */
        private void finishKey(@Nullable ObjectVersion currentMarker, int noncurrentLeft) {
            if (currentMarker == null) {
                return;
            }
            Optional<Expiry> expiry = Lifecycle.currentVersionAction(rules, facts(currentMarker),
                    versioning.isPresent(), noncurrentLeft > 0, now);
            if (expiry.isPresent() && expiry.get().action() == Expiry.Action.REMOVE_DELETE_MARKER
                    && deleteExactly(currentMarker)) {
                count(LifecycleAction.REMOVE_DELETE_MARKER);
            }
        }

        /**
         * Puts a delete marker on top of {@code current}, if it is still the current version. When versioning is
         * suspended the marker takes the {@code null} id and replaces a {@code null} version, which is not done if
         * that version is locked.
         */
        private boolean addDeleteMarker(ObjectVersion current) {
            boolean enabled = versioning.get() == VersioningConfiguration.Status.ENABLED;
            String versionId = enabled ? versionIds.next() : ObjectVersion.NULL_VERSION;
            ObjectVersion marker = new ObjectVersion(bucket, current.key(), versionId,
                    clock.instant().truncatedTo(ChronoUnit.MILLIS), 0, DELETE_MARKER_ETAG,
                    new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of());
            try {
                metadata.putObject(marker, new Precondition.IfEtagMatches(current.etag()), lockCheck());
                return true;
            } catch (PreconditionFailedException | ObjectLockedException e) {
                return false;
            } catch (NoSuchBucketException e) {
                throw new IllegalStateException("bucket " + bucket + " was deleted during the pass", e);
            }
        }

        /**
         * Deletes exactly this version, unless it is locked or has changed since it was listed (another version
         * took its id, as a new {@code null} version does); returns whether it did.
         */
        private boolean deleteExactly(ObjectVersion listed) {
            try {
                return metadata.deleteVersion(bucket, listed.key(), listed.versionId(), lockCheck(),
                        VersionMatch.of(listed)).isPresent();
            } catch (ObjectLockedException e) {
                return false;
            }
        }

        /**
         * Object Lock as lifecycle respects it, checked by the store with the removal: no bypass, and retention
         * holds until its date, judged at the earlier of the pass's instant and now.
         */
        private LockCheck lockCheck() {
            Instant realNow = clock.instant();
            return LockCheck.at(now.isBefore(realNow) ? now : realNow, false);
        }

        /** Aborts every upload of the bucket that is due. */
        private void uploads() {
            @Nullable String keyMarker = null;
            @Nullable String uploadIdMarker = null;
            while (true) {
                UploadListing listing = metadata.listUploads(bucket, "", null, keyMarker, uploadIdMarker, pageSize);
                for (MultipartUpload upload : listing.uploads()) {
                    if (Lifecycle.abortUpload(rules, upload.key(), upload.initiated(), now)
                            && metadata.abortUpload(upload)) {
                        count(LifecycleAction.ABORT_UPLOAD);
                    }
                }
                if (!listing.truncated() || listing.nextKeyMarker() == null || stopping()) {
                    return;
                }
                keyMarker = listing.nextKeyMarker();
                uploadIdMarker = listing.nextUploadIdMarker();
            }
        }

        private void count(LifecycleAction action) {
            actions++;
            totals.get(action).increment();
        }
    }

    /**
     * Every version of a bucket in listing order, a page at a time. The next page is fetched before the last
     * version of a page is handed out: that version is the marker the next page resumes from, and once handed out
     * it may be deleted, after which the store would resume after its whole key. At most two pages are held.
     */
    private final class VersionCursor {
        private final String bucket;
        private final Deque<ListedVersion> buffered = new ArrayDeque<>();
        private boolean more = true;
        private @Nullable String keyMarker;
        private @Nullable String versionIdMarker;

        VersionCursor(String bucket) {
            this.bucket = bucket;
        }

        boolean hasNext() {
            fill();
            return !buffered.isEmpty();
        }

        ListedVersion next() {
            fill();
            return buffered.removeFirst();
        }

        private void fill() {
            while (more && buffered.size() <= 1) {
                VersionListing page = metadata.listVersions(bucket,
                        new VersionQuery("", null, keyMarker, versionIdMarker, pageSize));
                buffered.addAll(page.versions());
                more = page.truncated() && page.nextKeyMarker() != null && !stopping();
                keyMarker = page.nextKeyMarker();
                versionIdMarker = page.nextVersionIdMarker();
            }
        }
    }

    /** A pass stops at the next page when its thread is interrupted, as when the server shuts down. */
    private static boolean stopping() {
        return Thread.currentThread().isInterrupted();
    }

    private static VersionFacts facts(ObjectVersion version) {
        return version.isDeleteMarker()
                ? VersionFacts.deleteMarker(version.key(), version.lastModified())
                : VersionFacts.object(version.key(), version.size(), version.tags(), version.lastModified());
    }
}

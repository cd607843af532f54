/**
 * S3 lifecycle expiration as pure decisions: which rule applies to a version or an upload, and whether its
 * action is due at a given instant. No XML (the configuration document is read elsewhere into
 * {@link dev.hangar.s3api.lifecycle.LifecycleRule} records), no storage, no clock: the caller passes
 * {@code Instant now} and acts on the answer.
 *
 * <ul>
 *   <li>{@link dev.hangar.s3api.lifecycle.LifecycleValidation#validate} refuses a configuration S3 would refuse,
 *       with S3's code and message, when it is put.</li>
 *   <li>{@link dev.hangar.s3api.lifecycle.Lifecycle} decides, for the current version of a key
 *       ({@link dev.hangar.s3api.lifecycle.Expiry}: delete, add a delete marker, or remove an expired object delete
 *       marker), for a noncurrent version, and for an incomplete multipart upload; and reports when each falls
 *       due ({@link dev.hangar.s3api.lifecycle.Due}) for the {@code x-amz-expiration} and {@code x-amz-abort-date}
 *       headers.</li>
 * </ul>
 *
 * <p>Day counts run from the version's creation (or the time it became noncurrent, or the upload's initiation) and
 * end at a midnight UTC, as S3 counts them; see {@link dev.hangar.s3api.lifecycle.Lifecycle#dueAfterDays}.
 * Actions Hangar does not take (transitions between storage classes) are not modelled.
 */
@NullMarked
package dev.hangar.s3api.lifecycle;

import org.jspecify.annotations.NullMarked;

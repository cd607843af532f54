/**
 * What the object store knows about its data, apart from the bytes: buckets and their
 * configurations, every version of every object (small objects carry their bytes inline; delete
 * markers are versions too), multipart uploads and their parts, access keys and their bucket
 * permissions, and the queue of blocks waiting to be freed.
 *
 * <p>{@link dev.hangar.metadata.MetadataStore} is the contract; {@link
 * dev.hangar.metadata.MetadataStores} opens an implementation. Values are records; the content of
 * a version is a sealed variant ({@link dev.hangar.metadata.ObjectContent}) rather than a set of
 * nullable fields; conditional writes take a sealed {@link dev.hangar.metadata.Precondition}.
 */
@NullMarked
package dev.hangar.metadata;

import org.jspecify.annotations.NullMarked;

/**
 * S3's listing rules, written once for every store: {@link dev.hangar.metadata.listing.ListingRules}
 * pages through a bucket's current objects, versions, uploads and an upload's parts — prefix,
 * delimiter roll-up, key, version id and upload id markers, max-keys truncation — over a small
 * ordered key-value facade, {@link dev.hangar.metadata.listing.OrderedCursor}.
 *
 * <p>No HTTP and no storage here. A store supplies a cursor over the records of one listing (a
 * RocksDB iterator on a single node; quorum range reads a page at a time on the leaderless
 * cluster), where the object key sits in its record keys ({@link
 * dev.hangar.metadata.listing.KeyLayout}: each store keeps its own key encoding), and what each key
 * holds ({@link dev.hangar.metadata.listing.KeyReader}, {@link dev.hangar.metadata.listing.VersionReader},
 * {@link dev.hangar.metadata.listing.KeyItems}).
 * {@link dev.hangar.metadata.listing.ByteKeys} is the byte-order key arithmetic both stores spell
 * their keys with.
 *
 * <p>The rules use the cursor the way a scan would be written by hand for each store: one seek to
 * start, one step per listed record, one seek past each common prefix, nothing read past the
 * record that shows the page is truncated.
 */
@NullMarked
package dev.hangar.metadata.listing;

import org.jspecify.annotations.NullMarked;

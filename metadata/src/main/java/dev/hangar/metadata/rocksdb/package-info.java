/**
 * The metadata store on RocksDB: one column family per record kind, keys laid out so that every
 * listing is one forward prefix scan, values in a small versioned binary format.
 *
 * <p>{@link dev.hangar.metadata.rocksdb.RocksDbMetadataStore} holds the semantics (what each
 * mutation reads and writes in its one atomic batch). Beneath it, package-private: {@code Database}
 * owns the RocksDB handles, {@code Keys} the key layouts, {@code RecordCodec} the value format,
 * {@code Listings} the S3 listings ({@link dev.hangar.metadata.listing.ListingRules} over a cursor
 * of one family), {@code VersionSequence} the numbers that
 * order versions, {@code LayoutUpgrade} the migration of a store written by an earlier release,
 * {@code Counter} the store-wide counters kept in each mutation's batch, {@code BlockReferenceWalk}
 * the snapshot scan of every block reference, {@code Tuning} the RocksDB options of each family.
 *
 * <p>Read-modify-write mutations are made atomic against each other by {@link
 * dev.hangar.metadata.StoreLocks}, which the replicated store of a cluster uses too. {@link
 * dev.hangar.metadata.rocksdb.RecordFormat} publishes the value format, so that the
 * replicated metadata of a cluster stores the same records in the same bytes.
 */
@NullMarked
package dev.hangar.metadata.rocksdb;

import org.jspecify.annotations.NullMarked;

package dev.hangar.metadata.listing;

/**
 * The records one listing reads: a cursor over a store's range (a column family under a bound, a
 * partition key) and where the object key sits in the range's record keys.
 */
public record KeyRange(OrderedCursor cursor, KeyLayout layout) {}

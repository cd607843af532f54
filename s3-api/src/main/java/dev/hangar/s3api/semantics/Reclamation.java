package dev.hangar.s3api.semantics;

/** Asks the storage layer to free queued blocks soon, after something was overwritten or deleted. */
@FunctionalInterface
interface Reclamation {
    void soon();
}

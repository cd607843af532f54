package dev.hangar.s3api.xml;

import java.util.List;

/**
 * DeleteObjects' answer: every {@code Deleted}, then every {@code Error}. In quiet mode S3 reports
 * only the errors, so the caller passes no deleted entries.
 */
public record DeleteResult(List<DeletedEntry> deleted, List<DeleteErrorEntry> errors) {
    public DeleteResult {
        deleted = List.copyOf(deleted);
        errors = List.copyOf(errors);
    }
}

package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An account as S3 names it in a document: its canonical id and, where there is one, a display
 * name. Rendered as {@code <ID>} then {@code <DisplayName>}, under {@code Owner} or {@code
 * Initiator}. The display name is optional because AWS has stopped sending it in most regions.
 */
public record Owner(String id, @Nullable String displayName) {
    public Owner {
        Objects.requireNonNull(id, "owner id is required");
    }

    /** An owner known only by its id. */
    public Owner(String id) {
        this(id, null);
    }
}

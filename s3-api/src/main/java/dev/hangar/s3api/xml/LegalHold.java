package dev.hangar.s3api.xml;

import java.util.Objects;

/** An object version's legal hold, the document of Put/GetObjectLegalHold: its {@code Status}. */
public record LegalHold(Status status) {
    public LegalHold {
        Objects.requireNonNull(status, "status is required");
    }

    /** A legal hold's {@code Status}; the constant's name is the value on the wire. */
    public enum Status {
        ON,
        OFF
    }
}

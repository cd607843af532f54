package dev.hangar.metadata;

/**
 * S3 object lock retention modes: under {@code GOVERNANCE} a user with the bypass permission may
 * still delete or shorten; under {@code COMPLIANCE} nobody can until the retention date passes.
 * The store records the mode; the S3 layer enforces it.
 */
public enum RetentionMode {
    GOVERNANCE,
    COMPLIANCE
}

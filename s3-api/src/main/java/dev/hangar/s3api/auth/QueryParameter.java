package dev.hangar.s3api.auth;

/**
 * One query parameter: its decoded name and value (UTF-8), and the canonical re-encoding of each that
 * SigV4 signs. A parameter without {@code =} has an empty value.
 */
record QueryParameter(String name, String value, String encodedName, String encodedValue) {
}

package dev.hangar.s3api.encryption;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A KMS key of the key service, as stored: its id (a UUID, as AWS KMS's), when it was made, whether it may be used,
 * an operator's description, and its 256-bit material wrapped by a master key ({@link MasterKeys}). Never the
 * material in the clear.
 */
public record KmsKey(String id, Instant created, boolean enabled, String description, String wrappedMaterial) {
    private static final String VERSION = "hangar-kms-key/1";

    /** This key enabled or disabled. */
    public KmsKey withEnabled(boolean enabled) {
        return new KmsKey(id, created, enabled, description, wrappedMaterial);
    }

    /** This key with its material wrapped anew (by the current master key, after a rotation). */
    public KmsKey withWrappedMaterial(String wrapped) {
        return new KmsKey(id, created, enabled, description, wrapped);
    }

    /** The stored document: one {@code name=value} line per field, the description in base64. */
    public byte[] encode() {
        StringBuilder out = new StringBuilder(VERSION).append('\n');
        out.append("id=").append(id).append('\n');
        out.append("created=").append(created).append('\n');
        out.append("enabled=").append(enabled).append('\n');
        out.append("description=").append(Base64.getEncoder().encodeToString(description.getBytes(StandardCharsets.UTF_8)))
                .append('\n');
        out.append("material=").append(wrappedMaterial).append('\n');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @throws IllegalArgumentException for a document {@link #encode} did not make */
    public static KmsKey decode(byte[] document) {
        String[] lines = new String(document, StandardCharsets.UTF_8).split("\n");
        if (lines.length == 0 || !lines[0].equals(VERSION)) {
            throw new IllegalArgumentException("not a KMS key document");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int equals = lines[i].indexOf('=');
            if (equals > 0) {
                fields.put(lines[i].substring(0, equals), lines[i].substring(equals + 1));
            }
        }
        for (String field : new String[] {"id", "created", "enabled", "description", "material"}) {
            if (!fields.containsKey(field)) {
                throw new IllegalArgumentException("a KMS key document without " + field);
            }
        }
        return new KmsKey(fields.get("id"), Instant.parse(fields.get("created")),
                Boolean.parseBoolean(fields.get("enabled")),
                new String(Base64.getDecoder().decode(fields.get("description")), StandardCharsets.UTF_8),
                fields.get("material"));
    }

    /** Never the wrapped material either: it is useless without a master key, but has no place in logs. */
    @Override
    public String toString() {
        return "KmsKey[id=" + id + ", created=" + created + ", enabled=" + enabled + ", description=" + description + "]";
    }
}

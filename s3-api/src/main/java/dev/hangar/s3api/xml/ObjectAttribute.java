package dev.hangar.s3api.xml;

import org.jspecify.annotations.Nullable;

/**
 * An attribute GetObjectAttributes can be asked for in {@code x-amz-object-attributes}, by the
 * name S3 spells there (case matters: {@code etag} is refused).
 */
public enum ObjectAttribute {
    ETAG("ETag"),
    CHECKSUM("Checksum"),
    OBJECT_PARTS("ObjectParts"),
    STORAGE_CLASS("StorageClass"),
    OBJECT_SIZE("ObjectSize");

    private final String headerName;

    ObjectAttribute(String headerName) {
        this.headerName = headerName;
    }

    /** The name as {@code x-amz-object-attributes} spells it, which is also the element's name. */
    public String headerName() {
        return headerName;
    }

    static @Nullable ObjectAttribute byHeaderName(String name) {
        for (ObjectAttribute attribute : values()) {
            if (attribute.headerName.equals(name)) {
                return attribute;
            }
        }
        return null;
    }
}

package dev.hangar.s3api.xml;

import java.util.List;

/**
 * A parsed DeleteObjects request (root {@code Delete}): between 1 and {@link
 * S3Xml#MAXIMUM_OBJECTS_PER_DELETE} objects, in the order sent.
 *
 * @param quiet true when the client asked for errors only
 */
public record DeleteObjects(boolean quiet, List<ObjectIdentifier> objects) {
    public DeleteObjects {
        objects = List.copyOf(objects);
        if (objects.isEmpty() || objects.size() > S3Xml.MAXIMUM_OBJECTS_PER_DELETE) {
            throw new IllegalArgumentException(
                    "a delete names between 1 and " + S3Xml.MAXIMUM_OBJECTS_PER_DELETE + " objects: " + objects.size());
        }
    }
}

package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code OwnershipControls} document, both ways. It has exactly one {@code Rule} with exactly one
 * {@code ObjectOwnership} of the three S3 knows; anything else is MalformedXML.
 */
final class OwnershipControlsDocuments {
    private static final String ROOT = "OwnershipControls";
    private static final String RULE = "Rule";
    private static final String OBJECT_OWNERSHIP = "ObjectOwnership";

    private OwnershipControlsDocuments() {}

    static OwnershipControls parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        OwnershipControls.@Nullable ObjectOwnership ownership = null;
        while (document.nextChild(ROOT)) {
            if (document.isS3Element(RULE)) {
                ownership = RequestValues.once(ownership, rule(document), ROOT, RULE);
            } else {
                document.skip();
            }
        }
        document.finish();
        return new OwnershipControls(RequestValues.required(ownership, ROOT, RULE));
    }

    private static OwnershipControls.ObjectOwnership rule(XmlDocumentReader document) {
        Map<String, String> leaves = document.readLeaves(Set.of(OBJECT_OWNERSHIP), RULE);
        String value = RequestValues.required(leaves.get(OBJECT_OWNERSHIP), RULE, OBJECT_OWNERSHIP);
        return RequestValues.enumeration(value, OwnershipControls.ObjectOwnership.values(),
                OwnershipControls.ObjectOwnership::wireName, OBJECT_OWNERSHIP);
    }

    static byte[] render(OwnershipControls controls) {
        return XmlDocumentWriter.inS3Namespace(ROOT)
                .start(RULE)
                .element(OBJECT_OWNERSHIP, controls.objectOwnership().wireName())
                .end()
                .finish();
    }
}

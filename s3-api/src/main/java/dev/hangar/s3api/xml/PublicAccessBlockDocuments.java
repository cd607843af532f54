package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.Map;
import java.util.Set;

/**
 * The {@code PublicAccessBlockConfiguration} document, both ways. A value other than true or false
 * is MalformedXML; an element left out is false, as S3 stores it.
 */
final class PublicAccessBlockDocuments {
    private static final String ROOT = "PublicAccessBlockConfiguration";
    private static final String BLOCK_PUBLIC_ACLS = "BlockPublicAcls";
    private static final String IGNORE_PUBLIC_ACLS = "IgnorePublicAcls";
    private static final String BLOCK_PUBLIC_POLICY = "BlockPublicPolicy";
    private static final String RESTRICT_PUBLIC_BUCKETS = "RestrictPublicBuckets";
    private static final Set<String> ELEMENTS =
            Set.of(BLOCK_PUBLIC_ACLS, IGNORE_PUBLIC_ACLS, BLOCK_PUBLIC_POLICY, RESTRICT_PUBLIC_BUCKETS);

    private PublicAccessBlockDocuments() {}

    static PublicAccessBlockConfiguration parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        Map<String, String> leaves = document.readLeaves(ELEMENTS, ROOT);
        document.finish();
        return new PublicAccessBlockConfiguration(
                flag(leaves, BLOCK_PUBLIC_ACLS),
                flag(leaves, IGNORE_PUBLIC_ACLS),
                flag(leaves, BLOCK_PUBLIC_POLICY),
                flag(leaves, RESTRICT_PUBLIC_BUCKETS));
    }

    static byte[] render(PublicAccessBlockConfiguration configuration) {
        return XmlDocumentWriter.inS3Namespace(ROOT)
                .element(BLOCK_PUBLIC_ACLS, configuration.blockPublicAcls())
                .element(IGNORE_PUBLIC_ACLS, configuration.ignorePublicAcls())
                .element(BLOCK_PUBLIC_POLICY, configuration.blockPublicPolicy())
                .element(RESTRICT_PUBLIC_BUCKETS, configuration.restrictPublicBuckets())
                .finish();
    }

    private static boolean flag(Map<String, String> leaves, String name) {
        String text = leaves.get(name);
        return text != null && RequestValues.bool(text, name);
    }
}

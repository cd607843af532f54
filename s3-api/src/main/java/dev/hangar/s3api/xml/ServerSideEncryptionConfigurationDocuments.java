package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code ServerSideEncryptionConfiguration} document, both ways. As S3 answers: anything but
 * exactly one {@code Rule} (S3's schema allows several, S3 itself takes one), a rule without {@code
 * ApplyServerSideEncryptionByDefault}, a missing or unknown {@code SSEAlgorithm}, or an unknown
 * {@code EncryptionType} is MalformedXML; a {@code KMSMasterKeyID} with {@code AES256} is
 * InvalidArgument. Elements this parser does not know are skipped, as newer clients may send them.
 */
final class ServerSideEncryptionConfigurationDocuments {
    private static final String ROOT = "ServerSideEncryptionConfiguration";
    private static final String RULE = "Rule";
    private static final String BY_DEFAULT = "ApplyServerSideEncryptionByDefault";
    private static final String SSE_ALGORITHM = "SSEAlgorithm";
    private static final String KMS_MASTER_KEY_ID = "KMSMasterKeyID";
    private static final String BUCKET_KEY_ENABLED = "BucketKeyEnabled";
    private static final String BLOCKED_ENCRYPTION_TYPES = "BlockedEncryptionTypes";
    private static final String ENCRYPTION_TYPE = "EncryptionType";

    private ServerSideEncryptionConfigurationDocuments() {}

    static ServerSideEncryptionConfiguration parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        @Nullable ServerSideEncryptionConfiguration configuration = null;
        while (document.nextChild(ROOT)) {
            if (document.isS3Element(RULE)) {
                configuration = RequestValues.once(configuration, rule(document), ROOT, RULE);
            } else {
                document.skip();
            }
        }
        document.finish();
        return RequestValues.required(configuration, ROOT, RULE);
    }

    private static ServerSideEncryptionConfiguration rule(XmlDocumentReader document) {
        @Nullable DefaultEncryption byDefault = null;
        @Nullable String bucketKeyEnabled = null;
        @Nullable List<ServerSideEncryptionConfiguration.EncryptionType> blocked = null;
        while (document.nextChild(RULE)) {
            String name = document.s3LocalName();
            if (BY_DEFAULT.equals(name)) {
                byDefault = RequestValues.once(byDefault, byDefault(document), RULE, BY_DEFAULT);
            } else if (BUCKET_KEY_ENABLED.equals(name)) {
                bucketKeyEnabled = RequestValues.once(bucketKeyEnabled, document.text(), RULE, BUCKET_KEY_ENABLED);
            } else if (BLOCKED_ENCRYPTION_TYPES.equals(name)) {
                blocked = RequestValues.once(blocked, blockedEncryptionTypes(document), RULE, BLOCKED_ENCRYPTION_TYPES);
            } else {
                document.skip();
            }
        }
        DefaultEncryption encryption = RequestValues.required(byDefault, RULE, BY_DEFAULT);
        return new ServerSideEncryptionConfiguration(encryption.algorithm(), encryption.kmsMasterKeyId(),
                bucketKeyEnabled != null && RequestValues.bool(bucketKeyEnabled, BUCKET_KEY_ENABLED),
                blocked == null ? List.of() : blocked);
    }

    /** What {@code ApplyServerSideEncryptionByDefault} holds. */
    private record DefaultEncryption(ServerSideEncryptionConfiguration.Algorithm algorithm, @Nullable String kmsMasterKeyId) {}

    private static DefaultEncryption byDefault(XmlDocumentReader document) {
        Map<String, String> leaves = document.readLeaves(Set.of(SSE_ALGORITHM, KMS_MASTER_KEY_ID), BY_DEFAULT);
        ServerSideEncryptionConfiguration.Algorithm algorithm = RequestValues.enumeration(
                RequestValues.required(leaves.get(SSE_ALGORITHM), BY_DEFAULT, SSE_ALGORITHM),
                ServerSideEncryptionConfiguration.Algorithm.values(),
                ServerSideEncryptionConfiguration.Algorithm::wireName, SSE_ALGORITHM);
        String keyId = leaves.get(KMS_MASTER_KEY_ID);
        if (keyId != null && !algorithm.usesKms()) {
            // AWS's message; its error document also gives ArgumentName ApplyServerSideEncryptionByDefault,
            // a field Hangar's error documents do not carry.
            throw RequestValues.invalidArgument(
                    "a KMSMasterKeyID is not applicable if the default sse algorithm is not aws:kms or aws:kms:dsse");
        }
        return new DefaultEncryption(algorithm, keyId);
    }

    private static List<ServerSideEncryptionConfiguration.EncryptionType> blockedEncryptionTypes(
            XmlDocumentReader document) {
        List<ServerSideEncryptionConfiguration.EncryptionType> types = new ArrayList<>();
        while (document.nextChild(BLOCKED_ENCRYPTION_TYPES)) {
            if (document.isS3Element(ENCRYPTION_TYPE)) {
                types.add(RequestValues.enumeration(document.text(),
                        ServerSideEncryptionConfiguration.EncryptionType.values(),
                        ServerSideEncryptionConfiguration.EncryptionType::wireName, ENCRYPTION_TYPE));
            } else {
                document.skip();
            }
        }
        return types;
    }

    static byte[] render(ServerSideEncryptionConfiguration configuration) {
        XmlDocumentWriter writer = XmlDocumentWriter.inS3Namespace(ROOT)
                .start(RULE)
                .start(BY_DEFAULT)
                .element(SSE_ALGORITHM, configuration.algorithm().wireName())
                .elementIfPresent(KMS_MASTER_KEY_ID, configuration.kmsMasterKeyId())
                .end()
                .element(BUCKET_KEY_ENABLED, configuration.bucketKeyEnabled());
        if (!configuration.blockedEncryptionTypes().isEmpty()) {
            writer.start(BLOCKED_ENCRYPTION_TYPES);
            for (ServerSideEncryptionConfiguration.EncryptionType type : configuration.blockedEncryptionTypes()) {
                writer.element(ENCRYPTION_TYPE, type.wireName());
            }
            writer.end();
        }
        return writer.end().finish();
    }
}

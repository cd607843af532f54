package dev.hangar.s3api.xml;

import java.io.InputStream;
import org.jspecify.annotations.Nullable;

/** The {@code VersioningConfiguration} document, both ways. */
final class VersioningDocuments {
    private static final String ROOT = "VersioningConfiguration";

    private VersioningDocuments() {}

    static VersioningConfiguration parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        VersioningConfiguration.@Nullable Status status = null;
        VersioningConfiguration.@Nullable MfaDelete mfaDelete = null;
        while (document.nextChild(ROOT)) {
            String name = document.s3LocalName();
            if ("Status".equals(name)) {
                status = RequestValues.once(status, RequestValues.enumeration(document.text(),
                        VersioningConfiguration.Status.values(), VersioningConfiguration.Status::wireName, "Status"),
                        ROOT, "Status");
            } else if ("MfaDelete".equals(name)) {
                mfaDelete = RequestValues.once(mfaDelete, RequestValues.enumeration(document.text(),
                        VersioningConfiguration.MfaDelete.values(), VersioningConfiguration.MfaDelete::wireName,
                        "MfaDelete"), ROOT, "MfaDelete");
            } else {
                document.skip();
            }
        }
        document.finish();
        return new VersioningConfiguration(status, mfaDelete);
    }

    static byte[] render(VersioningConfiguration configuration) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(ROOT);
        VersioningConfiguration.Status status = configuration.status();
        if (status != null) {
            document.element("Status", status.wireName());
        }
        VersioningConfiguration.MfaDelete mfaDelete = configuration.mfaDelete();
        if (mfaDelete != null) {
            document.element("MfaDelete", mfaDelete.wireName());
        }
        return document.finish();
    }
}

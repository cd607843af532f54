package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class DeleteResultRenderingTest {

    @Test
    void rendersDeletedEntriesThenErrors() {
        var result = new DeleteResult(
                List.of(
                        new DeletedEntry("sample1.txt"),
                        new DeletedEntry("versioned.txt", "OYcLXagmS.WaD..oyH4KRguB95_YhLs7", false, null),
                        new DeletedEntry("marked.txt", null, true, "NeQt5xeFTfgPJD8B4CGWnkSLtluMr11s")),
                List.of(
                        new DeleteErrorEntry("sample2.txt", "AccessDenied", "Access Denied"),
                        new DeleteErrorEntry("sample3.txt", "v1", "InternalError", "We encountered an internal error.")));

        Element root = DomDocuments.s3Root(S3Xml.renderDeleteResult(result), "DeleteResult");

        assertThat(childNames(root)).containsExactly("Deleted", "Deleted", "Deleted", "Error", "Error");
        List<Element> deleted = children(root, "Deleted");
        assertThat(childNames(deleted.get(0))).containsExactly("Key");
        assertThat(text(deleted.get(0), "Key")).isEqualTo("sample1.txt");
        assertThat(childNames(deleted.get(1))).containsExactly("Key", "VersionId");
        assertThat(childNames(deleted.get(2))).containsExactly("Key", "DeleteMarker", "DeleteMarkerVersionId");
        assertThat(text(deleted.get(2), "DeleteMarker")).isEqualTo("true");
        List<Element> errors = children(root, "Error");
        assertThat(childNames(errors.get(0))).containsExactly("Key", "Code", "Message");
        assertThat(text(errors.get(0), "Code")).isEqualTo("AccessDenied");
        assertThat(text(errors.get(0), "Message")).isEqualTo("Access Denied");
        assertThat(childNames(errors.get(1))).containsExactly("Key", "VersionId", "Code", "Message");
    }

    @Test
    void quietModeReportsOnlyErrors() {
        var result = new DeleteResult(List.of(), List.of(new DeleteErrorEntry("k", "AccessDenied", "Access Denied")));

        Element root = DomDocuments.s3Root(S3Xml.renderDeleteResult(result), "DeleteResult");

        assertThat(childNames(root)).containsExactly("Error");
    }

    @Test
    void aQuietDeleteWithoutErrorsIsAnEmptyDocument() {
        Element root = DomDocuments.s3Root(S3Xml.renderDeleteResult(new DeleteResult(List.of(), List.of())), "DeleteResult");

        assertThat(childNames(root)).isEmpty();
    }
}

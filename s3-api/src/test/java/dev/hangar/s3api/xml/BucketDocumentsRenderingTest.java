package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class BucketDocumentsRenderingTest {

    @Test
    void listAllMyBucketsPutsTheOwnerBeforeTheBuckets() {
        var result = new ListAllMyBucketsResult(
                new Owner("75aa57f09aa0c8ca", "hangar"),
                List.of(
                        new BucketEntry("alpha", Instant.parse("2026-11-22T09:17:00Z"), "us-east-1"),
                        new BucketEntry("beta", Instant.parse("2026-11-23T10:00:00.123456Z"), null)));

        Element root = DomDocuments.s3Root(S3Xml.renderListAllMyBuckets(result), "ListAllMyBucketsResult");

        assertThat(childNames(root)).containsExactly("Owner", "Buckets");
        assertThat(childNames(child(root, "Owner"))).containsExactly("ID", "DisplayName");
        assertThat(text(child(root, "Owner"), "ID")).isEqualTo("75aa57f09aa0c8ca");
        assertThat(text(child(root, "Owner"), "DisplayName")).isEqualTo("hangar");
        List<Element> buckets = children(child(root, "Buckets"), "Bucket");
        assertThat(buckets).hasSize(2);
        assertThat(childNames(buckets.get(0))).containsExactly("Name", "CreationDate", "BucketRegion");
        assertThat(text(buckets.get(0), "Name")).isEqualTo("alpha");
        assertThat(text(buckets.get(0), "CreationDate")).isEqualTo("2026-11-22T09:17:00.000Z");
        assertThat(text(buckets.get(0), "BucketRegion")).isEqualTo("us-east-1");
        assertThat(childNames(buckets.get(1))).containsExactly("Name", "CreationDate");
        assertThat(text(buckets.get(1), "CreationDate")).isEqualTo("2026-11-23T10:00:00.123Z");
    }

    @Test
    void listAllMyBucketsEndsWithThePrefixAndContinuationTokenOfAPagedListing() {
        var result = new ListAllMyBucketsResult(
                new Owner("id"), List.of(new BucketEntry("logs-1", Instant.EPOCH, "us-east-1")), "logs-", "token==");

        Element root = DomDocuments.s3Root(S3Xml.renderListAllMyBuckets(result), "ListAllMyBucketsResult");

        assertThat(childNames(root)).containsExactly("Owner", "Buckets", "Prefix", "ContinuationToken");
        assertThat(childNames(child(root, "Owner"))).containsExactly("ID");
        assertThat(text(root, "ContinuationToken")).isEqualTo("token==");
    }

    @Test
    void listAllMyBucketsWithNoBucketHasAnEmptyBucketsElement() {
        Element root = DomDocuments.s3Root(
                S3Xml.renderListAllMyBuckets(new ListAllMyBucketsResult(new Owner("id"), List.of())),
                "ListAllMyBucketsResult");

        assertThat(childNames(child(root, "Buckets"))).isEmpty();
    }

    @Test
    void locationConstraintHoldsTheRegion() {
        byte[] document = S3Xml.renderLocationConstraint("eu-west-1");

        Element root = DomDocuments.s3Root(document, "LocationConstraint");
        assertThat(root.getTextContent()).isEqualTo("eu-west-1");
        assertThat(new String(document, StandardCharsets.UTF_8))
                .isEqualTo(DomDocuments.DECLARATION
                        + "<LocationConstraint xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">eu-west-1</LocationConstraint>");
    }

    @Test
    void locationConstraintIsEmptyForUsEast1() {
        assertThat(DomDocuments.s3Root(S3Xml.renderLocationConstraint("us-east-1"), "LocationConstraint").getTextContent())
                .isEmpty();
        assertThat(DomDocuments.s3Root(S3Xml.renderLocationConstraint(null), "LocationConstraint").getTextContent())
                .isEmpty();
    }
}

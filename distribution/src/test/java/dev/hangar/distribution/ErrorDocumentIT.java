package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;

/** The S3 error document on the wire: XML content type, {@code <Error><Code>...}, request ids. */
class ErrorDocumentIT extends AbstractS3IT {

    private String bucket;

    @BeforeAll
    void createErrorBucket() {
        bucket = createBucket("errors");
    }

    @Test
    void noSuchKey() {
        RawS3.Response response = signedGet("/" + bucket + "/missing-key");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/xml"));
        String requestId = response.header("x-amz-request-id").orElse("");
        assertThat(requestId).isNotBlank();

        Element error = parse(response).getDocumentElement();
        assertThat(error.getTagName()).isEqualTo("Error");
        assertThat(text(error, "Code")).isEqualTo("NoSuchKey");
        assertThat(text(error, "Message")).isNotBlank();
        assertThat(text(error, "Key")).isEqualTo("missing-key");
        assertThat(text(error, "RequestId")).isEqualTo(requestId);
        assertThat(response.bodyText()).contains("<Error>").contains("<Code>NoSuchKey</Code>");
    }

    @Test
    void operationsHangarLacksAnswerNotImplementedNamingTheOperation() {
        RawS3.Response response = raw.send(raw.sign(raw.request(SdkHttpMethod.GET, "/" + bucket)
            .putRawQueryParameter("replication", (String) null).build(), (byte[]) null, properties -> {
            }));
        assertThat(response.status()).isEqualTo(501);
        Element error = parse(response).getDocumentElement();
        assertThat(text(error, "Code")).isEqualTo("NotImplemented");
        assertThat(text(error, "Message")).contains("GetBucketReplication");
    }

    @Test
    void noSuchBucket() {
        String missing = newBucketName("missing");
        RawS3.Response response = signedGet("/" + missing + "/key");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/xml"));
        Element error = parse(response).getDocumentElement();
        assertThat(text(error, "Code")).isEqualTo("NoSuchBucket");
        assertThat(text(error, "BucketName")).isEqualTo(missing);
        assertThat(text(error, "RequestId")).isEqualTo(response.header("x-amz-request-id").orElseThrow());
    }

    @Test
    void keyThatXmlMustEscapeStaysWellFormed() {
        String key = "a&b<c>\"d'";
        RawS3.Response response = signedGet("/" + bucket + "/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20"));
        assertThat(response.status()).isEqualTo(404);
        Element error = parse(response).getDocumentElement();
        assertThat(text(error, "Code")).isEqualTo("NoSuchKey");
        assertThat(text(error, "Key")).isEqualTo(key);
    }

    @Test
    void headErrorHasAStatusAndARequestIdButNoBody() {
        RawS3.Response response = raw.send(raw.sign(raw.request(SdkHttpMethod.HEAD, "/" + bucket + "/missing-key").build(),
            (byte[]) null, properties -> {
            }));
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("x-amz-request-id")).hasValueSatisfying(id -> assertThat(id).isNotBlank());
        assertThat(response.body()).isEmpty();
    }

    @Test
    void successfulResponsesCarryARequestId() {
        s3.putObject(request -> request.bucket(bucket).key("present"), RequestBody.fromString("here"));
        RawS3.Response response = signedGet("/" + bucket + "/present");
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("x-amz-request-id")).hasValueSatisfying(id -> assertThat(id).isNotBlank());
        assertThat(response.bodyText()).isEqualTo("here");

        RawS3.Response other = signedGet("/" + bucket + "/present");
        assertThat(other.header("x-amz-request-id")).isNotEqualTo(response.header("x-amz-request-id"));
    }

    @Test
    void listingAMissingBucket() {
        RawS3.Response response = signedGet("/" + newBucketName("missing-too"));
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.errorCode()).contains("NoSuchBucket");
    }

    private RawS3.Response signedGet(String encodedPath) {
        return raw.send(raw.sign(raw.request(SdkHttpMethod.GET, encodedPath).build(), (byte[]) null, properties -> {
        }));
    }

    private static String serialize(Element element) {
        try {
            StringWriter out = new StringWriter();
            TransformerFactory.newInstance().newTransformer().transform(new DOMSource(element), new StreamResult(out));
            return out.toString();
        } catch (Exception e) {
            return element.getTextContent();
        }
    }

    private static Document parse(RawS3.Response response) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(response.body()));
        } catch (Exception e) {
            throw new AssertionError("not a well-formed XML document: " + response, e);
        }
    }

    private static String text(Element parent, String name) {
        NodeList nodes = parent.getElementsByTagName(name);
        assertThat(nodes.getLength()).as("<%s> in the error document %s", name, serialize(parent)).isEqualTo(1);
        return nodes.item(0).getTextContent();
    }
}

package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.xml.VersioningConfiguration.MfaDelete;
import dev.hangar.s3api.xml.VersioningConfiguration.Status;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class VersioningConfigurationTest {

    static Stream<VersioningConfiguration> configurations() {
        return Stream.of(
                VersioningConfiguration.neverVersioned(),
                new VersioningConfiguration(Status.ENABLED, null),
                new VersioningConfiguration(Status.SUSPENDED, null),
                new VersioningConfiguration(Status.ENABLED, MfaDelete.DISABLED),
                new VersioningConfiguration(null, MfaDelete.ENABLED));
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void survivesTheRoundTrip(VersioningConfiguration configuration) {
        byte[] document = S3Xml.renderVersioningConfiguration(configuration);

        assertThat(S3Xml.parseVersioningConfiguration(body(document))).isEqualTo(configuration);
    }

    @Test
    void aBucketNeverVersionedIsAnEmptyDocument() {
        Element root = DomDocuments.s3Root(
                S3Xml.renderVersioningConfiguration(VersioningConfiguration.neverVersioned()), "VersioningConfiguration");

        assertThat(childNames(root)).isEmpty();
    }

    @Test
    void putsTheStatusBeforeMfaDelete() {
        Element root = DomDocuments.s3Root(
                S3Xml.renderVersioningConfiguration(new VersioningConfiguration(Status.SUSPENDED, MfaDelete.DISABLED)),
                "VersioningConfiguration");

        assertThat(childNames(root)).containsExactly("Status", "MfaDelete");
        assertThat(text(root, "Status")).isEqualTo("Suspended");
        assertThat(text(root, "MfaDelete")).isEqualTo("Disabled");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", NAMESPACE})
    void readsTheApiReferenceSampleWithOrWithoutTheNamespace(String namespace) {
        VersioningConfiguration configuration = S3Xml.parseVersioningConfiguration(body(
                "<VersioningConfiguration" + namespace + ">\n  <Status>Enabled</Status>\n</VersioningConfiguration>"));

        assertThat(configuration).isEqualTo(new VersioningConfiguration(Status.ENABLED, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"enabled", "ENABLED", "Disabled", "On", ""})
    void refusesAStatusS3DoesNotHave(String status) {
        assertMalformed(
                () -> S3Xml.parseVersioningConfiguration(
                        body("<VersioningConfiguration><Status>" + status + "</Status></VersioningConfiguration>")),
                "Status has to be one of Enabled or Suspended");
    }

    @Test
    void refusesAnMfaDeleteS3DoesNotHave() {
        assertMalformed(
                () -> S3Xml.parseVersioningConfiguration(
                        body("<VersioningConfiguration><MfaDelete>Suspended</MfaDelete></VersioningConfiguration>")),
                "MfaDelete has to be one of Enabled or Disabled");
    }

    @Test
    void refusesTwoStatuses() {
        assertMalformed(
                () -> S3Xml.parseVersioningConfiguration(body("<VersioningConfiguration><Status>Enabled</Status>"
                        + "<Status>Suspended</Status></VersioningConfiguration>")),
                "more than one Status");
    }

    @Test
    void refusesAnEmptyBodyAndTheWrongRoot() {
        assertMalformed(() -> S3Xml.parseVersioningConfiguration(body("")), "empty");
        assertMalformed(
                () -> S3Xml.parseVersioningConfiguration(body("<Versioning><Status>Enabled</Status></Versioning>")),
                "not VersioningConfiguration");
    }

    @Test
    void refusesABodyOverTheBound() {
        assertMalformed(
                () -> S3Xml.parseVersioningConfiguration(
                        body("<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>"), 20),
                "larger than the 20 bytes");
    }
}

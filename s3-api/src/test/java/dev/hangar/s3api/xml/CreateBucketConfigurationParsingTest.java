package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CreateBucketConfigurationParsingTest {

    @ParameterizedTest
    @ValueSource(strings = {"", NAMESPACE})
    void readsTheLocationConstraintWithOrWithoutTheNamespace(String namespace) {
        CreateBucketConfiguration configuration = S3Xml.parseCreateBucketConfiguration(body(
                "<CreateBucketConfiguration" + namespace + ">\n  <LocationConstraint>eu-west-1</LocationConstraint>\n"
                        + "</CreateBucketConfiguration>"));

        assertThat(configuration.locationConstraint()).isEqualTo("eu-west-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\r\n\t"})
    void anEmptyBodyNamesNoConstraint(String text) {
        assertThat(S3Xml.parseCreateBucketConfiguration(body(text)).locationConstraint()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<CreateBucketConfiguration/>",
        "<CreateBucketConfiguration><LocationConstraint/></CreateBucketConfiguration>",
        "<CreateBucketConfiguration><LocationConstraint> </LocationConstraint></CreateBucketConfiguration>"
    })
    void aConfigurationWithoutARegionNamesNoConstraint(String text) {
        assertThat(S3Xml.parseCreateBucketConfiguration(body(text)).locationConstraint()).isNull();
    }

    @Test
    void skipsElementsItDoesNotKnow() {
        CreateBucketConfiguration configuration = S3Xml.parseCreateBucketConfiguration(body(
                "<CreateBucketConfiguration" + NAMESPACE + "><Location><Name>usw2-az1</Name><Type>AvailabilityZone</Type>"
                        + "</Location><LocationConstraint> us-west-2 </LocationConstraint>"
                        + "<Bucket><Type>Directory</Type></Bucket></CreateBucketConfiguration>"));

        assertThat(configuration.locationConstraint()).isEqualTo("us-west-2");
    }

    @Test
    void refusesTheWrongRoot() {
        assertMalformed(
                () -> S3Xml.parseCreateBucketConfiguration(body("<LocationConstraint>eu-west-1</LocationConstraint>")),
                "not CreateBucketConfiguration");
    }

    @Test
    void refusesTwoConstraints() {
        assertMalformed(
                () -> S3Xml.parseCreateBucketConfiguration(body(
                        "<CreateBucketConfiguration><LocationConstraint>a</LocationConstraint>"
                                + "<LocationConstraint>b</LocationConstraint></CreateBucketConfiguration>")),
                "more than one LocationConstraint");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<CreateBucketConfiguration>", "eu-west-1", "<CreateBucketConfiguration></Other>"})
    void refusesBodiesThatAreNotWellFormed(String text) {
        assertMalformed(() -> S3Xml.parseCreateBucketConfiguration(body(text)), "not well-formed");
    }

    @Test
    void refusesABodyOverTheBound() {
        assertMalformed(
                () -> S3Xml.parseCreateBucketConfiguration(body("<CreateBucketConfiguration>" + " ".repeat(2 << 20)
                        + "</CreateBucketConfiguration>")),
                "larger than the 1048576 bytes");
    }
}

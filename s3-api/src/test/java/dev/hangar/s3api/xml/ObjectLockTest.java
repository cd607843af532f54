package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.assertRefused;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.xml.ObjectLockConfiguration.DefaultRetention;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class ObjectLockTest {
    private static final Instant UNTIL = Instant.parse("2027-03-01T12:30:15.250Z");

    private static String configurationWith(String rule) {
        return "<ObjectLockConfiguration" + NAMESPACE + "><ObjectLockEnabled>Enabled</ObjectLockEnabled>" + rule
                + "</ObjectLockConfiguration>";
    }

    private static String defaultRetention(String elements) {
        return configurationWith("<Rule><DefaultRetention>" + elements + "</DefaultRetention></Rule>");
    }

    static Stream<ObjectLockConfiguration> configurations() {
        return Stream.of(
                new ObjectLockConfiguration(null),
                new ObjectLockConfiguration(DefaultRetention.days(RetentionMode.GOVERNANCE, 1)),
                new ObjectLockConfiguration(DefaultRetention.years(RetentionMode.COMPLIANCE, 100)));
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void aConfigurationSurvivesTheRoundTrip(ObjectLockConfiguration configuration) {
        byte[] document = S3Xml.renderObjectLockConfiguration(configuration);

        assertThat(S3Xml.parseObjectLockConfiguration(body(document))).isEqualTo(configuration);
    }

    @Test
    void rendersObjectLockEnabledThenTheRule() {
        Element root = DomDocuments.s3Root(S3Xml.renderObjectLockConfiguration(
                new ObjectLockConfiguration(DefaultRetention.days(RetentionMode.GOVERNANCE, 30))), "ObjectLockConfiguration");

        assertThat(childNames(root)).containsExactly("ObjectLockEnabled", "Rule");
        assertThat(text(root, "ObjectLockEnabled")).isEqualTo("Enabled");
        Element retention = child(child(root, "Rule"), "DefaultRetention");
        assertThat(childNames(retention)).containsExactly("Mode", "Days");
        assertThat(text(retention, "Mode")).isEqualTo("GOVERNANCE");
        assertThat(text(retention, "Days")).isEqualTo("30");
        Element withoutRule = DomDocuments.s3Root(
                S3Xml.renderObjectLockConfiguration(new ObjectLockConfiguration(null)), "ObjectLockConfiguration");
        assertThat(childNames(withoutRule)).containsExactly("ObjectLockEnabled");
    }

    @Test
    void refusesAConfigurationS3Refuses() {
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body("<ObjectLockConfiguration/>")), "has no ObjectLockEnabled");
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body(
                        "<ObjectLockConfiguration><ObjectLockEnabled>Disabled</ObjectLockEnabled></ObjectLockConfiguration>")),
                "ObjectLockEnabled has to be Enabled");
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body(configurationWith("<Rule/>"))),
                "Rule has no DefaultRetention");
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body(defaultRetention(""))), "has no Mode");
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body(defaultRetention("<Mode>GOVERNANCE</Mode>"))),
                "exactly one of Days and Years");
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body(
                        defaultRetention("<Mode>COMPLIANCE</Mode><Days>1</Days><Years>1</Years>"))),
                "exactly one of Days and Years");
    }

    @ParameterizedTest
    @ValueSource(strings = {"governance", "BAD-VALUE", "abc"})
    void refusesAModeS3DoesNotHave(String mode) {
        assertMalformed(() -> S3Xml.parseObjectLockConfiguration(body(defaultRetention("<Mode>" + mode + "</Mode><Days>1</Days>"))),
                "Mode has to be one of GOVERNANCE or COMPLIANCE");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<Days>0</Days>", "<Days>-1</Days>", "<Years>0</Years>"})
    void refusesAPeriodThatIsNotPositive(String period) {
        assertRefused(() -> S3Xml.parseObjectLockConfiguration(body(defaultRetention("<Mode>GOVERNANCE</Mode>" + period))),
                S3Error.INVALID_RETENTION_PERIOD, "Default retention period must be a positive integer value.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<Days>36501</Days>", "<Years>101</Years>", "<Days>999999999</Days>"})
    void refusesAPeriodTooLong(String period) {
        assertRefused(() -> S3Xml.parseObjectLockConfiguration(body(defaultRetention("<Mode>GOVERNANCE</Mode>" + period))),
                S3Error.INVALID_RETENTION_PERIOD, "Default retention period too large.");
    }

    @Test
    void aRetentionSurvivesTheRoundTripInEitherForm() {
        var retention = new Retention(RetentionMode.COMPLIANCE, UNTIL);

        assertThat(S3Xml.parseRetention(body(S3Xml.renderRetention(retention)))).isEqualTo(retention);
        assertThat(S3Xml.parseRetention(body(S3Xml.renderRetention(Retention.none())))).isEqualTo(Retention.none());
    }

    @Test
    void rendersARetentionWithMillisecondsInUtc() {
        Element root = DomDocuments.s3Root(
                S3Xml.renderRetention(new Retention(RetentionMode.GOVERNANCE, UNTIL)), "Retention");

        assertThat(childNames(root)).containsExactly("Mode", "RetainUntilDate");
        assertThat(text(root, "RetainUntilDate")).isEqualTo("2027-03-01T12:30:15.250Z");
        assertThat(childNames(DomDocuments.s3Root(S3Xml.renderRetention(Retention.none()), "Retention"))).isEmpty();
    }

    @Test
    void readsARetentionDateAsBotocoreWritesIt() {
        Retention retention = S3Xml.parseRetention(body(
                "<Retention><Mode>GOVERNANCE</Mode><RetainUntilDate>2027-03-01T12:30:15Z</RetainUntilDate></Retention>"));

        assertThat(retention).isEqualTo(new Retention(RetentionMode.GOVERNANCE, Instant.parse("2027-03-01T12:30:15Z")));
    }

    @Test
    void refusesARetentionS3Refuses() {
        assertMalformed(() -> S3Xml.parseRetention(body("<Retention><Mode>GOVERNANCE</Mode></Retention>")),
                "both a Mode and a RetainUntilDate, or neither");
        assertMalformed(() -> S3Xml.parseRetention(body("<Retention><RetainUntilDate>2027-01-01T00:00:00Z</RetainUntilDate>"
                + "</Retention>")), "both a Mode and a RetainUntilDate, or neither");
        assertMalformed(() -> S3Xml.parseRetention(body("<Retention><Mode>LOCKED</Mode><RetainUntilDate>2027-01-01T00:00:00Z"
                + "</RetainUntilDate></Retention>")), "Mode has to be one of");
        assertMalformed(() -> S3Xml.parseRetention(body("<Retention><Mode>GOVERNANCE</Mode><RetainUntilDate>next week"
                + "</RetainUntilDate></Retention>")), "RetainUntilDate has to be an ISO 8601 timestamp");
        assertMalformed(() -> S3Xml.parseRetention(body("")), "empty");
    }

    @ParameterizedTest
    @EnumSource(LegalHold.Status.class)
    void aLegalHoldSurvivesTheRoundTrip(LegalHold.Status status) {
        byte[] document = S3Xml.renderLegalHold(new LegalHold(status));

        assertThat(childNames(DomDocuments.s3Root(document, "LegalHold"))).containsExactly("Status");
        assertThat(S3Xml.parseLegalHold(body(document))).isEqualTo(new LegalHold(status));
    }

    @Test
    void refusesALegalHoldS3Refuses() {
        assertMalformed(() -> S3Xml.parseLegalHold(body("<LegalHold><Status>on</Status></LegalHold>")),
                "Status has to be one of ON or OFF");
        assertMalformed(() -> S3Xml.parseLegalHold(body("<LegalHold/>")), "LegalHold has no Status");
    }

    @Test
    void theRecordsRefuseWhatS3WouldNot() {
        assertThatThrownBy(() -> new DefaultRetention(RetentionMode.GOVERNANCE, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DefaultRetention.days(RetentionMode.GOVERNANCE, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Retention(RetentionMode.GOVERNANCE, null)).isInstanceOf(IllegalArgumentException.class);
    }
}

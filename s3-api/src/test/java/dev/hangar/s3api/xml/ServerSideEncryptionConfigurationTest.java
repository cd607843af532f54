package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.assertRefused;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.xml.ServerSideEncryptionConfiguration.Algorithm;
import dev.hangar.s3api.xml.ServerSideEncryptionConfiguration.EncryptionType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class ServerSideEncryptionConfigurationTest {

    @Test
    void rendersOneRuleWithTheAlgorithmAndBucketKeyEnabledAsS3Does() {
        byte[] document = S3Xml.renderServerSideEncryptionConfiguration(ServerSideEncryptionConfiguration.aes256());

        Element root = DomDocuments.s3Root(document, "ServerSideEncryptionConfiguration");
        assertThat(childNames(root)).containsExactly("Rule");
        Element rule = child(root, "Rule");
        assertThat(childNames(rule)).containsExactly("ApplyServerSideEncryptionByDefault", "BucketKeyEnabled");
        Element byDefault = child(rule, "ApplyServerSideEncryptionByDefault");
        assertThat(childNames(byDefault)).containsExactly("SSEAlgorithm");
        assertThat(text(byDefault, "SSEAlgorithm")).isEqualTo("AES256");
        assertThat(text(rule, "BucketKeyEnabled")).isEqualTo("false");
    }

    @Test
    void survivesTheRoundTripWithEveryElement() {
        List<ServerSideEncryptionConfiguration> configurations = List.of(
                ServerSideEncryptionConfiguration.aes256(),
                new ServerSideEncryptionConfiguration(Algorithm.AWS_KMS, "arn:aws:kms:us-east-1:1:key/k", true,
                        List.of(EncryptionType.SSE_C)),
                new ServerSideEncryptionConfiguration(Algorithm.AWS_KMS_DSSE, null, false, List.of(EncryptionType.NONE)));
        for (ServerSideEncryptionConfiguration configuration : configurations) {
            byte[] document = S3Xml.renderServerSideEncryptionConfiguration(configuration);

            assertThat(S3Xml.parseServerSideEncryptionConfiguration(body(document))).isEqualTo(configuration);
        }
    }

    @Test
    void readsWhatTheAwsSdkSends() {
        ServerSideEncryptionConfiguration parsed = S3Xml.parseServerSideEncryptionConfiguration(body("""
                <ServerSideEncryptionConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
                  <Rule>
                    <ApplyServerSideEncryptionByDefault>
                      <SSEAlgorithm>aws:kms</SSEAlgorithm>
                      <KMSMasterKeyID>alias/photos</KMSMasterKeyID>
                    </ApplyServerSideEncryptionByDefault>
                    <BucketKeyEnabled>true</BucketKeyEnabled>
                    <BlockedEncryptionTypes><EncryptionType>SSE-C</EncryptionType></BlockedEncryptionTypes>
                  </Rule>
                </ServerSideEncryptionConfiguration>"""));

        assertThat(parsed).isEqualTo(new ServerSideEncryptionConfiguration(
                Algorithm.AWS_KMS, "alias/photos", true, List.of(EncryptionType.SSE_C)));
    }

    @Test
    void leavesOutWhatTheDocumentLeavesOut() {
        ServerSideEncryptionConfiguration parsed = S3Xml.parseServerSideEncryptionConfiguration(body(
                "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault>"
                        + "<SSEAlgorithm> AES256 </SSEAlgorithm></ApplyServerSideEncryptionByDefault>"
                        + "<Future>skipped</Future></Rule></ServerSideEncryptionConfiguration>"));

        assertThat(parsed).isEqualTo(ServerSideEncryptionConfiguration.aes256());
    }

    @Test
    void refusesAnythingButOneRuleWithAKnownAlgorithm() {
        String aes256 = "<ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm>"
                + "</ApplyServerSideEncryptionByDefault>";
        for (String document : List.of(
                "<ServerSideEncryptionConfiguration/>",
                "<ServerSideEncryptionConfiguration><Rule/></ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule>" + aes256 + "</Rule><Rule>" + aes256
                        + "</Rule></ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule>" + aes256 + aes256 + "</Rule></ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault/></Rule>"
                        + "</ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault>"
                        + "<SSEAlgorithm>aes256</SSEAlgorithm></ApplyServerSideEncryptionByDefault></Rule>"
                        + "</ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault>"
                        + "<SSEAlgorithm>SSE-KMS</SSEAlgorithm></ApplyServerSideEncryptionByDefault></Rule>"
                        + "</ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule>" + aes256 + "<BucketKeyEnabled>yes</BucketKeyEnabled>"
                        + "</Rule></ServerSideEncryptionConfiguration>",
                "<ServerSideEncryptionConfiguration><Rule>" + aes256 + "<BlockedEncryptionTypes>"
                        + "<EncryptionType>SSE-S3</EncryptionType></BlockedEncryptionTypes></Rule>"
                        + "</ServerSideEncryptionConfiguration>",
                "<OwnershipControls/>",
                "")) {
            assertMalformed(() -> S3Xml.parseServerSideEncryptionConfiguration(body(document)), "");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"arn:aws:kms:us-east-1:111122223333:key/k", ""})
    void refusesAKmsKeyWithAes256AsAnInvalidArgument(String keyId) {
        assertRefused(() -> S3Xml.parseServerSideEncryptionConfiguration(body(
                "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault>"
                        + "<SSEAlgorithm>AES256</SSEAlgorithm><KMSMasterKeyID>" + keyId + "</KMSMasterKeyID>"
                        + "</ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>")),
                S3Error.INVALID_ARGUMENT, "KMSMasterKeyID is not applicable");
    }
}

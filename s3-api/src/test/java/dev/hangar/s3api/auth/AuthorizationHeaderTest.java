package dev.hangar.s3api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AuthorizationHeaderTest {
    private static final String ALPHABET = "ab=/;, \t\n\u000B\f\r\u00A0\u2003x";

    @Test
    void splitsAsTheRegularExpressionItReplaces() {
        Random random = new Random(20261126);
        for (int trial = 0; trial < 20_000; trial++) {
            StringBuilder value = new StringBuilder();
            int length = random.nextInt(24);
            for (int i = 0; i < length; i++) {
                value.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            int from = value.isEmpty() ? 0 : random.nextInt(value.length() + 1);
            List<String> expected = Arrays.stream(value.substring(from).split("[\\s,]+"))
                    .filter(component -> !component.isEmpty()).toList();
            assertThat(AuthorizationHeader.components(value.toString(), from)).as("\"%s\" from %d", value, from)
                    .isEqualTo(expected);
        }
    }

    @Test
    void parsesTheComponentsWhateverTheSeparators() {
        AuthorizationHeader header = AuthorizationHeader.parse("AWS4-HMAC-SHA256 Credential=AKID/20261126/us-east-1/s3/"
                + "aws4_request,SignedHeaders=host;x-amz-date ,\t Signature=abc");
        assertThat(header.credential()).isEqualTo("AKID/20261126/us-east-1/s3/aws4_request");
        assertThat(header.signedHeaders()).containsExactly("host", "x-amz-date");
        assertThat(header.signature()).isEqualTo("abc");
    }
}

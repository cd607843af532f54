package dev.hangar.s3api.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PostSuccessTest {
    private static final String ETAG = "\"39d459dfbc0faabbb5e179358dfb94c3\"";

    private static Map<String, String> fields(String... namesAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int index = 0; index < namesAndValues.length; index += 2) {
            fields.put(namesAndValues[index], namesAndValues[index + 1]);
        }
        return fields;
    }

    @Test
    void answers204WhenTheFormAsksForNothing() {
        assertThat(PostSuccess.decide(fields("key", "k"))).isEqualTo(new PostSuccess(204, null));
    }

    @ParameterizedTest
    @CsvSource({"200, 200", "201, 201", "204, 204", "404, 204", "303, 204", "abc, 204", "'', 204", "' 201', 204"})
    void answersTheSuccessActionStatusAskedForOr204(String asked, int status) {
        assertThat(PostSuccess.decide(fields("success_action_status", asked)).status()).isEqualTo(status);
    }

    @Test
    void redirectsToTheSuccessActionRedirect() {
        PostSuccess success = PostSuccess.decide(fields("success_action_redirect", AwsPostExample.REDIRECT,
                "success_action_status", "201"));

        assertThat(success).isEqualTo(new PostSuccess(303, AwsPostExample.REDIRECT));
    }

    @Test
    void readsFieldNamesInAnyCase() {
        assertThat(PostSuccess.decide(fields("Success_Action_Redirect", "https://x.test/done")).redirectUrl())
                .isEqualTo("https://x.test/done");
        assertThat(PostSuccess.decide(fields("SUCCESS_ACTION_STATUS", "200")).status()).isEqualTo(200);
    }

    @Test
    void usesTheDeprecatedRedirectFieldWhenTheOtherIsAbsent() {
        assertThat(PostSuccess.decide(fields("redirect", "http://x.test/old")).redirectUrl())
                .isEqualTo("http://x.test/old");
        assertThat(PostSuccess.decide(fields("redirect", "http://x.test/old", "success_action_redirect",
                "http://x.test/new")).redirectUrl()).isEqualTo("http://x.test/new");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/wrong/redirect/relative", "successful_upload.html", "ftp://x.test/", "http://",
            "javascript:alert(1)", ""})
    void ignoresARedirectThatIsNotAnHttpUrl(String redirect) {
        assertThat(PostSuccess.decide(fields("success_action_redirect", redirect, "success_action_status", "201")))
                .isEqualTo(new PostSuccess(201, null));
    }

    @Test
    void fallsBackToTheDeprecatedFieldWhenTheRedirectCannotBeRead() {
        assertThat(PostSuccess.decide(fields("success_action_redirect", "/relative", "redirect", "http://x.test/"))
                .redirectUrl()).isEqualTo("http://x.test/");
    }

    @Test
    void appendsBucketKeyAndEtagFormEncodedToTheRedirect() {
        PostSuccess success = new PostSuccess(303, "http://awsexamplebucket1.s3.us-west-1.amazonaws.com/done.html");

        assertThat(success.redirectLocation("awsexamplebucket1", "user/eric/My Picture.jpg", ETAG)).isEqualTo(
                "http://awsexamplebucket1.s3.us-west-1.amazonaws.com/done.html?bucket=awsexamplebucket1"
                        + "&key=user%2Feric%2FMy+Picture.jpg&etag=%2239d459dfbc0faabbb5e179358dfb94c3%22");
    }

    @Test
    void keepsTheQueryTheRedirectAlreadyHas() {
        PostSuccess success = new PostSuccess(303, "https://x.test/upload_complete?md5=abc&remote=a b");

        assertThat(success.redirectLocation("b", "k", ETAG))
                .isEqualTo("https://x.test/upload_complete?md5=abc&remote=a b&bucket=b&key=k"
                        + "&etag=%2239d459dfbc0faabbb5e179358dfb94c3%22");
        assertThat(new PostSuccess(303, "https://x.test/done?").redirectLocation("b", "k", "\"e\""))
                .isEqualTo("https://x.test/done?bucket=b&key=k&etag=%22e%22");
    }

    @Test
    void keepsAFragmentAtTheEnd() {
        assertThat(new PostSuccess(303, "https://x.test/app#/uploads").redirectLocation("b", "k", "\"e\""))
                .isEqualTo("https://x.test/app?bucket=b&key=k&etag=%22e%22#/uploads");
    }

    @Test
    void encodesNonAsciiKeysAsUtf8() {
        assertThat(new PostSuccess(303, "https://x.test/").redirectLocation("b", "pr\u00e9sident & co.jpg", "\"e\""))
                .isEqualTo("https://x.test/?bucket=b&key=pr%C3%A9sident+%26+co.jpg&etag=%22e%22");
    }

    @Test
    void onlyARedirectHasARedirectLocation() {
        assertThatThrownBy(() -> new PostSuccess(204, null).redirectLocation("b", "k", ETAG))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRedirectUrlGoesWith303AndOnlyWithIt() {
        assertThatThrownBy(() -> new PostSuccess(303, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PostSuccess(201, "http://x.test/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PostSuccess(404, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "https://foobar.s3.amazonaws.com|pr\u00e9sident.jpg|https://foobar.s3.amazonaws.com/pr%C3%A9sident.jpg",
            "http://s3.amazonaws.com/happybucket2|prefix/111222|http://s3.amazonaws.com/happybucket2/prefix%2F111222",
            "http://localhost:9000/b/|uploads/{id}/a b.txt|http://localhost:9000/b/uploads%2F%7Bid%7D%2Fa%20b.txt",
            "https://b.s3.amazonaws.com|A-z_0.9~|https://b.s3.amazonaws.com/A-z_0.9~"})
    void locatesTheObjectWithItsKeyPercentEncodedSlashesIncluded(String bucketUrl, String key, String location) {
        assertThat(PostSuccess.objectLocation(bucketUrl, key)).isEqualTo(location);
    }

    @Test
    void writesThePostResponseDocumentInNoNamespace() {
        byte[] document = PostSuccess.responseDocument("https://foobar.s3.amazonaws.com/pr%C3%A9sident.jpg",
                "foobar", "pr\u00e9sident.jpg", "\"14dd4667441ada2b3914e5c1b72573b3\"");

        assertThat(new String(document, StandardCharsets.UTF_8)).isEqualTo(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><PostResponse>"
                        + "<Location>https://foobar.s3.amazonaws.com/pr%C3%A9sident.jpg</Location>"
                        + "<Bucket>foobar</Bucket><Key>pr\u00e9sident.jpg</Key>"
                        + "<ETag>\"14dd4667441ada2b3914e5c1b72573b3\"</ETag></PostResponse>");
    }

    @Test
    void escapesMarkupAndKeepsCarriageReturnsInTheDocument() {
        String document = new String(PostSuccess.responseDocument("l", "b", "a<b>&c\rd", "\"e\""),
                StandardCharsets.UTF_8);

        assertThat(document).contains("<Key>a&lt;b&gt;&amp;c&#13;d</Key>");
    }

    @Test
    void refusesTextAnXmlDocumentCannotCarry() {
        assertThatThrownBy(() -> PostSuccess.responseDocument("l", "b", "bad\u0001key", "\"e\""))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.hangar.s3api.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which bucket the Host of a website request names. */
class WebsiteHostTest {

    @ParameterizedTest(name = "{0} with domain {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "site.web.example.com|web.example.com|site",
            "Site.WEB.example.com:8080|web.example.com|site",
            "a.b.web.example.com|web.example.com|a.b",
            "site.web.example.com.|web.example.com|site",
            "www.example.org|web.example.com|www.example.org",
            "www.example.org:80|web.example.com|www.example.org",
            "web.example.com|web.example.com|web.example.com",
            "www.example.org|null|www.example.org",
            "site.web.example.com|null|site.web.example.com",
            "[::1]:9080|null|[::1]",
            "''|null|''",
    })
    void hostNamesTheBucket(String host, String domain, String bucket) {
        assertThat(WebsiteHandler.bucket(host, domain)).isEqualTo(bucket);
    }
}

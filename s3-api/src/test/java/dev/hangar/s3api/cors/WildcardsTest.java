package dev.hangar.s3api.cors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WildcardsTest {
    @ParameterizedTest
    @CsvSource({
            "'*',             '',                   true",
            "'*',             anything,             true",
            "'',              '',                   true",
            "'',              a,                    false",
            "abc,             abc,                  true",
            "abc,             abcd,                 false",
            "abc,             ABC,                  false",
            "'a*',            a,                    true",
            "'a*',            ba,                   false",
            "'*a',            a,                    true",
            "'*a',            ab,                   false",
            "'a*a',           a,                    false",
            "'a*a',           aa,                   true",
            "'a*a',           aba,                  true",
            "'http://*.x.com', http://a.b.x.com,    true",
            "'http://*.x.com', http://x.com,        false",
            "'a*b*c',         abc,                  true",
            "'a*b*c',         axxbyyc,              true",
            "'a*b*c',         acb,                  false",
            "'a*b*c',         abcbc,                true",
            "'*.*',           a.b,                  true",
            "'**',            '',                   true",
            "'x-amz-*',       x-amz-,               true",
    })
    void matchesWholeValuesWithStarsForAnyRun(String pattern, String value, boolean matches) {
        assertThat(Wildcards.matches(pattern, value)).isEqualTo(matches);
    }
}

package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PolicyPatternTest {

    @ParameterizedTest(name = "{0} ~ {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            s3:GetObject          | s3:GetObject          | true
            s3:Get*               | s3:GetObjectVersion   | true
            s3:Get*               | s3:PutObject          | false
            s3:*                  | s3:ListBucket         | true
            *                     | s3:ListBucket         | true
            s3:*Object            | s3:PutObject          | true
            s3:*Object            | s3:PutObjectAcl       | false
            s3:Get?bject          | s3:GetObject          | true
            s3:Get?bject          | s3:GetOObject         | false
            arn:aws:s3:::b/*      | arn:aws:s3:::b/a/b/c  | true
            arn:aws:s3:::b/*      | arn:aws:s3:::b        | false
            arn:aws:s3:::b/*      | arn:aws:s3:::b/       | true
            arn:aws:s3:::b/p/*    | arn:aws:s3:::b/p/x    | true
            arn:aws:s3:::b/p/*    | arn:aws:s3:::b/q/x    | false
            arn:aws:s3:::b/*.jpg  | arn:aws:s3:::b/x.jpg  | true
            arn:aws:s3:::b/*.jpg  | arn:aws:s3:::b/x.jpeg | false
            arn:aws:s3:::b/a*b*c  | arn:aws:s3:::b/abbbc  | true
            arn:aws:s3:::b/a*b*c  | arn:aws:s3:::b/acb    | false
            arn:aws:s3:::b/**     | arn:aws:s3:::b/x      | true
            arn:aws:s3:::b/?      | arn:aws:s3:::b/é      | true
            arn:aws:s3:::b/?      | arn:aws:s3:::b/😀     | true
            arn:aws:s3:::b/?      | arn:aws:s3:::b/ab     | false
            ''                    | ''                    | true
            ''                    | x                     | false
            """)
    void wildcardsMatchAnyRunAndOneCharacter(String pattern, String value, boolean expected) {
        assertThat(PolicyPattern.parse(pattern, true, false).matches(value, false)).isEqualTo(expected);
    }

    @Test
    void caseIsIgnoredOnlyWhenAsked() {
        PolicyPattern pattern = PolicyPattern.parse("s3:getobject", true, false);
        assertThat(pattern.matches("s3:GetObject", true)).isTrue();
        assertThat(pattern.matches("s3:GetObject", false)).isFalse();
    }

    @Test
    void withoutWildcardsStarAndQuestionMarkAreLiteral() {
        PolicyPattern pattern = PolicyPattern.parse("a*b?", false, false);
        assertThat(pattern.matches("a*b?", false)).isTrue();
        assertThat(pattern.matches("axxbc", false)).isFalse();
        assertThat(pattern.hasWildcards()).isFalse();
    }

    @Test
    void variablesAreReplacedByRequestValues() {
        PolicyPattern pattern = PolicyPattern.parse("arn:aws:s3:::b/home/${aws:username}/*", true, true);
        assertThat(pattern.matches("arn:aws:s3:::b/home/alice/x", false, Map.of("aws:username", "alice")::get))
                .isTrue();
        assertThat(pattern.matches("arn:aws:s3:::b/home/bob/x", false, Map.of("aws:username", "alice")::get))
                .isFalse();
    }

    @Test
    void anUnresolvedVariableMatchesNothing() {
        PolicyPattern pattern = PolicyPattern.parse("home/${aws:username}/*", true, true);
        assertThat(pattern.matches("home//x", false, key -> null)).isFalse();
        assertThat(pattern.matches("home/${aws:username}/x", false, key -> null)).isFalse();
    }

    @Test
    void aVariableValueIsLiteralEvenWithWildcardCharacters() {
        PolicyPattern pattern = PolicyPattern.parse("home/${aws:username}", true, true);
        assertThat(pattern.matches("home/a*", false, Map.of("aws:username", "a*")::get)).isTrue();
        assertThat(pattern.matches("home/abc", false, Map.of("aws:username", "a*")::get)).isFalse();
    }

    @Test
    void specialVariablesStandForLiteralCharacters() {
        PolicyPattern pattern = PolicyPattern.parse("a${*}b${?}c${$}", true, true);
        assertThat(pattern.matches("a*b?c$", false, key -> null)).isTrue();
        assertThat(pattern.matches("axbyc$", false, key -> null)).isFalse();
    }

    @Test
    void aVariableMayHaveAFallback() {
        PolicyPattern pattern = PolicyPattern.parse("home/${aws:username, 'nobody'}/*", true, true);
        assertThat(pattern.matches("home/nobody/x", false, key -> null)).isTrue();
        assertThat(pattern.matches("home/carol/x", false, Map.of("aws:username", "carol")::get)).isTrue();
    }

    @Test
    void withoutVariablesDollarBraceIsLiteral() {
        PolicyPattern pattern = PolicyPattern.parse("home/${aws:username}", true, false);
        assertThat(pattern.matches("home/${aws:username}", false, Map.of("aws:username", "alice")::get)).isTrue();
        assertThat(pattern.matches("home/alice", false, Map.of("aws:username", "alice")::get)).isFalse();
    }

    @Test
    void anUnclosedVariableIsLiteral() {
        PolicyPattern pattern = PolicyPattern.parse("home/${aws:username", true, true);
        assertThat(pattern.matches("home/${aws:username", false, key -> null)).isTrue();
    }

    @Test
    void longValuesWithManyStarsStayFast() {
        PolicyPattern pattern = PolicyPattern.parse("*a*a*a*a*a*a*a*a*b", true, false);
        String value = "a".repeat(10_000);
        assertThat(pattern.matches(value, false)).isFalse();
    }
}

package dev.hangar.s3api.post;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PostFieldsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "user/user1/${filename}|photo.jpg|user/user1/photo.jpg",
            "/user/mary/${filename}|example.jpg|/user/mary/example.jpg",
            "${filename}|foo.txt|foo.txt",
            "uploads/${filename}|C:\\Program Files\\directory1\\file.txt|uploads/file.txt",
            "uploads/${filename}|/home/mary/docs/file.txt|uploads/file.txt",
            "uploads/${filename}|dir\\sub/mixed.txt|uploads/mixed.txt",
            "${filename}/${filename}|a.txt|a.txt/a.txt",
            "fixed/key.txt|photo.jpg|fixed/key.txt",
            "key-${filename}|my-file|key-my-file",
            "keep ${FILENAME} and ${file}|x|keep ${FILENAME} and ${file}",
            "uploads/${filename}|pr\u00e9sident.jpg|uploads/pr\u00e9sident.jpg"})
    void replacesTheVariableWithTheFilesNameWithoutItsPath(String key, String filename, String expected) {
        assertThat(PostFields.resolveKey(key, filename)).isEqualTo(expected);
    }

    @Test
    void anEmptyFileNameReplacesTheVariableWithNothing() {
        assertThat(PostFields.resolveKey("uploads/${filename}", "")).isEqualTo("uploads/");
        assertThat(PostFields.resolveKey("uploads/${filename}", "C:\\dir\\")).isEqualTo("uploads/");
    }

    @Test
    void aFilePartWithoutAFileNameLeavesTheVariableAsItIs() {
        assertThat(PostFields.resolveKey("file-as-field-${filename}", null)).isEqualTo("file-as-field-${filename}");
    }

    @Test
    void expandsTheVariableInEveryFieldAndLowerCasesTheNames() {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("Key", "user/${filename}");
        form.put("X-Amz-Meta-Original", "${filename}");
        form.put("acl", "private");

        assertThat(PostFields.resolveFilename(form, "C:\\photos\\cat.png")).containsExactly(
                Map.entry("key", "user/cat.png"),
                Map.entry("x-amz-meta-original", "cat.png"),
                Map.entry("acl", "private"));
    }

    @Test
    void refusesFieldNamesThatDifferOnlyInCase() {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("key", "a");
        form.put("KEY", "b");

        assertThatThrownBy(() -> PostFields.resolveFilename(form, "f")).isInstanceOf(IllegalArgumentException.class);
    }
}

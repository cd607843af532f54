package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictArgumentsTest {
    private static final Map<String, Class<?>> PERMIT = parameters();

    @Test
    void wellFormedArgumentsPass() {
        assertThat(StrictArguments.problem(arguments("id", "HK1", "bucket", "photos", "read", "true", "write", "false",
                "capacity", "-12"), PERMIT)).isNull();
        Map<String, Object> absent = new HashMap<>();
        absent.put("read", null);
        assertThat(StrictArguments.problem(absent, PERMIT)).isNull();
        assertThat(StrictArguments.problem(Map.of(), PERMIT)).isNull();
    }

    @Test
    void anUnknownFieldIsNamed() {
        assertThat(StrictArguments.problem(arguments("bucket", "photos", "reed", "true"), PERMIT))
                .startsWith("unknown field reed").contains("bucket", "read");
    }

    @Test
    void flagsAreTrueOrFalseOnly() {
        for (String flag : List.of("yes", "on", "1", "TRUE", "True", "", "false ")) {
            assertThat(StrictArguments.problem(arguments("read", flag), PERMIT)).as(flag)
                    .isEqualTo("read must be true or false: " + flag);
        }
    }

    @Test
    void numbersAreWholeNumbers() {
        for (String number : List.of("lots", "1.5", "1e3", "", "12345678901234567890")) {
            assertThat(StrictArguments.problem(arguments("capacity", number), PERMIT)).as(number)
                    .startsWith("capacity must be a whole number");
        }
    }

    @Test
    void aRepeatedQueryParameterIsRefused() {
        assertThat(StrictArguments.problem(Map.of("bucket", List.of("a", "b")), PERMIT))
                .isEqualTo("bucket must be given once, as a single value");
    }

    private static Map<String, Class<?>> parameters() {
        Map<String, Class<?>> parameters = new LinkedHashMap<>();
        parameters.put("id", String.class);
        parameters.put("bucket", String.class);
        parameters.put("read", Boolean.class);
        parameters.put("write", boolean.class);
        parameters.put("capacity", Long.class);
        return parameters;
    }

    private static Map<String, Object> arguments(String... namesAndValues) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            arguments.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return arguments;
    }
}

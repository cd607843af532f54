package dev.hangar.cluster.meta;

import java.lang.reflect.Method;
import java.util.Map;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Disables the contract tests a test class lists, each with the documented difference that is the
 * reason: the contract's test methods are package-private in another package, so they cannot be
 * overridden with {@code @Disabled}.
 */
final class DesignDifferences implements ExecutionCondition {
    /** A test class that lists contract tests its store fails by design, with the reason. */
    interface Listed {
        Map<String, String> designDifferences();
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Map<String, String> listed = context.getTestInstance()
                .filter(Listed.class::isInstance)
                .map(instance -> ((Listed) instance).designDifferences())
                .orElse(Map.of());
        String reason = context.getTestMethod().map(Method::getName).map(listed::get).orElse(null);
        return reason == null
                ? ConditionEvaluationResult.enabled("no design difference")
                : ConditionEvaluationResult.disabled("by design: " + reason);
    }
}

package dev.hangar.distribution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * Refuses, with 400 and a message, the arguments of an administration change that Actuator would otherwise
 * ignore or coerce: a field the operation does not take (a misspelt {@code "reed": true} would grant nothing
 * and still answer 200), a flag that is not {@code true} or {@code false} (Spring's conversion reads
 * {@code "yes"}, {@code "on"} and {@code "1"} as true), a number that is not a whole number.
 *
 * <p>Actuator reads a JSON body into a map of strings (JSON {@code true} arrives as {@code "true"}) and adds the
 * path selectors and query parameters; this advisor sees that map before the operation's parameters are
 * converted. It applies to the administration endpoints' write and delete operations only.
 */
final class StrictArguments implements OperationInvokerAdvisor {
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?\\d{1,18}");

    private final Set<EndpointId> endpoints;

    StrictArguments(Set<EndpointId> endpoints) {
        this.endpoints = Set.copyOf(endpoints);
    }

    @Override
    public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
            OperationInvoker invoker) {
        if (!endpoints.contains(endpointId) || operationType == OperationType.READ) {
            return invoker;
        }
        Map<String, Class<?>> types = new LinkedHashMap<>();
        for (OperationParameter parameter : parameters) {
            types.put(parameter.getName(), parameter.getType());
        }
        return context -> {
            String problem = problem(context.getArguments(), types);
            if (problem != null) {
                return new WebEndpointResponse<>(Map.of("error", problem), WebEndpointResponse.STATUS_BAD_REQUEST);
            }
            return invoker.invoke(context);
        };
    }

    /**
     * What is wrong with these arguments for an operation taking these parameters, or null if nothing is.
     *
     * @param arguments the body's fields, path selectors and query parameters, as Actuator collected them
     * @param parameters the operation's parameters by name, with their types
     */
    static @Nullable String problem(Map<String, @Nullable Object> arguments, Map<String, Class<?>> parameters) {
        for (Map.Entry<String, @Nullable Object> argument : arguments.entrySet()) {
            String name = argument.getKey();
            Class<?> type = parameters.get(name);
            if (type == null) {
                return "unknown field " + name + ": this operation takes " + String.join(", ", parameters.keySet());
            }
            Object value = argument.getValue();
            if (value == null) {
                continue;
            }
            if (!(value instanceof String text)) {
                // Repeated query parameters arrive as a list.
                return name + " must be given once, as a single value";
            }
            if ((type == Boolean.class || type == boolean.class) && !text.equals("true") && !text.equals("false")) {
                return name + " must be true or false: " + text;
            }
            if (List.of(Long.class, long.class, Integer.class, int.class).contains(type)
                    && !WHOLE_NUMBER.matcher(text).matches()) {
                return name + " must be a whole number: " + text;
            }
        }
        return null;
    }
}

package dev.hangar.junit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Runs Hangar inside the test's JVM (no container, no child process) and hands the tests a ready client.
 *
 * <pre>{@code
 * @ExtendWith(HangarExtension.class)           // one server for the class
 * class UploadTest {
 *     @Test
 *     void uploads(S3Client s3) { ... }
 * }
 *
 * class ServicePerTestTest {
 *     @RegisterExtension                        // a fresh, in-memory server for each test
 *     static HangarExtension hangar = HangarExtension.perMethod(HangarOptions.defaults().withInMemory(true));
 *
 *     @HangarInject S3Client s3;
 *     ...
 * }
 * }</pre>
 *
 * <p>Test methods and constructors may take a {@link HangarServer}, an {@code S3Client}, an {@code
 * S3AsyncClient} or the endpoint as a {@code URI}; fields annotated {@link HangarInject} get one too. Clients
 * are path-style, sign with the server's root key and are closed with the server. A per-class server (the
 * default, and what {@code @ExtendWith} gives) starts before the class's first test and stops after its last; a per-method one
 * starts before each test and stops after it. Registered on an instance field, the extension sees no class
 * callbacks and starts a server per test whatever it was asked.
 */
public final class HangarExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(HangarExtension.class);
    private static final Set<Class<?>> INJECTED = Set.of(HangarServer.class, S3Client.class, S3AsyncClient.class, URI.class);

    /** When a server starts and stops. */
    public enum Lifecycle {
        PER_CLASS,
        PER_METHOD
    }

    private final Lifecycle lifecycle;
    private final HangarOptions options;

    /** One server per test class, with the default options; what {@code @ExtendWith(HangarExtension.class)} makes. */
    public HangarExtension() {
        this(Lifecycle.PER_CLASS, HangarOptions.defaults());
    }

    public HangarExtension(Lifecycle lifecycle, HangarOptions options) {
        this.lifecycle = lifecycle;
        this.options = options;
    }

    public static HangarExtension perClass(HangarOptions options) {
        return new HangarExtension(Lifecycle.PER_CLASS, options);
    }

    public static HangarExtension perMethod(HangarOptions options) {
        return new HangarExtension(Lifecycle.PER_METHOD, options);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        if (lifecycle == Lifecycle.PER_CLASS) {
            HangarServer server = start(context);
            inject(context.getRequiredTestClass(), null, server);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IllegalAccessException {
        HangarServer server = find(context);
        if (server == null) {
            server = start(context);
        }
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            inject(instance.getClass(), instance, server);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return INJECTED.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        HangarServer server = find(context);
        if (server == null) {
            // A constructor parameter of a per-method server's test class: the method's server starts here.
            server = start(context);
        }
        return value(parameter.getParameter().getType(), server);
    }

    private HangarServer start(ExtensionContext context) {
        HangarServer server = HangarServer.start(options);
        // Stored values that are AutoCloseable are closed when their context ends: after the class, or the method.
        context.getStore(NAMESPACE).put(HangarServer.class, server);
        return server;
    }

    /** The server of this context or of an enclosing one (a method's class, a nested class's outer class). */
    private static @Nullable HangarServer find(ExtensionContext context) {
        return context.getStore(NAMESPACE).get(HangarServer.class, HangarServer.class);
    }

    private static void inject(Class<?> type, @Nullable Object instance, HangarServer server) throws IllegalAccessException {
        for (Class<?> declaring = type; declaring != null && declaring != Object.class; declaring = declaring.getSuperclass()) {
            for (Field field : declaring.getDeclaredFields()) {
                if (!field.isAnnotationPresent(HangarInject.class) || Modifier.isStatic(field.getModifiers()) != (instance == null)) {
                    continue;
                }
                if (!INJECTED.contains(field.getType())) {
                    throw new ExtensionConfigurationException("@HangarInject field " + field + " must be a HangarServer, "
                            + "S3Client, S3AsyncClient or URI");
                }
                if (Modifier.isFinal(field.getModifiers())) {
                    throw new ExtensionConfigurationException("@HangarInject field " + field + " must not be final");
                }
                field.setAccessible(true);
                field.set(instance, value(field.getType(), server));
            }
        }
    }

    private static Object value(Class<?> type, HangarServer server) {
        if (type == HangarServer.class) {
            return server;
        }
        if (type == S3Client.class) {
            return server.newClient();
        }
        if (type == S3AsyncClient.class) {
            return server.newAsyncClient();
        }
        return server.endpoint();
    }
}

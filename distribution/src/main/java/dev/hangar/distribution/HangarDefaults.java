package dev.hangar.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * Hangar's defaults ({@code dev/hangar/distribution/hangar.yml}) as the last source of settings of a Hangar
 * application: an operator's application.yml, the environment ({@code HANGAR_*}) and arguments all override them.
 *
 * <p>Not an {@code application.yml} of the jar: the application's classes also serve as a library (hangar-junit
 * runs Hangar inside a project's tests), and an application.yml on that class path would configure the
 * project's own Spring Boot application too. This post-processor is listed in {@code META-INF/spring.factories},
 * so it sees every application on the class path, and adds the defaults only to one built from
 * {@link HangarApplication}. It runs before the logging system starts, so the defaults' log levels apply.
 */
final class HangarDefaults implements EnvironmentPostProcessor {
    static final String RESOURCE = "dev/hangar/distribution/hangar.yml";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!application.getAllSources().contains(HangarApplication.class)) {
            return;
        }
        try {
            List<PropertySource<?>> defaults = new YamlPropertySourceLoader().load("hangar-defaults",
                    new ClassPathResource(RESOURCE, HangarDefaults.class.getClassLoader()));
            defaults.forEach(environment.getPropertySources()::addLast);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read Hangar's defaults from " + RESOURCE, e);
        }
    }
}

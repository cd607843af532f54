package dev.hangar.distribution;

import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.web.ListenerLimits;
import dev.hangar.s3api.web.S3Api;
import java.util.List;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Beans of the management port's own application context, the child context Spring Boot starts for
 * {@code management.server.port}: listed for it in
 * {@code META-INF/spring/org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration.imports}.
 *
 * <p>Neither {@code @Configuration} nor {@code @ManagementContextConfiguration} (which is a
 * {@code @Configuration}): component scanning of {@link HangarApplication}'s package would then put it in the
 * main context as well. Without the annotation Spring Boot imports it into the child context only. The listing
 * reaches every application with the classes on its class path (a project's tests, through hangar-junit): only
 * beneath Hangar's own context, which has {@link HangarProperties}, does it add anything.
 */
@ConditionalOnBean(HangarProperties.class)
class ManagementPortConfiguration {
    /** Where the management port serves the S3 API as the root key ({@link #administrationS3}). */
    static final String ADMIN_S3_PATH = "/admin/s3";

    @Bean
    AdministrationFilter administrationFilter(AdminToken token, AllowedHosts hosts, HangarProperties properties,
            PathMappedEndpoints endpoints) {
        // Endpoints that are not exposed have no path, and nothing to open.
        List<String> open = properties.admin().openEndpoints().stream()
                .map(id -> endpoints.getPath(EndpointId.of(id.strip())))
                .filter(Objects::nonNull)
                .toList();
        return new AdministrationFilter(token, hosts,
                List.of(endpoints.getBasePath(), Console.S3_API_PATH, ADMIN_S3_PATH), open);
    }

    /**
     * The S3 API as the root key, path style, behind the administration token: what {@code hangar admin buckets}
     * uses, whether the console is on or not. The token already lets its holder make keys of any power, so
     * this gives nothing the token did not.
     */
    @Bean
    RouterFunction<ServerResponse> administrationS3(S3Api api, AccessKey root) {
        return api.delegatedRoutes(ADMIN_S3_PATH, () -> root);
    }

    /** The web console ({@link Console}), unless {@code hangar.admin.console} is false. */
    @Bean
    RouterFunction<ServerResponse> console(HangarProperties properties, S3Api api, AccessKey root) {
        // Turned off, a router that matches nothing: the console's paths then answer 404 like any other.
        return properties.admin().console() ? Console.routes(api, root) : request -> Mono.empty();
    }

    @Bean
    ManagementConcurrencyLimit managementConcurrencyLimit(HangarProperties properties) {
        return new ManagementConcurrencyLimit(properties.http().managementMaxConcurrentRequests());
    }

    /**
     * The management listener's timeouts and connection limits ({@code hangar.http.*}) and interim responses
     * without {@code Connection} ({@link InterimResponses}): its web server is the child context's own and does
     * not take the S3 listener's customizers (an idle connection to it was never closed), nor plain
     * {@code NettyServerCustomizer} beans of this context, so they are added to its factory here.
     */
    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> managementListener(HangarProperties properties) {
        ListenerLimits limits = properties.http().limits();
        return factory -> factory.addServerCustomizers(InterimResponses.INSTANCE, limits::applyTo);
    }
}

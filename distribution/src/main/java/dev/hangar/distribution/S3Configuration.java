package dev.hangar.distribution;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.semantics.S3Settings;
import dev.hangar.s3api.web.S3Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.server.WebFilter;

/** The S3 endpoint: one catch-all route on the main port, with its metrics filter. */
@Configuration(proxyBeanMethods = false)
class S3Configuration {

    /** Interim responses without {@code Connection}: see {@link InterimResponses}. */
    @Bean
    NettyServerCustomizer interimResponses() {
        return InterimResponses.INSTANCE;
    }

    /**
     * On the S3 listener only (a factory customizer applies to its own context's server, not to the management
     * port's): targets Spring cannot parse get S3's InvalidURI.
     */
    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> s3RequestTargets(ObjectProvider<S3Api> api) {
        return factory -> factory.addServerCustomizers(S3Api.requestTargetCheck(api::getObject)::apply);
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    AccessKey rootAccessKey(HangarProperties properties, ClusterNode node, Clock clock) {
        return RootCredentials.resolve(properties, node.metadata(), node.control().isPresent(), clock);
    }

    @Bean(destroyMethod = "close")
    S3Api s3Api(HangarProperties properties, ClusterNode node, AccessKey root, MeterRegistry registry, Clock clock) {
        HangarProperties.Storage storage = properties.storage();
        S3Settings settings = new S3Settings(properties.s3().region(),
                Math.toIntExact(storage.inlineThreshold().toBytes()), Math.toIntExact(storage.chunkSize().toBytes()),
                properties.s3().signatureV2());
        return new S3Api(node, settings, accessKeyId -> accessKey(accessKeyId, root, node), properties.s3().domain(),
                registry, clock, properties.lifecycle().interval());
    }

    @Bean
    RouterFunction<ServerResponse> s3Routes(S3Api api) {
        return api.routes();
    }

    @Bean
    WebFilter s3MetricsFilter(S3Api api) {
        return api.metricsFilter();
    }

    /** Exceptions that escape the S3 handler: S3's XML error, not Spring Boot's JSON one. */
    @Bean
    WebExceptionHandler s3ExceptionHandler(S3Api api) {
        return api.exceptionHandler();
    }

    /** CORS preflights go to the S3 routes, which answer them from the bucket's rules, not to Spring's CORS support. */
    @Bean
    WebFilter s3PreflightFilter(S3Api api) {
        return api.preflightFilter();
    }

    private static Optional<AccessKey> accessKey(String accessKeyId, AccessKey root, ClusterNode node) {
        if (root.accessKeyId().equals(accessKeyId)) {
            return Optional.of(root);
        }
        return node.metadata().getAccessKey(accessKeyId);
    }
}

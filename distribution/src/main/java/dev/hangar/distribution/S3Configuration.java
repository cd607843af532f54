package dev.hangar.distribution;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.semantics.S3Settings;
import dev.hangar.s3api.web.ListenerLimits;
import dev.hangar.s3api.web.S3Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunctions;

/** The S3 endpoint: one catch-all route on the main port, with its metrics filter; nothing else on that port. */
@Configuration(proxyBeanMethods = false)
class S3Configuration {

    /** Interim responses without {@code Connection}: see {@link InterimResponses}. */
    @Bean
    NettyServerCustomizer interimResponses() {
        return InterimResponses.INSTANCE;
    }

    /** Timeouts and connection limits of {@code hangar.http.*} on the S3 listener (the management one: {@link ManagementPortConfiguration}). */
    @Bean
    NettyServerCustomizer listenerLimits(HangarProperties properties) {
        ListenerLimits limits = properties.http().limits();
        return limits::applyTo;
    }

    /**
     * On the S3 listener only (a factory customizer applies to its own context's server, not to the management
     * port's): targets Spring cannot parse get S3's InvalidURI.
     */
    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> s3RequestTargets(ObjectProvider<S3Api> api) {
        return factory -> factory.addServerCustomizers(S3Api.requestTargetCheck(api::getObject)::apply);
    }

    /**
     * TLS on the S3 port when {@code hangar.s3.tls.*} are set ({@link S3ListenerTls}). A factory customizer of this
     * context reaches the S3 listener only, and runs after Spring Boot's own (order 0), which applies
     * {@code server.ssl.*}.
     */
    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> s3Tls(HangarProperties properties,
            ServerProperties server) {
        return factory -> {
            Ssl ssl = S3ListenerTls.of(properties.s3().tls(), server.getSsl());
            if (ssl != null) {
                factory.setSsl(ssl);
            }
        };
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    AccessKey rootAccessKey(HangarProperties properties, ClusterNode node, Clock clock, SecretSeal seal) {
        return RootCredentials.resolve(properties, node.metadata(), node.control().isPresent(), clock, seal);
    }

    @Bean(destroyMethod = "close")
    S3Api s3Api(HangarProperties properties, ClusterNode node, AccessKey root, MeterRegistry registry, Clock clock,
            SecretSeal seal) {
        HangarProperties.Storage storage = properties.storage();
        S3Settings settings = new S3Settings(properties.s3().region(),
                Math.toIntExact(storage.inlineThreshold().toBytes()), Math.toIntExact(storage.chunkSize().toBytes()),
                properties.s3().signatureV2(), properties.s3().customerKeysOverHttp(), MasterKeyFiles.load(properties));
        return new S3Api(node, settings, accessKeyId -> accessKey(accessKeyId, root, node, seal),
                properties.s3().domain(),
                registry, clock, properties.lifecycle().interval(), properties.http().limits());
    }

    /**
     * The S3 port's handler: the S3 route behind its metrics filter, its concurrency limit ({@code 503 SlowDown}
     * beyond {@code hangar.http.max-concurrent-requests}) and its preflight filter (CORS preflights
     * go to the S3 route, which answers them from the bucket's rules, not to Spring's CORS support).
     *
     * <p>Built here rather than from RouterFunction and WebFilter beans, which Spring Boot would assemble
     * itself: Spring collects such beans from parent contexts too, so the management port's child context
     * served the whole S3 API as well, and timed every Actuator request as an S3 one. As the S3 port's own
     * handler they reach no other port, and this port serves S3 only.
     */
    @Bean
    HttpHandler httpHandler(S3Api api) {
        return RouterFunctions.toHttpHandler(api.routes(), HandlerStrategies.builder()
                .webFilter(api.metricsFilter())
                .webFilter(api.concurrencyFilter())
                .webFilter(api.preflightFilter())
                // Exceptions that escape the S3 handler: S3's XML error, not Spring Boot's JSON one.
                .exceptionHandler(api.exceptionHandler())
                .build());
    }

    /**
     * Access key secrets are stored sealed ({@link SecretSeal}): with the cluster secret's key on a cluster node,
     * with the node's {@code master.key} on a single node. Secrets stored in plain text by an earlier version are
     * sealed in place: at once on a single node, and on a cluster node as soon as the cluster answers.
     */
    @Bean
    SecretSeal secretSeal(HangarProperties properties, ClusterNode node) {
        if (node.control().isEmpty()) {
            SecretSeal seal = SecretSeal.fromMasterKey(properties.dataDir());
            seal.sealStored(node.metadata());
            return seal;
        }
        SecretSeal seal = SecretSeal.fromClusterSecret(StorageConfiguration.secret(properties.cluster()));
        Thread.ofVirtual().name("hangar-seal-secrets").start(() -> sealWhenTheClusterAnswers(seal, node));
        return seal;
    }

    private static void sealWhenTheClusterAnswers(SecretSeal seal, ClusterNode node) {
        for (int attempt = 0; attempt < 120; attempt++) {
            try {
                seal.sealStored(node.metadata());
                return;
            } catch (RuntimeException notYet) {
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private static Optional<AccessKey> accessKey(String accessKeyId, AccessKey root, ClusterNode node,
            SecretSeal seal) {
        if (root.accessKeyId().equals(accessKeyId)) {
            return Optional.of(root);
        }
        return node.metadata().getAccessKey(accessKeyId).map(seal::opened);
    }
}

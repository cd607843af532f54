package dev.hangar.s3api.web;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Hands CORS preflights straight to a handler function. WebFlux never lets a handler function see
 * one: the handler mapping answers it from Spring's own CORS configuration (an empty 200, Hangar has
 * none) and a router function's web handler refuses it (an empty 403), so the S3 handler could never
 * answer it from the bucket's CORS rules. Runs last among the filters, inside the metrics filter, so
 * preflights are timed like every other request.
 */
final class PreflightFilter implements WebFilter, Ordered {
    private final HandlerFunction<ServerResponse> handler;
    private final HandlerStrategies strategies = HandlerStrategies.withDefaults();
    private final ServerResponse.Context context = new ServerResponse.Context() {
        @Override
        public List<HttpMessageWriter<?>> messageWriters() {
            return strategies.messageWriters();
        }

        @Override
        public List<ViewResolver> viewResolvers() {
            return strategies.viewResolvers();
        }
    };

    PreflightFilter(HandlerFunction<ServerResponse> handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!CorsUtils.isPreFlightRequest(exchange.getRequest())) {
            return chain.filter(exchange);
        }
        ServerRequest request = ServerRequest.create(exchange, strategies.messageReaders());
        return handler.handle(request).flatMap(response -> response.writeTo(exchange, context));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}

package dev.hangar.s3api.web;

import dev.hangar.s3api.semantics.S3Service;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** The static website listener: anonymous GET and HEAD, the bucket named by the Host. */
final class WebsiteHandler implements HandlerFunction<ServerResponse> {
    private final S3Service service;

    WebsiteHandler(S3Service service) {
        this.service = service;
    }

    @Override
    public Mono<ServerResponse> handle(ServerRequest request) {
        return ServerResponse.status(HttpStatus.NOT_IMPLEMENTED).build();
    }
}

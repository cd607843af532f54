package dev.hangar.distribution.support;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Sends each request to the next node of a cluster, in turn, as a client that spreads its load over
 * every node would: the S3 ports of the nodes, one after the other.
 *
 * <p>As an AWS SDK {@link ExecutionInterceptor}, it points each request at the next node's port
 * before the SDK resolves the request's endpoint, by changing the client endpoint that this one
 * execution resolves from ({@link SdkExecutionAttribute#CLIENT_ENDPOINT}). Moving the HTTP request
 * in {@code modifyHttpRequest} instead is too early in this SDK: its endpoint resolution runs after
 * that hook and rebuilds the URI from the client endpoint, which drops a virtual-host bucket name
 * once the port no longer matches. Signing comes after resolution either way, so the {@code Host}
 * header that SigV4 signs names the node that receives the request. Only requests to one of the
 * nodes' ports move; any other port (a management endpoint) is left alone.
 *
 * <p>The raw HTTP helpers take {@link #nextPort()} for each request they build.
 */
public final class RoundRobinNodes implements ExecutionInterceptor {
    private final List<Integer> ports;
    private final AtomicInteger next = new AtomicInteger();

    /** The S3 ports of the nodes, in the order they take turns. */
    public RoundRobinNodes(List<Integer> ports) {
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("no node to send requests to");
        }
        this.ports = List.copyOf(ports);
    }

    /** The S3 port of the node whose turn it is. */
    public int nextPort() {
        return ports.get(Math.floorMod(next.getAndIncrement(), ports.size()));
    }

    @Override
    @SuppressWarnings("deprecation") // CLIENT_ENDPOINT: the one per-execution endpoint this SDK resolves from (see above).
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes executionAttributes) {
        URI client = executionAttributes.getAttribute(SdkExecutionAttribute.CLIENT_ENDPOINT);
        if (client == null || !ports.contains(client.getPort())) {
            return;
        }
        executionAttributes.putAttribute(SdkExecutionAttribute.CLIENT_ENDPOINT, withPort(client, nextPort()));
    }

    private static URI withPort(URI uri, int port) {
        try {
            return new URI(uri.getScheme(), uri.getUserInfo(), uri.getHost(), port, uri.getPath(), uri.getQuery(),
                    uri.getFragment());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(uri.toString(), e);
        }
    }
}

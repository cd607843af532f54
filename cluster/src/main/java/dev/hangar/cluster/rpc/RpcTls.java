package dev.hangar.cluster.rpc;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * TLS on the RPC port, with certificates from PEM files: both ends present {@code certificate} and
 * accept only peers whose certificate chains to one of {@code trustCertificates} (a CA, or the
 * nodes' own certificates), so a connection is mutually authenticated before the {@link Handshake}
 * even starts. Host names are not checked against the certificates: node addresses come from
 * gossip and may be IP addresses, and which node answers is what the handshake inside proves.
 *
 * @param certificate this node's certificate chain (PEM), presented as server and as client
 * @param privateKey the certificate's private key (PEM, unencrypted PKCS#8: {@code BEGIN PRIVATE KEY})
 * @param trustCertificates the certificates (PEM) that peers' certificates must chain to
 */
public record RpcTls(Path certificate, Path privateKey, Path trustCertificates) {
    /** TLS 1.3 only: every JDK this project runs on has it, and it leaves no weak suites to configure. */
    private static final String[] PROTOCOLS = {"TLSv1.3"};

    public RpcTls {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(trustCertificates, "trustCertificates");
    }

    /** The server side: presents the certificate and requires one from every client. */
    SslContext serverContext() {
        requireReadable();
        try {
            return SslContextBuilder.forServer(certificate.toFile(), privateKey.toFile())
                    .trustManager(trustCertificates.toFile())
                    .clientAuth(ClientAuth.REQUIRE)
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot use the cluster TLS certificate " + certificate + " with key "
                    + privateKey + " and trust certificates " + trustCertificates + ": " + e.getMessage(), e);
        }
    }

    /** The client side: presents the certificate and checks the server's against the trust certificates. */
    SslContext clientContext() {
        requireReadable();
        try {
            return SslContextBuilder.forClient()
                    .keyManager(certificate.toFile(), privateKey.toFile())
                    .trustManager(trustCertificates.toFile())
                    // Netty checks host names by default; see the class comment for why not here.
                    .endpointIdentificationAlgorithm(null)
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot use the cluster TLS certificate " + certificate + " with key "
                    + privateKey + " and trust certificates " + trustCertificates + ": " + e.getMessage(), e);
        }
    }

    private void requireReadable() {
        for (Path file : new Path[] {certificate, privateKey, trustCertificates}) {
            if (!Files.isReadable(file)) {
                throw new IllegalStateException("cluster TLS file " + file + " does not exist or cannot be read");
            }
        }
    }
}

package dev.hangar.cluster.raft;

import dev.hangar.cluster.rpc.ClusterSecret;
import java.math.BigInteger;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslProvider;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.jspecify.annotations.Nullable;

/**
 * Mutual TLS on the Raft mode's gRPC channels (server to server, client to server, admin), with
 * certificates bound to the cluster secret, so that only a holder of the secret can join a Raft
 * group, append, vote or send a request: Ratis' gRPC transport has no hook for the RPC's
 * {@linkplain dev.hangar.cluster.rpc.Handshake handshake}, but it takes a key manager and a trust
 * manager.
 *
 * <p>Each node, when it starts, makes a fresh EC P-256 key pair and a self-signed certificate for it
 * (nothing is written to disk; a restart makes new ones). The certificate's subject is
 * {@code CN=<tag>, O=Hangar Raft}, where the tag is the HMAC-SHA256, under
 * {@code secret.deriveKey("raft-tls")}, of the certificate's public key encoded as an X.509
 * SubjectPublicKeyInfo (DER), written as 64 lower-case hex digits. Both ends of every connection
 * present their certificate and accept the other's only as {@link SecretBoundTrustManager} says:
 * one self-signed certificate, within its validity, whose tag matches its key. TLS proves the peer
 * holds the private key of what it presents, so without the secret no acceptable certificate can be
 * made, and a copy of a node's certificate is useless without that node's private key. Host names
 * are not checked (addresses come from gossip).
 *
 * <p>TLS 1.3 only, with the JDK's TLS (not the OpenSSL that Ratis bundles), so that the trust manager
 * is used exactly as written. A certificate is valid from a day before the node starts (peers' clocks
 * may be behind) for ten years: it lives as long as the process, and a restart renews it.
 *
 * <p>Wiring: {@link #applyTo(Parameters)} on the {@link Parameters} given to both
 * {@code RaftServer.newBuilder().setParameters(..)} and {@code RaftClient.newBuilder().setParameters(..)}.
 * Ratis' Netty data stream, which Hangar does not enable, is not covered.
 *
 * <p>Neither the secret nor any key derived from it is kept here (only the trust manager keeps the
 * derived key), nor shown by {@link #toString}, logs or exceptions.
 */
public final class RaftTls {
    /** What the tag key is derived for: {@code secret.deriveKey(PURPOSE)}. */
    static final String PURPOSE = "raft-tls";
    /** How long before its node's start a certificate is valid: peers' clocks may be behind. */
    static final Duration BACKDATE = Duration.ofDays(1);
    /** How long after its node's start a certificate is valid: for the life of the process. */
    static final Duration VALIDITY = Duration.ofDays(3650);

    private static final String PROTOCOL = "TLSv1.3";
    private static final String CURVE = "secp256r1";
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final String ORGANIZATION = "Hangar Raft";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger LOG = Logger.getLogger(RaftTls.class.getName());

    private final Identities identities;
    private final GrpcTlsConfig config;

    private RaftTls(Identities identities, GrpcTlsConfig config) {
        this.identities = identities;
        this.config = config;
    }

    /**
     * A fresh key pair and certificate bound to {@code secret} alone (no cluster id), and the TLS configuration
     * that uses them.
     */
    public static RaftTls create(ClusterSecret secret) {
        return create(secret, () -> "", Clock.systemUTC());
    }

    /**
     * A fresh key pair and certificate bound to {@code secret} and to the cluster id {@code clusterId} gives, and
     * the TLS configuration that uses them: a node of another cluster configured with the same secret is refused
     * as the RPC's handshake refuses it. The certificate claims the id it was made for (none before the node has
     * one), and a peer is checked against this node's id of the moment, a node without an id being no other
     * cluster's. The id may be learned after the start (a node that joins an existing cluster): a new certificate
     * is made for the id when it changes.
     */
    public static RaftTls create(ClusterSecret secret, Supplier<String> clusterId) {
        return create(secret, clusterId, Clock.systemUTC());
    }

    /** As {@link #create(ClusterSecret, Supplier)}, with validity reckoned from, and peers' checked at, {@code clock}'s time. */
    static RaftTls create(ClusterSecret secret, Supplier<String> clusterId, Clock clock) {
        Objects.requireNonNull(secret, "secret");
        byte[] tagKey = secret.deriveKey(PURPOSE);
        try {
            Identities identities = new Identities(tagKey, clusterId, clock);
            GrpcTlsConfig config = config(new NodeKeyManager(identities),
                    new SecretBoundTrustManager(tagKey, clusterId, clock));
            return new RaftTls(identities, config);
        } finally {
            Arrays.fill(tagKey, (byte) 0);
        }
    }

    /**
     * Mutual TLS 1.3 with the JDK's engine, presenting {@code certificate} (and proving {@code privateKey})
     * as server and as client, and accepting peers as {@code trust} says.
     */
    static GrpcTlsConfig config(X509Certificate certificate, PrivateKey privateKey, TrustManager trust) {
        return config(new NodeKeyManager(() -> new Identity(NodeKeyManager.ALIAS_PREFIX + 0, "", certificate,
                privateKey)), trust);
    }

    private static GrpcTlsConfig config(NodeKeyManager keys, TrustManager trust) {
        return GrpcTlsConfig.newBuilder()
                .setName("hangar-raft-tls")
                .setKeyManager(keys)
                .setTrustManager(trust)
                .setMutualTls(true)
                .setSslProvider(SslProvider.JDK)
                .setProtocols(PROTOCOL)
                .build();
    }

    /** The TLS configuration for all of Ratis' gRPC channels: server (peers), client and admin. */
    public GrpcTlsConfig config() {
        return config;
    }

    /**
     * Sets {@link #config()} in {@code parameters} for every gRPC channel: the server port and the
     * connections to peers ({@link GrpcConfigKeys.Server}), the client and admin ports and the
     * clients' connections ({@link GrpcConfigKeys.Client}, {@link GrpcConfigKeys.Admin}), and the
     * default for any other ({@link GrpcConfigKeys.TLS}).
     *
     * @return {@code parameters}
     */
    public Parameters applyTo(Parameters parameters) {
        GrpcConfigKeys.TLS.setConf(parameters, config);
        GrpcConfigKeys.Server.setTlsConf(parameters, config);
        GrpcConfigKeys.Client.setTlsConf(parameters, config);
        GrpcConfigKeys.Admin.setTlsConf(parameters, config);
        return parameters;
    }

    /** This node's certificate (public), for the cluster id of the moment. */
    X509Certificate certificate() {
        return identities.current().certificate();
    }

    @Override
    public String toString() {
        return "RaftTls[" + PROTOCOL + ", self-signed certificate valid until "
                + certificate().getNotAfter().toInstant() + ", keys redacted]";
    }

    /** One certificate with its key, for one cluster id, under the alias the key manager names it by. */
    private record Identity(String alias, String clusterId, X509Certificate certificate, PrivateKey privateKey) {
        @Override
        public String toString() {
            return "Identity[" + alias + ", key redacted]";
        }
    }

    /**
     * This node's certificates: one for the cluster id of the moment, made again when the id changes (once, from
     * none to the cluster's). The one before stays available under its alias, for a handshake that chose it
     * just before the change.
     */
    private static final class Identities {
        private final byte[] tagKey;
        private final Supplier<String> clusterId;
        private final Clock clock;
        private volatile Identity current;
        private volatile @Nullable Identity previous;

        Identities(byte[] tagKey, Supplier<String> clusterId, Clock clock) {
            this.tagKey = tagKey.clone();
            this.clusterId = clusterId;
            this.clock = clock;
            this.current = make(0, clusterId.get());
        }

        Identity current() {
            Identity now = current;
            String id = clusterId.get();
            if (now.clusterId().equals(id)) {
                return now;
            }
            synchronized (this) {
                if (!current.clusterId().equals(id)) {
                    previous = current;
                    current = make(Integer.parseInt(current.alias().substring(NodeKeyManager.ALIAS_PREFIX.length())) + 1,
                            id);
                }
                return current;
            }
        }

        @Nullable Identity byAlias(String alias) {
            Identity now = current;
            if (now.alias().equals(alias)) {
                return now;
            }
            Identity before = previous;
            return before != null && before.alias().equals(alias) ? before : null;
        }

        private Identity make(int generation, String id) {
            KeyPair keys = newKeyPair();
            Instant now = clock.instant();
            X509Certificate certificate = selfSigned(keys, SecretBoundTrustManager.tag(tagKey, keys.getPublic(), id), id,
                    now.minus(BACKDATE), now.plus(VALIDITY));
            LOG.info(() -> "made the Raft certificate " + generation + (id.isEmpty() ? ", for no cluster id yet"
                    : ", for cluster " + id));
            return new Identity(NodeKeyManager.ALIAS_PREFIX + generation, id, certificate, keys.getPrivate());
        }
    }

    /** A fresh EC P-256 key pair. */
    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec(CURVE), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has EC " + CURVE, e);
        }
    }

    /**
     * A certificate for {@code keys}' public key, signed with their private key, whose subject is
     * {@code CN=<tag in hex>, O=Hangar Raft} (the issuer too).
     */
    static X509Certificate selfSigned(KeyPair keys, byte[] tag, Instant notBefore, Instant notAfter) {
        return selfSigned(keys, tag, "", notBefore, notAfter);
    }

    /**
     * As {@link #selfSigned(KeyPair, byte[], Instant, Instant)}, claiming the cluster id {@code clusterId} in an
     * {@code OU} of the subject unless it is empty: the tag covers the claim, so it cannot be changed.
     */
    static X509Certificate selfSigned(KeyPair keys, byte[] tag, String clusterId, Instant notBefore, Instant notAfter) {
        X500NameBuilder names = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, ORGANIZATION);
        if (!clusterId.isEmpty()) {
            names.addRDN(BCStyle.OU, clusterId);
        }
        X500Name name = names.addRDN(BCStyle.CN, SecretBoundTrustManager.commonName(tag)).build();
        BigInteger serial = new BigInteger(126, RANDOM).setBit(126);
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial, Date.from(notBefore),
                    Date.from(notAfter), name, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false,
                    new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE).build(keys.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (OperatorCreationException | CertIOException | CertificateException e) {
            throw new IllegalStateException("cannot make the node's Raft certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Presents this node's one certificate and key, as server and as client, whatever the peer asks
     * for (a Raft peer's trust manager names no issuers). An {@link X509ExtendedKeyManager}, so that
     * the JDK's TLS engine uses it as it is.
     */
    private static final class NodeKeyManager extends X509ExtendedKeyManager {
        static final String ALIAS_PREFIX = "hangar-raft-";
        private static final String KEY_TYPE = "EC";

        private final Supplier<Identity> identity;
        private final @Nullable Identities identities;

        /** Presents the node's certificate for the cluster id of the moment. */
        NodeKeyManager(Identities identities) {
            this.identity = identities::current;
            this.identities = identities;
        }

        /** Presents one fixed certificate. */
        NodeKeyManager(Supplier<Identity> identity) {
            this.identity = identity;
            this.identities = null;
        }

        private @Nullable String alias(String keyType) {
            return KEY_TYPE.equals(keyType) ? identity.get().alias() : null;
        }

        private @Nullable String alias(String[] keyTypes) {
            return keyTypes != null && Arrays.asList(keyTypes).contains(KEY_TYPE) ? identity.get().alias() : null;
        }

        // The alias names the certificate: a handshake reads the chain and the key by the alias it chose, so both
        // are of one identity even if the cluster id changes in between.
        private @Nullable Identity byAlias(@Nullable String alias) {
            if (alias == null) {
                return null;
            }
            if (identities != null) {
                return identities.byAlias(alias);
            }
            Identity only = identity.get();
            return only.alias().equals(alias) ? only : null;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            String alias = alias(keyType);
            return alias == null ? null : new String[] {alias};
        }

        @Override
        public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
            return alias(keyTypes);
        }

        @Override
        public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
            return alias(keyTypes);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            String alias = alias(keyType);
            return alias == null ? null : new String[] {alias};
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return alias(keyType);
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            return alias(keyType);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            Identity chosen = byAlias(alias);
            return chosen == null ? null : new X509Certificate[] {chosen.certificate()};
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            Identity chosen = byAlias(alias);
            return chosen == null ? null : chosen.privateKey();
        }

        @Override
        public String toString() {
            return "RaftTls.NodeKeyManager[key redacted]";
        }
    }
}

package dev.hangar.cluster.raft;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.Arrays;
import java.util.Date;
import java.util.HexFormat;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.jspecify.annotations.Nullable;

/**
 * Accepts a Raft peer, as client or as server, only if it presents one self-signed certificate whose
 * <em>tag</em> proves that it was made by a holder of the cluster secret (see {@link RaftTls}):
 *
 * <ol>
 *   <li>the chain is exactly one certificate;
 *   <li>its key is an EC key;
 *   <li>it is within its validity at this moment;
 *   <li>its subject's common name is the tag, 64 hex digits, and it equals (constant-time compare)
 *       the HMAC-SHA256, under the key {@link RaftTls} derives from the secret, of the certificate's
 *       public key encoded as an X.509 SubjectPublicKeyInfo (DER, {@link PublicKey#getEncoded()}),
 *       followed, if the subject claims a cluster id in an {@code OU}, by a zero byte and that id;
 *   <li>the claimed id is this node's, or one of the two has none yet (the RPC handshake's rule: a node
 *       that has not joined is no other cluster's);
 *   <li>its signature verifies with its own key.
 * </ol>
 *
 * <p>Nothing else is checked, on purpose: no host name (peer addresses come from gossip), no CA, no
 * key usage. The TLS handshake itself proves that the peer holds the private key of the certificate
 * it presents, so a copy of another node's certificate is useless, and a certificate of one's own
 * making is refused unless one knows the secret.
 *
 * <p>It is an {@link X509ExtendedTrustManager} so that the JDK uses it as it is: a plain
 * {@link javax.net.ssl.X509TrustManager} would be wrapped and, on the client side where gRPC asks for
 * HTTPS endpoint identification, have the server's host name checked against the certificate.
 *
 * <p>Refusals say what was wrong with the certificate, never the expected tag or the key, and are
 * logged at WARNING with the peer's address when the engine knows it (acceptances at FINE).
 */
final class SecretBoundTrustManager extends X509ExtendedTrustManager {
    private static final String MAC = "HmacSHA256";
    private static final int TAG_BYTES = 32;
    private static final HexFormat HEX = HexFormat.of();
    private static final Logger LOG = Logger.getLogger(SecretBoundTrustManager.class.getName());

    private final SecretKeySpec tagKey;
    private final Supplier<String> clusterId;
    private final Clock clock;

    /** Certificates bound to the secret alone, of a node without a cluster id. */
    SecretBoundTrustManager(byte[] tagKey, Clock clock) {
        this(tagKey, () -> "", clock);
    }

    /**
     * @param tagKey the key tags are made with ({@code secret.deriveKey(RaftTls.PURPOSE)}); copied,
     *     so the caller may clear its array
     * @param clusterId the id of this node's cluster, "" while it has none: a peer's tag must be made for it
     * @param clock the time certificates' validity is checked against
     */
    SecretBoundTrustManager(byte[] tagKey, Supplier<String> clusterId, Clock clock) {
        this.tagKey = new SecretKeySpec(tagKey, MAC);
        this.clusterId = clusterId;
        this.clock = clock;
    }

    /** The tag that a certificate for {@code publicKey} must carry: HMAC-SHA256 of its encoding under {@code tagKey}. */
    static byte[] tag(byte[] tagKey, PublicKey publicKey) {
        return tag(new SecretKeySpec(tagKey, MAC), publicKey, "");
    }

    /**
     * The tag of a certificate for {@code publicKey} in the cluster {@code clusterId}: HMAC-SHA256 of the key's
     * encoding, then a zero byte and the id in UTF-8 unless the id is empty (so that a node without a cluster id
     * makes the tags it always made).
     */
    static byte[] tag(byte[] tagKey, PublicKey publicKey, String clusterId) {
        return tag(new SecretKeySpec(tagKey, MAC), publicKey, clusterId);
    }

    private static byte[] tag(SecretKeySpec tagKey, PublicKey publicKey, String clusterId) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(tagKey);
            mac.update(publicKey.getEncoded());
            if (!clusterId.isEmpty()) {
                mac.update((byte) 0);
                mac.update(clusterId.getBytes(StandardCharsets.UTF_8));
            }
            return mac.doFinal();
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JVM has " + MAC, e);
        }
    }

    /** How a tag is written as the subject's common name. */
    static String commonName(byte[] tag) {
        return HEX.formatHex(tag);
    }

    /** Accepts {@code chain} or says why not. */
    void check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            // The X509TrustManager contract, and the JDK does not call it so: a peer without one is refused before.
            throw new IllegalArgumentException("no certificate chain to check");
        }
        if (chain.length != 1) {
            throw new CertificateException("a Raft peer presents exactly one, self-signed certificate; this one presented "
                    + chain.length);
        }
        X509Certificate certificate = chain[0];
        PublicKey key = certificate.getPublicKey();
        if (!"EC".equals(key.getAlgorithm())) {
            throw new CertificateException("a Raft peer's certificate has an EC key; this one has " + key.getAlgorithm());
        }
        Date now = Date.from(clock.instant());
        try {
            certificate.checkValidity(now);
        } catch (CertificateExpiredException e) {
            throw new CertificateExpiredException(
                    "the Raft peer's certificate expired at " + certificate.getNotAfter().toInstant());
        } catch (CertificateNotYetValidException e) {
            throw new CertificateNotYetValidException(
                    "the Raft peer's certificate is not valid before " + certificate.getNotBefore().toInstant());
        }
        X500Name subject = subject(certificate);
        byte[] presented = presentedTag(subject);
        String claimed = claimedClusterId(subject);
        byte[] expected = tag(tagKey, key, claimed);
        boolean bound = MessageDigest.isEqual(expected, presented);
        Arrays.fill(expected, (byte) 0);
        if (!bound) {
            throw new CertificateException("the Raft peer's certificate is not bound to this cluster's secret"
                    + " (its tag was made with another secret, or altered)");
        }
        // The RPC handshake's rule: a node that has no id yet (it has not joined) is no other cluster's.
        String ours = clusterId.get();
        if (!claimed.isEmpty() && !ours.isEmpty() && !claimed.equals(ours)) {
            throw new CertificateException("the Raft peer belongs to cluster " + claimed + ", this node to cluster "
                    + ours + " (two clusters configured with one secret)");
        }
        try {
            certificate.verify(key);
        } catch (GeneralSecurityException e) {
            throw new CertificateException("the Raft peer's certificate is not signed by its own key", e);
        }
    }

    private static X500Name subject(X509Certificate certificate) throws CertificateException {
        try {
            return X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        } catch (IllegalArgumentException e) {
            throw new CertificateException("the Raft peer's certificate has an unreadable subject", e);
        }
    }

    /** The cluster id the subject claims in its one {@code OU}; "" if it has none (a node without an id). */
    private static String claimedClusterId(X500Name subject) throws CertificateException {
        RDN[] units = subject.getRDNs(BCStyle.OU);
        if (units.length == 0) {
            return "";
        }
        if (units.length != 1 || units[0].isMultiValued() || !(units[0].getFirst().getValue() instanceof ASN1String value)
                || value.getString().isEmpty()) {
            throw new CertificateException("the Raft peer's certificate claims its cluster id in more than one unit");
        }
        return value.getString();
    }

    /** The tag in the certificate's subject: its one common name, 64 hex digits. */
    private static byte[] presentedTag(X500Name subject) throws CertificateException {
        RDN[] names = subject.getRDNs(BCStyle.CN);
        if (names.length != 1 || names[0].isMultiValued()
                || !(names[0].getFirst().getValue() instanceof ASN1String value)) {
            throw new CertificateException("the Raft peer's certificate does not have one common name, its tag");
        }
        String text = value.getString();
        if (text.length() != 2 * TAG_BYTES) {
            throw new CertificateException("the Raft peer's certificate's common name is not a tag (64 hex digits)");
        }
        try {
            return HEX.parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new CertificateException("the Raft peer's certificate's common name is not a tag (64 hex digits)");
        }
    }

    /**
     * {@link #check} with the refusal logged: TLS reports it to the peer only as an alert, and gRPC retries
     * quietly, so without the log a refused peer would look like a slow one.
     */
    private void checkPeer(X509Certificate[] chain, String role, @Nullable String peer) throws CertificateException {
        try {
            check(chain);
            LOG.fine(() -> "accepted the Raft " + role + (peer == null ? "" : " at " + peer));
        } catch (CertificateException e) {
            LOG.log(Level.WARNING, "refused the Raft " + role + (peer == null ? "" : " at " + peer) + ": "
                    + e.getMessage());
            throw e;
        }
    }

    private static @Nullable String peer(@Nullable SSLEngine engine) {
        return engine == null || engine.getPeerHost() == null ? null : engine.getPeerHost() + ":" + engine.getPeerPort();
    }

    private static @Nullable String peer(@Nullable Socket socket) {
        return socket == null || socket.getRemoteSocketAddress() == null ? null
                : socket.getRemoteSocketAddress().toString();
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        checkPeer(chain, "client", null);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        checkPeer(chain, "server", null);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        checkPeer(chain, "client", peer(socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        checkPeer(chain, "server", peer(socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkPeer(chain, "client", peer(engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checkPeer(chain, "server", peer(engine));
    }

    /** None: no CA issues Raft peers' certificates, so a server names none in its certificate request. */
    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }

    @Override
    public String toString() {
        return "SecretBoundTrustManager[key redacted]";
    }
}

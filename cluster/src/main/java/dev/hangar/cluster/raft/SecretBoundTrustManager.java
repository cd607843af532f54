package dev.hangar.cluster.raft;

import java.net.Socket;
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
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;

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
 *       public key encoded as an X.509 SubjectPublicKeyInfo (DER, {@link PublicKey#getEncoded()});
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
 * <p>Refusals say what was wrong with the certificate, never the expected tag or the key.
 */
final class SecretBoundTrustManager extends X509ExtendedTrustManager {
    private static final String MAC = "HmacSHA256";
    private static final int TAG_BYTES = 32;
    private static final HexFormat HEX = HexFormat.of();

    private final SecretKeySpec tagKey;
    private final Clock clock;

    /**
     * @param tagKey the key tags are made with ({@code secret.deriveKey(RaftTls.PURPOSE)}); copied,
     *     so the caller may clear its array
     * @param clock the time certificates' validity is checked against
     */
    SecretBoundTrustManager(byte[] tagKey, Clock clock) {
        this.tagKey = new SecretKeySpec(tagKey, MAC);
        this.clock = clock;
    }

    /** The tag that a certificate for {@code publicKey} must carry: HMAC-SHA256 of its encoding under {@code tagKey}. */
    static byte[] tag(byte[] tagKey, PublicKey publicKey) {
        return tag(new SecretKeySpec(tagKey, MAC), publicKey);
    }

    private static byte[] tag(SecretKeySpec tagKey, PublicKey publicKey) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(tagKey);
            return mac.doFinal(publicKey.getEncoded());
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
        byte[] presented = presentedTag(certificate);
        byte[] expected = tag(tagKey, key);
        boolean bound = MessageDigest.isEqual(expected, presented);
        Arrays.fill(expected, (byte) 0);
        if (!bound) {
            throw new CertificateException("the Raft peer's certificate is not bound to this cluster's secret"
                    + " (its tag was made with another secret, or altered)");
        }
        try {
            certificate.verify(key);
        } catch (GeneralSecurityException e) {
            throw new CertificateException("the Raft peer's certificate is not signed by its own key", e);
        }
    }

    /** The tag in {@code certificate}'s subject: its one common name, 64 hex digits. */
    private static byte[] presentedTag(X509Certificate certificate) throws CertificateException {
        RDN[] names;
        try {
            names = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()).getRDNs(BCStyle.CN);
        } catch (IllegalArgumentException e) {
            throw new CertificateException("the Raft peer's certificate has an unreadable subject", e);
        }
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

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
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

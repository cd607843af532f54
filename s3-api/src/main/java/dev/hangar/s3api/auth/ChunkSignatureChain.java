package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import javax.crypto.Mac;

/**
 * The rolling signatures of a signed aws-chunked body. Each chunk's string to sign names the previous
 * signature, starting from the request's seed signature, so chunks can be neither reordered, dropped nor
 * replayed from another request:
 *
 * <pre>
 * AWS4-HMAC-SHA256-PAYLOAD \n timestamp \n scope \n previous signature \n sha256("") \n sha256(chunk data)
 * AWS4-HMAC-SHA256-TRAILER \n timestamp \n scope \n previous signature \n sha256(trailer lines "name:value\n")
 * </pre>
 */
final class ChunkSignatureChain {
    /** Keyed with the signing key once; {@code doFinal} resets it for the next chunk. */
    private final Mac mac;
    private final String timestamp;
    private final String credentialScope;
    private String previousSignature;

    ChunkSignatureChain(byte[] signingKey, String timestamp, String credentialScope, String seedSignature) {
        this.mac = Signatures.newMac(signingKey);
        this.timestamp = timestamp;
        this.credentialScope = credentialScope;
        this.previousSignature = seedSignature;
    }

    void verifyChunk(String chunkSha256, String sentSignature) throws PayloadVerificationException {
        verify("AWS4-HMAC-SHA256-PAYLOAD\n" + timestamp + '\n' + credentialScope + '\n' + previousSignature + '\n'
                + Signatures.EMPTY_SHA256 + '\n' + chunkSha256, sentSignature,
                "The chunk signature we calculated does not match the signature you provided.");
    }

    void verifyTrailer(String trailerSha256, String sentSignature) throws PayloadVerificationException {
        verify("AWS4-HMAC-SHA256-TRAILER\n" + timestamp + '\n' + credentialScope + '\n' + previousSignature + '\n'
                + trailerSha256, sentSignature,
                "The trailer signature we calculated does not match the signature you provided.");
    }

    private void verify(String stringToSign, String sentSignature, String message)
            throws PayloadVerificationException {
        String signature = Signatures.sign(mac, stringToSign);
        if (!Signatures.matches(signature, sentSignature)) {
            throw new PayloadVerificationException(S3Error.SIGNATURE_DOES_NOT_MATCH, message);
        }
        previousSignature = signature;
    }
}

package dev.hangar.s3api.checksum;

import java.security.MessageDigest;

/** Adapts a {@link MessageDigest} (SHA-1, SHA-256), whose output already is S3's byte form. */
final class MessageDigestHasher implements ChecksumHasher {
    private final MessageDigest messageDigest;

    MessageDigestHasher(MessageDigest messageDigest) {
        this.messageDigest = messageDigest;
    }

    @Override
    public void update(byte[] bytes, int offset, int length) {
        messageDigest.update(bytes, offset, length);
    }

    @Override
    public byte[] digest() {
        return messageDigest.digest();
    }
}

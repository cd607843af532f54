package dev.hangar.s3api.semantics;

import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.Part;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.checksum.ChecksumAlgorithm;
import dev.hangar.s3api.checksum.CrcCombination;
import dev.hangar.s3api.request.S3Request;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * S3's FULL_OBJECT checksum type for multipart uploads: the CRC of the whole object, combined from
 * the parts' CRCs without reading the data again, and checked against the value the client sends
 * with CompleteMultipartUpload.
 */
final class FullObjectChecksums {
    /** Kept among an upload's stored headers from its creation to its completion. */
    static final String TYPE_HEADER = "x-amz-checksum-type";
    static final String FULL_OBJECT = "FULL_OBJECT";

    private FullObjectChecksums() {}

    /** Whether an upload created with these headers gets a FULL_OBJECT checksum (CRC64NVME has no other). */
    static boolean requested(@Nullable String algorithm, @Nullable String type) {
        return FULL_OBJECT.equalsIgnoreCase(type) || ChecksumAlgorithm.CRC64NVME.name().equalsIgnoreCase(algorithm);
    }

    static boolean requested(Map<String, String> uploadHeaders) {
        return FULL_OBJECT.equalsIgnoreCase(uploadHeaders.get(TYPE_HEADER));
    }

    static Checksum of(String algorithmName, List<Part> parts, S3Request complete) {
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.fromName(algorithmName)
                .filter(candidate -> candidate != ChecksumAlgorithm.SHA1 && candidate != ChecksumAlgorithm.SHA256)
                .orElseThrow(() -> new S3Exception(S3Error.INVALID_REQUEST,
                        "The FULL_OBJECT checksum type is only available for CRC algorithms, not " + algorithmName + "."));
        List<CrcCombination.Piece> pieces = new ArrayList<>(parts.size());
        for (Part part : parts) {
            Checksum checksum = part.checksum();
            if (checksum == null || !checksum.algorithm().equalsIgnoreCase(algorithm.name())) {
                throw new S3Exception(S3Error.INVALID_PART, "Part " + part.partNumber() + " was uploaded without a "
                        + algorithm.name() + " checksum, which a FULL_OBJECT checksum needs.");
            }
            pieces.add(new CrcCombination.Piece(toLong(Base64.getDecoder().decode(checksum.value())), part.size()));
        }
        long combined = CrcCombination.of(algorithm).combine(pieces);
        String value = Base64.getEncoder().encodeToString(toBytes(combined, algorithm.digestLength()));
        String sent = complete.header(algorithm.headerName());
        if (sent != null && !sent.trim().equals(value)) {
            throw new S3Exception(S3Error.BAD_DIGEST, "The " + algorithm.name()
                    + " you specified did not match the calculated checksum.");
        }
        return new Checksum(algorithm.name().toUpperCase(Locale.ROOT), value);
    }

    private static long toLong(byte[] bigEndian) {
        long value = 0;
        for (byte b : bigEndian) {
            value = value << 8 | (b & 0xFF);
        }
        return value;
    }

    private static byte[] toBytes(long value, int length) {
        byte[] bytes = new byte[length];
        for (int i = length - 1; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }
}

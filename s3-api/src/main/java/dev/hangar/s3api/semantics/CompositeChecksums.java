package dev.hangar.s3api.semantics;

import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.Part;
import dev.hangar.s3api.checksum.ChecksumAlgorithm;
import dev.hangar.s3api.checksum.ChecksumHasher;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The checksum S3 gives a multipart object whose upload named an algorithm: the checksum of the
 * concatenated binary part checksums, followed by {@code -N} (S3's COMPOSITE type).
 */
final class CompositeChecksums {
    private CompositeChecksums() {}

    static @Nullable Checksum of(@Nullable String algorithmName, List<Part> parts) {
        Optional<ChecksumAlgorithm> algorithm =
                algorithmName == null ? Optional.empty() : ChecksumAlgorithm.fromName(algorithmName);
        // CRC64NVME exists only as a full-object checksum, which needs CRC combination: not offered yet.
        if (algorithm.isEmpty() || algorithm.get() == ChecksumAlgorithm.CRC64NVME) {
            return null;
        }
        ChecksumHasher hasher = algorithm.get().newHasher();
        for (Part part : parts) {
            Checksum checksum = part.checksum();
            if (checksum == null || !checksum.algorithm().equalsIgnoreCase(algorithm.get().name())) {
                return null;
            }
            byte[] digest = Base64.getDecoder().decode(checksum.value());
            hasher.update(digest, 0, digest.length);
        }
        return new Checksum(algorithm.get().name(), hasher.digestBase64() + "-" + parts.size());
    }
}

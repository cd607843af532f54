package dev.hangar.metadata;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** One page of ListMultipartUploads: uploads by key then initiation order, plus common prefixes. */
public record UploadListing(
        List<MultipartUpload> uploads,
        List<String> commonPrefixes,
        boolean truncated,
        @Nullable String nextKeyMarker,
        @Nullable String nextUploadIdMarker) {
    public UploadListing {
        uploads = List.copyOf(uploads);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}

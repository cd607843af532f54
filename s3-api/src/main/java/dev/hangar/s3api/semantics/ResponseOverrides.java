package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code response-*} query parameters of GetObject and HeadObject, which replace headers of the answer
 * ({@code response-content-type} its Content-Type, ...). S3 takes them only from signed requests (a signed
 * header or a presigned URL): whoever signed chose them, whereas on an anonymous request anyone could make a
 * public object answer, say, as an HTML page.
 */
final class ResponseOverrides {
    /** Each parameter and the header it replaces, in S3's documented order. */
    private static final Map<String, String> HEADERS = orderedHeaders();

    private ResponseOverrides() {}

    /**
     * @throws S3Exception InvalidRequest, with S3's message, when an anonymous request carries any of them
     */
    static void refuseAnonymous(S3Request request, Caller caller) {
        if (!caller.isAnonymous()) {
            return;
        }
        for (String parameter : HEADERS.keySet()) {
            if (request.hasParameter(parameter)) {
                throw new S3Exception(S3Error.INVALID_REQUEST,
                        "Request specific response headers cannot be used for anonymous GET requests.");
            }
        }
    }

    /**
     * Replaces the headers the request's parameters name.
     *
     * @throws S3Exception InvalidArgument for a value with a control character, which no header may hold
     */
    static void apply(S3Request request, Map<String, String> headers) {
        for (Map.Entry<String, String> override : HEADERS.entrySet()) {
            String value = request.parameter(override.getKey());
            if (value == null) {
                continue;
            }
            ObjectHeaders.requireHeaderValue(override.getKey(), value);
            headers.keySet().removeIf(name -> name.equalsIgnoreCase(override.getValue()));
            headers.put(override.getValue(), value);
        }
    }

    private static Map<String, String> orderedHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("response-cache-control", "Cache-Control");
        headers.put("response-content-disposition", "Content-Disposition");
        headers.put("response-content-encoding", "Content-Encoding");
        headers.put("response-content-language", "Content-Language");
        headers.put("response-content-type", "Content-Type");
        headers.put("response-expires", "Expires");
        return Collections.unmodifiableMap(headers);
    }
}

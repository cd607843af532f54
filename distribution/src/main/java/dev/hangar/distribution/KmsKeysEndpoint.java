package dev.hangar.distribution;

import dev.hangar.s3api.encryption.KmsKey;
import dev.hangar.s3api.encryption.KmsKeys;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The key service's KMS keys (SSE-KMS), administered on the management port ({@code /actuator/kmskeys}): list
 * them, create one, enable or disable one, and re-wrap them all with the current master key after a rotation. A
 * key's material is never shown. Keys are not deleted here: every object a key sealed would be lost with it;
 * disabling one makes its objects unreadable until it is enabled again.
 */
@Endpoint(id = "kmskeys")
public class KmsKeysEndpoint {
    private final Optional<KmsKeys> keys;

    KmsKeysEndpoint(Optional<KmsKeys> keys) {
        this.keys = keys;
    }

    /** One key as listed. */
    public record KeyDescription(String id, String arn, String created, boolean enabled, String description) {}

    /** Every key. */
    public record KeyList(List<KeyDescription> keys) {}

    /** How many keys a re-wrap changed. */
    public record Rewrapped(int rewrapped) {}

    /** Why a request was refused. */
    public record Failure(String error) {}

    @ReadOperation
    public WebEndpointResponse<Object> keys() {
        return withKeys(kms -> new WebEndpointResponse<>(
                new KeyList(kms.list().stream().map(key -> describe(kms, key)).toList())));
    }

    @ReadOperation
    public WebEndpointResponse<Object> key(@Selector String id) {
        return withKeys(kms -> kms.find(id)
                .<WebEndpointResponse<Object>>map(key -> new WebEndpointResponse<>(describe(kms, key)))
                .orElseGet(() -> notFound(id)));
    }

    /**
     * Creates a key ({@code description} optional), or with {@code action=rewrap} re-wraps every key's material
     * with the current master key.
     */
    @WriteOperation
    public WebEndpointResponse<Object> create(@Nullable String action, @Nullable String description) {
        return withKeys(kms -> {
            if ("rewrap".equals(action)) {
                return new WebEndpointResponse<>(new Rewrapped(kms.rewrap()));
            }
            if (action != null && !action.equals("create")) {
                return new WebEndpointResponse<>(new Failure("unknown action " + action + ": create or rewrap"),
                        WebEndpointResponse.STATUS_BAD_REQUEST);
            }
            KmsKey key = kms.create(description == null ? "" : description);
            return new WebEndpointResponse<>(describe(kms, key), 201);
        });
    }

    /** Enables or disables a key. */
    @WriteOperation
    public WebEndpointResponse<Object> change(@Selector String id, @Nullable Boolean enabled) {
        return withKeys(kms -> {
            if (enabled == null) {
                return new WebEndpointResponse<>(new Failure("enabled (true or false) is required"),
                        WebEndpointResponse.STATUS_BAD_REQUEST);
            }
            return kms.find(id)
                    .flatMap(key -> kms.setEnabled(key.id(), enabled))
                    .<WebEndpointResponse<Object>>map(key -> new WebEndpointResponse<>(describe(kms, key)))
                    .orElseGet(() -> notFound(id));
        });
    }

    /** What {@code action} answers with the KMS keys; 409 when there are none, without a master key. */
    private WebEndpointResponse<Object> withKeys(Function<KmsKeys, WebEndpointResponse<Object>> action) {
        return keys.map(action).orElseGet(KmsKeysEndpoint::unavailable);
    }

    private static KeyDescription describe(KmsKeys kms, KmsKey key) {
        return new KeyDescription(key.id(), kms.arn(key.id()), key.created().toString(), key.enabled(),
                key.description());
    }

    private static WebEndpointResponse<Object> notFound(String id) {
        return new WebEndpointResponse<>(new Failure("no KMS key " + id), WebEndpointResponse.STATUS_NOT_FOUND);
    }

    private static WebEndpointResponse<Object> unavailable() {
        return new WebEndpointResponse<>(new Failure("KMS keys need the key service's master key: set "
                + "hangar.encryption.master-key-file (or HANGAR_ENCRYPTION_MASTER_KEY)"), 409);
    }
}

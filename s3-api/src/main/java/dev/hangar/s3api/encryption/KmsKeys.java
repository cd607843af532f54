package dev.hangar.s3api.encryption;

import dev.hangar.metadata.MetadataStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key service's KMS keys (SSE-KMS): made by an operator through the administration API, each with random
 * material kept wrapped by the master key, addressed by id or ARN as AWS KMS keys are. The default key {@code
 * aws/s3} — the key of SSE-KMS requests that name none — is made on its first use, as AWS makes its managed key.
 * A KMS key is never deleted here (every object it sealed would be lost with it); it can be disabled, which makes
 * the objects it sealed unreadable until it is enabled again.
 */
public final class KmsKeys {
    static final String KIND = "kms-key";
    static final String ALIAS_KIND = "kms-alias";
    /** The alias of the key used when SSE-KMS names none, as AWS's managed key for S3. */
    public static final String DEFAULT_ALIAS = "aws/s3";
    private static final Pattern ARN = Pattern.compile("arn:aws:kms:[^:]*:[^:]*:key/(.+)");
    private static final Pattern ALIAS_ARN = Pattern.compile("arn:aws:kms:[^:]*:[^:]*:alias/(.+)");
    private static final String ACCOUNT = "000000000000";

    /** Where KMS keys are kept: service configuration documents, replicated as settings are. */
    private final MetadataStore store;
    private final MasterKeys masterKeys;
    private final String region;
    private final Clock clock;

    public KmsKeys(MetadataStore store, MasterKeys masterKeys, String region, Clock clock) {
        this.store = store;
        this.masterKeys = masterKeys;
        this.region = region;
        this.clock = clock;
    }

    /** Makes a new key, enabled, with fresh random material. */
    public KmsKey create(String description) {
        String id = UUID.randomUUID().toString();
        KmsKey key = new KmsKey(id, clock.instant().truncatedTo(ChronoUnit.SECONDS), true, description,
                masterKeys.wrap(ContentKey.random(), purpose(id)));
        store.putServiceConfig(KIND, id, key.encode());
        return key;
    }

    /** Every key, by id. */
    public List<KmsKey> list() {
        List<KmsKey> keys = new ArrayList<>();
        store.listServiceConfigs(KIND).values().forEach(document -> keys.add(KmsKey.decode(document)));
        return keys;
    }

    /** The key an id, a key ARN, an alias ({@code alias/aws/s3}) or an alias ARN names. */
    public Optional<KmsKey> find(String reference) {
        String ref = reference.strip();
        Matcher arn = ARN.matcher(ref);
        if (arn.matches()) {
            ref = arn.group(1);
        }
        Matcher aliasArn = ALIAS_ARN.matcher(ref);
        if (aliasArn.matches()) {
            ref = "alias/" + aliasArn.group(1);
        }
        try {
            if (ref.startsWith("alias/")) {
                return store.getServiceConfig(ALIAS_KIND, ref.substring("alias/".length()))
                        .flatMap(target -> store.getServiceConfig(KIND, new String(target, StandardCharsets.UTF_8)))
                        .map(KmsKey::decode);
            }
            return store.getServiceConfig(KIND, ref).map(KmsKey::decode);
        } catch (IllegalArgumentException notAName) {
            // An empty reference, or one with a character no stored name can have, names no key.
            return Optional.empty();
        }
    }

    /**
     * The default key ({@code alias/aws/s3}), made on first use. Two nodes making it at once may each make one; the
     * alias then names one of them, and objects sealed with the other stay readable (the key stays stored).
     */
    public KmsKey defaultKey() {
        Optional<KmsKey> existing = find("alias/" + DEFAULT_ALIAS);
        if (existing.isPresent()) {
            return existing.get();
        }
        KmsKey made = create("Default key for SSE-KMS requests that name no key (alias/" + DEFAULT_ALIAS + ")");
        store.putServiceConfig(ALIAS_KIND, DEFAULT_ALIAS, made.id().getBytes(StandardCharsets.UTF_8));
        return made;
    }

    /** Enables or disables a key; empty if there is none of that id. */
    public Optional<KmsKey> setEnabled(String id, boolean enabled) {
        return find(id).map(key -> {
            KmsKey changed = key.withEnabled(enabled);
            store.putServiceConfig(KIND, key.id(), changed.encode());
            return changed;
        });
    }

    /**
     * Re-wraps every key's material with the current master key, so that a master key retired after a rotation is
     * no longer needed for them.
     *
     * @return how many keys were re-wrapped
     */
    public int rewrap() {
        int count = 0;
        for (KmsKey key : list()) {
            if (!MasterKeys.idOfWrapped(key.wrappedMaterial()).equals(masterKeys.currentId())) {
                ContentKey material = material(key);
                store.putServiceConfig(KIND, key.id(), key.withWrappedMaterial(masterKeys.wrap(material, purpose(key.id()))).encode());
                count++;
            }
        }
        return count;
    }

    /**
     * A key's material, unwrapped.
     *
     * @throws MasterKeys.UnknownMasterKeyException when the master key that wrapped it is not configured
     */
    public ContentKey material(KmsKey key) {
        return masterKeys.unwrap(key.wrappedMaterial(), purpose(key.id()));
    }

    /** The key's ARN, as S3 answers it in {@code x-amz-server-side-encryption-aws-kms-key-id}. */
    public String arn(String id) {
        return "arn:aws:kms:" + region + ":" + ACCOUNT + ":key/" + id;
    }

    private static String purpose(String id) {
        return "kms key " + id;
    }
}

package dev.hangar.s3api.access;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A bucket policy: a document of the AWS policy language, validated for the bucket it is put on,
 * that allows or denies requests to that bucket and its objects.
 *
 * <p>{@link #parse} accepts what AWS S3 accepts for PutBucketPolicy:
 * <ul>
 *   <li>{@code Version} {@code 2012-10-17} or {@code 2008-10-17} (the default when absent; policy
 *       variables such as {@code ${aws:username}} are expanded only in 2012-10-17), an optional
 *       {@code Id}, and {@code Statement}: one statement or an array of them;</li>
 *   <li>per statement an optional {@code Sid} (unique in the policy), {@code Effect} {@code Allow} or
 *       {@code Deny}, {@code Principal} or {@code NotPrincipal} ({@code "*"} or
 *       {@code {"AWS": ...}} with {@code "*"}, access key ids or IAM ARNs whose trailing id is the
 *       access key id; {@code CanonicalUser} ids are access key ids too; {@code Service} and
 *       {@code Federated} principals are accepted and never match), {@code Action} or
 *       {@code NotAction} ({@code s3:} actions, with {@code *} and {@code ?} wildcards, compared without
 *       regard to case), {@code Resource} or {@code NotResource} ({@code *} or ARNs of this bucket and its
 *       objects, with wildcards) and an optional {@code Condition} (see {@link Condition}).</li>
 * </ul>
 * Anything else is an {@link dev.hangar.s3api.S3Exception} with
 * {@link dev.hangar.s3api.S3Error#MALFORMED_POLICY} and AWS's message for it.
 *
 * <p>The document is kept exactly as given, for GetBucketPolicy. Instances are immutable and
 * thread-safe; parse once per stored policy, not per request.
 */
public final class BucketPolicy {
    /** The largest policy document S3 accepts, in bytes of UTF-8. */
    public static final int MAXIMUM_BYTES = 20 * 1024;

    private final String json;
    private final String bucket;
    private final String version;
    private final @Nullable String id;
    private final List<Statement> statements;
    private final boolean restricted;

    BucketPolicy(String json, String bucket, String version, @Nullable String id, List<Statement> statements) {
        this(json, bucket, version, id, statements, false);
    }

    private BucketPolicy(String json, String bucket, String version, @Nullable String id, List<Statement> statements,
            boolean restricted) {
        this.json = json;
        this.bucket = bucket;
        this.version = version;
        this.id = id;
        this.statements = List.copyOf(statements);
        this.restricted = restricted;
    }

    /**
     * Parses and validates a policy put on this bucket.
     *
     * @throws dev.hangar.s3api.S3Exception MalformedPolicy when the document is not a valid policy for the bucket
     */
    public static BucketPolicy parse(String json, String bucket) {
        return PolicyParser.parse(json, bucket);
    }

    /** The policy document exactly as it was put. */
    public String json() {
        return json;
    }

    /** The bucket the policy was validated for. */
    public String bucket() {
        return bucket;
    }

    /** The policy language version: {@code 2012-10-17} or {@code 2008-10-17}. */
    public String version() {
        return version;
    }

    /** The policy's {@code Id}, if it has one. */
    public @Nullable String id() {
        return id;
    }

    /**
     * The access key ids the policy names in its {@code Principal} and {@code NotPrincipal} elements.
     * AWS refuses a policy naming a principal that does not exist ({@code Invalid principal in policy});
     * the caller, which knows the keys, can check these.
     */
    public Set<String> principalIds() {
        Set<String> ids = new LinkedHashSet<>();
        statements.forEach(statement -> ids.addAll(statement.principals().accessKeyIds()));
        return Collections.unmodifiableSet(ids);
    }

    /** The number of statements. */
    public int statementCount() {
        return statements.size();
    }

    /**
     * Whether the policy is public as S3 defines it for Block Public Access and GetBucketPolicyStatus:
     * some Allow statement names everyone as its principal and no condition limits it to a source
     * address range or to fixed requesters (see {@link Statement#isPublic()}).
     */
    public boolean isPublic() {
        return statements.stream().anyMatch(Statement::isPublic);
    }

    /**
     * This policy as RestrictPublicBuckets lets it act while it is public: its Deny statements still
     * deny, its Allow statements give nothing to anonymous requests. Hangar has one account, whose
     * users are its access keys, so signed requests are never cross-account and keep what it allows.
     */
    public BucketPolicy restrictedToSignedRequests() {
        return new BucketPolicy(json, bucket, version, id, statements, true);
    }

    /**
     * What the policy says about a request, as AWS evaluates it: a matching Deny statement wins over
     * everything, else a matching Allow statement allows, else the policy does not decide.
     */
    public PolicyDecision evaluate(AccessRequest request) {
        boolean allowed = false;
        for (Statement statement : statements) {
            if (statement.applies(request)) {
                if (statement.effect() == Statement.Effect.DENY) {
                    return PolicyDecision.EXPLICIT_DENY;
                }
                allowed = allowed || !restricted || request.principal() != null;
            }
        }
        return allowed ? PolicyDecision.ALLOW : PolicyDecision.NO_MATCH;
    }

    @Override
    public String toString() {
        return "BucketPolicy[" + bucket + "]" + json;
    }
}

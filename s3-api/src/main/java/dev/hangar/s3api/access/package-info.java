/**
 * Who may do what: bucket policies, ACLs, per-bucket key permissions, and the decision that
 * combines them. Pure logic over plain values; no HTTP, no Spring, no storage.
 *
 * <p>The model, as the request handler uses it:
 * <ol>
 *   <li>{@link dev.hangar.s3api.access.ActionAndResource#of} turns the routed operation
 *       ({@code S3Operation.name()}), the bucket and the key into the IAM action and resource ARN
 *       a policy speaks of: GetObject on {@code photos/cat.jpg} is {@code s3:GetObject} on
 *       {@code arn:aws:s3:::photos/cat.jpg}.</li>
 *   <li>{@link dev.hangar.s3api.access.AccessControl#decide} weighs, in AWS's order, the bucket
 *       policy's Deny statements, the root key, the policy's Allow statements, the key's
 *       {@link dev.hangar.s3api.access.KeyPermission}, the bucket's
 *       {@link dev.hangar.s3api.access.BucketAcl} and the object's {@link dev.hangar.s3api.access.ObjectAcl}, and returns a
 *       {@link dev.hangar.s3api.access.Decision} with the rule that decided.</li>
 * </ol>
 *
 * <p>{@link dev.hangar.s3api.access.BucketPolicy#parse} validates a PutBucketPolicy document the way
 * S3 does (the same {@code MalformedPolicy} messages) and keeps its text for GetBucketPolicy;
 * {@link dev.hangar.s3api.access.BucketPolicy#evaluate} answers
 * {@link dev.hangar.s3api.access.PolicyDecision} for an {@link dev.hangar.s3api.access.AccessRequest},
 * whose context carries the request's condition keys. Statement matching, wildcards, policy variables,
 * condition operators and CIDR ranges are package-private machinery behind these types.
 *
 * <p>A bucket's ACL ({@link dev.hangar.s3api.access.BucketAcl}) and an object's
 * ({@link dev.hangar.s3api.access.ObjectAcl}) are each a canned ACL or a grant list to canonical users
 * (access keys) and groups; {@link dev.hangar.s3api.access.CannedAcl#grants} renders a canned ACL's
 * grants, and {@link dev.hangar.s3api.access.CannedAcl#matching} recognises a grant list that is one.
 *
 * <p>A bucket's {@link dev.hangar.s3api.access.PublicAccessBlock} acts before the decision: it reads
 * public grants ({@link dev.hangar.s3api.access.Grant#isPublic()}) as absent when they are
 * ignored, and restricts a public policy ({@link dev.hangar.s3api.access.BucketPolicy#isPublic()})
 * so that it gives anonymous requests nothing.
 */
@NullMarked
package dev.hangar.s3api.access;

import org.jspecify.annotations.NullMarked;

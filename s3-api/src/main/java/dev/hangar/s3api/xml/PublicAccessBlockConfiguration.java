package dev.hangar.s3api.xml;

/**
 * The document of PutPublicAccessBlock and GetPublicAccessBlock. Every element is optional in a
 * request and false when left out; a Get answers all four.
 *
 * @param blockPublicAcls refuse writes of public ACLs
 * @param ignorePublicAcls let public ACLs grant nothing
 * @param blockPublicPolicy refuse a public bucket policy
 * @param restrictPublicBuckets let a public bucket policy grant nothing to the public
 */
public record PublicAccessBlockConfiguration(
        boolean blockPublicAcls, boolean ignorePublicAcls, boolean blockPublicPolicy, boolean restrictPublicBuckets) {}

package dev.hangar.bench.profile;

import java.util.List;

/**
 * Where a CPU sample's time goes, named for the part of a request it serves: the first frame from the top of the stack
 * (the running method) down whose class one of {@link #RULES} claims. A JDK method (a hash, a map lookup, a copy)
 * thus counts for the Hangar or library code that called it.
 */
record Component(String name, List<String> classPrefixes) {
    /** In the order they are tried on each frame: the more specific first. */
    static final List<Component> RULES = List.of(
            new Component("SigV4 and other authentication", List.of("dev.hangar.s3api.auth.", "dev.hangar.s3api.post.")),
            new Component("access checks (policies, ACLs)", List.of("dev.hangar.s3api.access.")),
            new Component("XML", List.of("dev.hangar.s3api.xml.", "com.fasterxml.", "javax.xml.", "com.sun.org.apache.xerces.")),
            new Component("body checksums (MD5, CRC)", List.of("dev.hangar.s3api.checksum.")),
            new Component("encryption (SSE: AES-GCM sealing and unsealing)", List.of("dev.hangar.s3api.encryption.")),
            new Component("S3 semantics (operations, settings)", List.of("dev.hangar.s3api.semantics.",
                    "dev.hangar.s3api.lifecycle.", "dev.hangar.s3api.cors.", "dev.hangar.s3api.website.")),
            new Component("routing, request and response", List.of("dev.hangar.s3api.")),
            new Component("metadata store (RocksDB)", List.of("dev.hangar.metadata.", "org.rocksdb.")),
            new Component("block store", List.of("dev.hangar.blockstore.")),
            new Component("cluster layer", List.of("dev.hangar.cluster.")),
            new Component("distribution (admin, metrics binding)", List.of("dev.hangar.distribution.")),
            new Component("metrics (Micrometer)", List.of("io.micrometer.")),
            new Component("logging", List.of("ch.qos.logback.", "org.slf4j.", "org.apache.logging.", "java.util.logging.")),
            new Component("Spring WebFlux", List.of("org.springframework.")),
            new Component("Reactor Netty (HTTP server)", List.of("reactor.netty.")),
            new Component("Reactor (operators, schedulers)", List.of("reactor.")),
            new Component("Netty (sockets, buffers, HTTP codec)", List.of("io.netty.")));

    static final String OTHER = "JDK and other, not under any of these";

    boolean claims(String className) {
        for (String prefix : classPrefixes) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}

package dev.hangar.distribution;

import dev.hangar.s3api.web.ListenerLimits;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Hangar's configuration, under {@code hangar.}; every key can be set as an environment variable
 * ({@code HANGAR_DATA_DIR}, {@code HANGAR_S3_PORT}, ...).
 *
 * @param dataDir where metadata, blocks and the generated root key live
 * @param rootAccessKey the root access key id; when absent with its secret, one is generated on the
 *     first start, stored in the data folder and printed once
 * @param rootSecretKey the root secret key
 * @param admin the administration API on the management port
 * @param http the limits of every HTTP listener (S3, website, management)
 * @param encryption the key service's master keys (SSE-S3)
 */
@ConfigurationProperties("hangar")
public record HangarProperties(
        @DefaultValue("./data") Path dataDir,
        @Nullable String rootAccessKey,
        @Nullable String rootSecretKey,
        @DefaultValue S3 s3,
        @DefaultValue Storage storage,
        @DefaultValue Website website,
        @DefaultValue Lifecycle lifecycle,
        @DefaultValue Cluster cluster,
        @DefaultValue Admin admin,
        @DefaultValue Http http,
        @DefaultValue Encryption encryption) {

    /** Without the root secret key: records print every component, and configuration ends up in logs. */
    @Override
    public String toString() {
        return "HangarProperties[dataDir=" + dataDir + ", rootAccessKey=" + rootAccessKey + ", rootSecretKey="
                + (rootSecretKey == null ? "none" : "(hidden)") + ", s3=" + s3 + ", storage=" + storage + ", website="
                + website + ", lifecycle=" + lifecycle + ", cluster=" + cluster + ", admin=" + admin + ", http=" + http
                + ", encryption=" + encryption + "]";
    }

    /**
     * The key service's master keys, which wrap the data key of every object written with SSE-S3. They live
     * outside the data folder (a copy of the data folder alone decrypts nothing), are the same on every node of a
     * cluster, and must be backed up apart from the data: an object whose master key is lost is lost.
     *
     * @param masterKey the current master key, 256 bits in base64 (e.g. {@code openssl rand -base64 32}), for an
     *     environment secret ({@code HANGAR_ENCRYPTION_MASTER_KEY}); never logged
     * @param masterKeyFile a file holding the current master key instead (base64), outside the data folder
     * @param previousMasterKeyFiles files of earlier master keys, after a rotation: they unwrap what they wrapped,
     *     and wrap nothing new
     */
    public record Encryption(
            @Nullable String masterKey,
            @Nullable Path masterKeyFile,
            @DefaultValue List<Path> previousMasterKeyFiles) {

        /** Without the key. */
        @Override
        public String toString() {
            return "Encryption[masterKey=" + (masterKey == null ? "(none)" : "(redacted)") + ", masterKeyFile="
                    + masterKeyFile + ", previousMasterKeyFiles=" + previousMasterKeyFiles + "]";
        }
    }

    /**
     * What a connection and a listener may hold, on the S3, website and management listeners alike.
     *
     * @param idleTimeout a connection waiting this long for a request is closed
     * @param headerTimeout a request whose headers are not all there this long after its first byte is closed
     *     (slowloris)
     * @param readTimeout a request body that sends nothing for this long is abandoned
     * @param writeTimeout a response body the client takes nothing of for this long is abandoned, its
     *     connection closed
     * @param maxConnections a connection beyond this many on a listener gets {@code 503 SlowDown} for its first
     *     request and is closed; beyond a quarter more (at least 16 more) new ones are closed as they are
     *     accepted (keep that below the process's file descriptor limit)
     * @param maxConcurrentRequests requests beyond this many running at once on a listener are answered
     *     {@code 503 SlowDown}
     * @param managementMaxConcurrentRequests requests beyond this many running at once on the management
     *     listener are answered {@code 503}; its own, lower bound, for its endpoints run blocking work on a
     *     shared pool
     */
    public record Http(
            @DefaultValue("60s") Duration idleTimeout,
            @DefaultValue("30s") Duration headerTimeout,
            @DefaultValue("60s") Duration readTimeout,
            @DefaultValue("60s") Duration writeTimeout,
            @DefaultValue("4096") int maxConnections,
            @DefaultValue("1024") int maxConcurrentRequests,
            @DefaultValue("64") int managementMaxConcurrentRequests) {

        /** The limits as the S3 API module takes them. */
        public ListenerLimits limits() {
            return new ListenerLimits(idleTimeout, headerTimeout, readTimeout, writeTimeout,
                    maxConnections, maxConcurrentRequests);
        }
    }

    /**
     * The S3 listener.
     *
     * @param port the S3 port (also {@code server.port})
     * @param bindAddress the address the S3 port listens on; loopback unless set
     * @param region the region clients sign for and buckets report
     * @param domain base domain for virtual-host-style requests ({@code bucket.domain}); path-style
     *     requests always work
     * @param signatureV2 whether requests, presigned URLs and browser uploads signed with Signature Version 2
     *     are taken (as by S3's older regions and MinIO); false answers them 400 InvalidRequest, as S3's
     *     Version-4-only regions do
     * @param customerKeysOverHttp whether requests with customer-provided encryption keys (SSE-C) are taken over
     *     plain HTTP; S3 refuses them (400 InvalidRequest), and so does Hangar unless this is set (behind a proxy
     *     that terminates TLS, or in tests)
     * @param tls TLS on the S3 port
     */
    public record S3(
            @DefaultValue("9000") int port,
            @DefaultValue("127.0.0.1") String bindAddress,
            @DefaultValue("us-east-1") String region,
            @Nullable String domain,
            @DefaultValue("true") boolean signatureV2,
            @DefaultValue("false") boolean customerKeysOverHttp,
            @DefaultValue S3Tls tls) {}

    /**
     * TLS on the S3 port, from PEM files: on when both are set. The management and website ports stay plain HTTP.
     *
     * @param certificate the server's certificate chain, PEM (the server's own certificate first)
     * @param privateKey its private key, PEM (PKCS#8, or PKCS#1 RSA, or SEC 1 EC), unencrypted
     */
    public record S3Tls(@Nullable Path certificate, @Nullable Path privateKey) {}

    /**
     * Storage.
     *
     * @param inlineThreshold objects up to this size live inside their metadata record
     * @param chunkSize larger objects are cut into blocks of this size
     * @param sync {@code always}: a write is acknowledged once on stable storage; {@code batch}:
     *     written data is forced to stable storage in the background at least every {@code
     *     syncInterval} (survives a process crash; a power loss loses at most about the last
     *     interval); {@code none}: the operating system flushes when it likes (survives a process
     *     crash, not a power loss)
     * @param syncInterval with {@code sync=batch}, how often written data is forced to disk
     * @param blockCache RocksDB block cache size
     * @param reclaimInterval how often freed blocks are swept when nothing asked for it sooner
     * @param backend where blocks are kept: {@code local} (files under the data folder), {@code s3} (a bucket
     *     of another S3 service, configured under {@code hangar.storage.s3}) or {@code memory} (the heap, for
     *     tests)
     * @param s3 the remote S3 service of the {@code s3} backend
     * @param packing how the {@code local} backend packs small chunks into segment files
     * @param compactionInterval how often packed segment files whose chunks are mostly deleted are
     *     compacted; {@code 0} runs compaction only on demand
     * @param scrub the background check of every stored block
     */
    public record Storage(
            @DefaultValue("3KB") DataSize inlineThreshold,
            @DefaultValue("1MB") DataSize chunkSize,
            @DefaultValue("always") Sync sync,
            @DefaultValue("100ms") Duration syncInterval,
            @DefaultValue("64MB") DataSize blockCache,
            @DefaultValue("30s") Duration reclaimInterval,
            @DefaultValue("local") Backend backend,
            @DefaultValue RemoteS3 s3,
            @DefaultValue Packing packing,
            @DefaultValue("10m") Duration compactionInterval,
            @DefaultValue Scrub scrub) {}

    /**
     * The scrub: reads back every block that metadata references, reports corrupt and missing ones,
     * and removes blocks that nothing references.
     *
     * @param interval how often a full scrub runs, the first one an interval after start but at
     *     most an hour after it; {@code 0} runs it only on demand
     * @param rate block bytes read per second at most, so the scrub leaves the disk to clients;
     *     {@code 0} for no limit
     * @param orphanGrace a block nothing references is removed only if written at least this long
     *     before the scrub began: younger ones may belong to uploads not committed yet
     */
    public record Scrub(
            @DefaultValue("7d") Duration interval,
            @DefaultValue("16MB") DataSize rate,
            @DefaultValue("24h") Duration orphanGrace) {}

    /**
     * Packing of small chunks into segment files (the {@code local} backend).
     *
     * @param below chunks smaller than this are appended to segment files; larger ones get a file
     *     each. {@code 0} packs nothing. With the default 1 MB chunk size, every chunk but the full
     *     ones of large objects is packed.
     * @param segmentSize a segment file is sealed and a new one begun at this size
     * @param compactionThreshold share of a sealed segment's bytes that must belong to deleted
     *     chunks before compaction copies out the live ones and removes the file
     */
    public record Packing(
            @DefaultValue("1MB") DataSize below,
            @DefaultValue("256MB") DataSize segmentSize,
            @DefaultValue("0.5") double compactionThreshold) {}

    /**
     * The remote S3 service that keeps blocks with {@code hangar.storage.backend=s3}.
     *
     * @param endpoint its base URI ({@code https://s3.example.com}); absent for AWS itself
     * @param region the region requests are signed for
     * @param bucket the bucket holding the blocks, which must exist; required for this backend
     * @param prefix put before every block's key, e.g. {@code hangar/blocks/}
     * @param accessKey access key id; absent with the secret key for the AWS SDK's default credentials
     * @param secretKey secret key
     * @param pathStyle address the bucket in the path rather than in the host name, as most
     *     self-hosted services need
     */
    public record RemoteS3(
            @Nullable URI endpoint,
            @DefaultValue("us-east-1") String region,
            @Nullable String bucket,
            @Nullable String prefix,
            @Nullable String accessKey,
            @Nullable String secretKey,
            @DefaultValue("false") boolean pathStyle) {

        /** Without the secret key: records print every component. */
        @Override
        public String toString() {
            return "RemoteS3[endpoint=" + endpoint + ", region=" + region + ", bucket=" + bucket + ", prefix=" + prefix
                    + ", accessKey=" + accessKey + ", secretKey=" + (secretKey == null ? "none" : "(hidden)")
                    + ", pathStyle=" + pathStyle + "]";
        }
    }

    /** Where blocks are kept. */
    public enum Backend {
        LOCAL,
        S3,
        /** Blocks in the heap, lost when the server stops: for tests (the JUnit extension's in-memory option). */
        MEMORY
    }

    /**
     * The static website listener: anonymous GET and HEAD of buckets that have a website
     * configuration, the bucket named by the Host header ({@code bucket.<domain>}, or the whole host
     * name as a bucket name, as with a CNAME).
     *
     * @param enabled whether the listener runs
     * @param port its port
     * @param bindAddress its address; loopback unless set
     * @param domain base domain of website host names, or null
     */
    public record Website(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("9080") int port,
            @DefaultValue("127.0.0.1") String bindAddress,
            @Nullable String domain) {}

    /**
     * The lifecycle worker.
     *
     * @param interval how often every bucket's lifecycle rules are applied
     */
    public record Lifecycle(@DefaultValue("1h") Duration interval) {}

    /**
     * Clustering: this node as a node of a leaderless replicated cluster (membership, failure detection,
     * the partition layout, replicated metadata and chunks).
     *
     * @param enabled runs the control plane; also on when {@code seeds} or {@code bootstrapExpect} is set
     * @param nodeId this node's id; absent to use the one generated once and kept in the data folder
     * @param zone failure domain
     * @param capacity share of the data relative to other nodes; 0 makes a gateway
     * @param rpcPort port of the inter-node RPC server; 0 picks a free one
     * @param rpcBindAddress address the RPC server listens on
     * @param advertisedAddress {@code host} or {@code host:port} other nodes reach this one at; absent for the
     *     bind address (this host's address for a wildcard one)
     * @param seeds comma-separated {@code host:port} RPC addresses of nodes to contact first
     * @param replicationFactor copies of every partition in the layouts this node plans
     * @param consistency {@code consistent}, {@code degraded} or {@code dangerous}
     * @param bootstrapExpect when positive, the first layout forms by itself once this many storage nodes
     *     know each other
     * @param pingInterval how often every peer is pinged; a peer is suspect after 3 silent intervals, down
     *     after 10
     * @param faultInjection lets {@code POST /actuator/cluster {"action": "faults", ...}} delay this node's
     *     RPC traffic, for benchmarks and tests; never on a production node
     * @param secret the secret every node of the cluster shares (at least 16 characters); every RPC
     *     connection proves knowledge of it. Required on a cluster node, here or in {@code secretFile};
     *     never logged, and {@link #toString} hides it
     * @param secretFile a file holding the secret instead (e.g. a mounted container secret)
     * @param tls TLS on the RPC port
     * @param maxClockSkew how far ahead of this node's clock a timestamp from another node may be before
     *     it is refused
     * @param garbageGrace how long a chunk an overwrite or delete made unreachable waits before it is checked
     *     against its key again and freed
     * @param silentNodeWait while another node cannot be asked which chunks its reads hold, no chunk is freed,
     *     unless that node has been silent for longer than this (it counts as gone)
     * @param replication how metadata is replicated: {@code leaderless} (quorum writes through any node) or
     *     {@code raft} (commands through the Raft log of their bucket's group; docs/cluster.md compares them)
     * @param raft the Raft mode's settings, used with {@code replication=raft}
     */
    public record Cluster(
            @DefaultValue("false") boolean enabled,
            @Nullable String nodeId,
            @DefaultValue("default") String zone,
            @DefaultValue("1") long capacity,
            @DefaultValue("3901") int rpcPort,
            @DefaultValue("127.0.0.1") String rpcBindAddress,
            @Nullable String advertisedAddress,
            @Nullable String seeds,
            @DefaultValue("3") int replicationFactor,
            @DefaultValue("consistent") String consistency,
            @DefaultValue("0") int bootstrapExpect,
            @DefaultValue("1s") Duration pingInterval,
            @DefaultValue("false") boolean faultInjection,
            @Nullable String secret,
            @Nullable Path secretFile,
            @DefaultValue ClusterTls tls,
            @DefaultValue("1m") Duration maxClockSkew,
            @DefaultValue("1m") Duration garbageGrace,
            @DefaultValue("1h") Duration silentNodeWait,
            @DefaultValue("leaderless") String replication,
            @DefaultValue ClusterRaft raft) {

        /** Whether the control plane runs: explicitly enabled, or seeds or bootstrap-expect given. */
        public boolean active() {
            return enabled || (seeds != null && !seeds.isBlank()) || bootstrapExpect > 0;
        }

        // Everything but the secret, so that logging these settings never shows it.
        @Override
        public String toString() {
            return "Cluster[enabled=" + enabled + ", nodeId=" + nodeId + ", zone=" + zone + ", capacity=" + capacity
                    + ", rpcPort=" + rpcPort + ", rpcBindAddress=" + rpcBindAddress + ", advertisedAddress="
                    + advertisedAddress + ", seeds=" + seeds + ", replicationFactor=" + replicationFactor
                    + ", consistency=" + consistency + ", bootstrapExpect=" + bootstrapExpect + ", pingInterval="
                    + pingInterval + ", faultInjection=" + faultInjection + ", secret="
                    + (secret == null ? "(none)" : "(redacted)") + ", secretFile=" + secretFile + ", tls=" + tls
                    + ", maxClockSkew=" + maxClockSkew + ", garbageGrace=" + garbageGrace + ", silentNodeWait="
                    + silentNodeWait + ", replication=" + replication + ", raft=" + raft + "]";
        }
    }

    /**
     * The Raft mode ({@code hangar.cluster.replication=raft}).
     *
     * @param port the Raft (gRPC) port; 0 picks a free one. Other nodes ask for it over RPC, so nodes may differ
     * @param bindAddress the address it listens on; absent for the RPC bind address
     * @param reads how reads are made linearizable: {@code lease} (the leader answers under its lease, a follower
     *     asks the leader's commit index), {@code read-index} (the leader confirms its leadership each time) or
     *     {@code leader} (reads go to the leader, unchecked)
     * @param expectedRtt the round trip time expected between nodes: election timeouts are 10–20 times it, at least
     *     150 ms
     * @param snapshotEntries log entries a group member applies between two snapshots of its state; the log before
     *     a snapshot is then purged, and a member too far behind is sent the snapshot
     * @param logSegmentSize the size of a Raft log segment file (whole segments are purged)
     * @param requestDeadline how long a command or read may wait for its group (an election, a forward and its
     *     retries) before it fails with 503
     */
    public record ClusterRaft(
            @DefaultValue("3902") int port,
            @Nullable String bindAddress,
            @DefaultValue("lease") String reads,
            @DefaultValue("100ms") Duration expectedRtt,
            @DefaultValue("10000") long snapshotEntries,
            @DefaultValue("8MB") DataSize logSegmentSize,
            @DefaultValue("30s") Duration requestDeadline) {}

    /**
     * TLS on the cluster's RPC port; every node then needs it. Connections are mutually authenticated
     * by certificate and, inside TLS, still by the cluster secret.
     *
     * @param enabled whether the RPC port speaks TLS (1.3)
     * @param certificate this node's certificate chain, PEM
     * @param privateKey its private key, PEM, unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY})
     * @param trustCertificates PEM certificates that peers' certificates must chain to: the CA, or the
     *     nodes' own certificates
     */
    public record ClusterTls(
            @DefaultValue("false") boolean enabled,
            @Nullable Path certificate,
            @Nullable Path privateKey,
            @Nullable Path trustCertificates) {}

    /**
     * The administration API on the management port: who may use it, and what it takes.
     *
     * @param token the bearer token every administration request must carry; absent with {@code tokenFile}:
     *     one is generated on the first start into {@code <data-dir>/admin-token} (owner-only), never printed
     * @param tokenFile a file holding the token (a mounted secret), instead of {@code token}
     * @param openEndpoints Actuator endpoint ids readable without the token
     * @param allowedHosts host names, besides {@code localhost}, IP addresses and the management bind address,
     *     that a request's {@code Host} may name; {@code *} for any. Other names are refused (DNS rebinding).
     * @param lifecycleAsOfLimit how far ahead of now a lifecycle pass run through {@code /actuator/lifecycle}
     *     may decide what is due
     * @param console whether the management port serves the web console ({@code /console/}), whose API takes the
     *     same token
     */
    public record Admin(
            @Nullable String token,
            @Nullable Path tokenFile,
            @DefaultValue({"health", "prometheus"}) List<String> openEndpoints,
            @DefaultValue List<String> allowedHosts,
            @DefaultValue("1d") Duration lifecycleAsOfLimit,
            @DefaultValue("true") boolean console) {

        /** Without the token: records print every component. */
        @Override
        public String toString() {
            return "Admin[token=" + (token == null ? "none" : "(hidden)") + ", tokenFile=" + tokenFile
                    + ", openEndpoints=" + openEndpoints + ", allowedHosts=" + allowedHosts
                    + ", lifecycleAsOfLimit=" + lifecycleAsOfLimit + ", console=" + console + "]";
        }
    }

    /** The durability policy. */
    public enum Sync {
        ALWAYS,
        BATCH,
        NONE
    }
}

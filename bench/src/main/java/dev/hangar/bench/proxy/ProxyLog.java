package dev.hangar.bench.proxy;

/** Where a {@link ProxyServer} reports what happens: every connection's life, and what it had to refuse. */
public interface ProxyLog {

    /** A connection opened, closed or was reset (a reset is normal when a node is killed). */
    void connection(String event);

    /** A connection refused (connection limit, target unreachable) or a listener failing. */
    void problem(String event);

    static ProxyLog silent() {
        return new ProxyLog() {
            @Override
            public void connection(String event) {
            }

            @Override
            public void problem(String event) {
            }
        };
    }
}

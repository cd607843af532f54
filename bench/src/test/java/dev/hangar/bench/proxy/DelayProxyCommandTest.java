package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** The command line: options become the configuration the docs describe; mistakes are refused before anything listens. */
@Timeout(10)
class DelayProxyCommandTest {

    private static ProxyConfig parse(String... args) {
        DelayProxy command = new DelayProxy();
        DelayProxy.commandLine(command).parseArgs(args);
        return command.config();
    }

    @Test
    void theLabsCommandLineForANodeOfZoneOne() throws Exception {
        ProxyConfig config = parse("--listen", "3901=node1:3901", "--listen", "3902=node1:3902", "--listen", "4000=gw:3901@z0",
            "--target-zone", "z1", "--zone-of", "10.0.1.0/24=z1", "--zone-of", "10.0.2.0/24=z2", "--zone-of", "gateway=z0",
            "--delay", "z1:z1=0.5ms", "--delay", "z1:z2=50ms±10ms", "--delay", "z2->z1=40ms", "--default-delay", "50ms+-10ms",
            "--max-in-flight", "8MiB", "--seed", "5");
        assertThat(config.listeners()).containsExactly(new ListenerSpec(3901, "node1", 3901, "z1"),
            new ListenerSpec(3902, "node1", 3902, "z1"), new ListenerSpec(4000, "gw", 3901, "z0"));
        assertThat(config.zones().zoneOf(InetAddress.getByName("10.0.2.3"))).isEqualTo("z2");
        assertThat(config.zones().zoneOf(InetAddress.getByName("172.17.0.9"))).isEqualTo("unknown");
        assertThat(config.delays().between("z1", "z1")).hasToString("500us");
        assertThat(config.delays().between("z1", "z2")).hasToString("50ms±10ms");
        assertThat(config.delays().between("z2", "z1")).hasToString("40ms");
        assertThat(config.delays().between("z3", "z1")).hasToString("50ms±10ms");
        assertThat(config.bindAddress().isAnyLocalAddress()).isTrue();
        assertThat(config.maxInFlightBytes()).isEqualTo(8 * 1024 * 1024);
        assertThat(config.chunkBytes()).isEqualTo(ProxyConfig.DEFAULT_CHUNK_BYTES);
        assertThat(config.maxConnections()).isEqualTo(ProxyConfig.DEFAULT_MAX_CONNECTIONS);
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.seed()).isEqualTo(5);
    }

    @Test
    void normalJitterAndLimits() {
        ProxyConfig config = parse("--listen", "3901=node1:3901@z1", "--default-delay", "50ms+-10ms", "--jitter", "NORMAL",
            "--chunk", "16KiB", "--max-connections", "64", "--connect-timeout", "500ms", "--bind", "127.0.0.1");
        assertThat(config.delays().between("a", "b").shape()).isEqualTo(Jitter.NORMAL);
        assertThat(config.chunkBytes()).isEqualTo(16 * 1024);
        assertThat(config.maxConnections()).isEqualTo(64);
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.bindAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void mistakesAreParameterErrorsThatNameTheCulprit() {
        assertThatThrownBy(() -> parse("--listen", "3901=node1:3901")).isInstanceOf(CommandLine.ParameterException.class)
            .hasMessageContaining("--target-zone");
        assertThatThrownBy(() -> parse("--listen", "3901=node1:3901@z1", "--delay", "z1:z2=5"))
            .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("unit");
        assertThatThrownBy(() -> parse("--listen", "3901=node1:3901@z1", "--max-in-flight", "16KiB"))
            .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("below one chunk");
        assertThatThrownBy(() -> parse("--target-zone", "z1")).isInstanceOf(CommandLine.MissingParameterException.class);
    }

    @Test
    void helpDescribesTheSyntax() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = DelayProxy.commandLine(new DelayProxy());
        commandLine.setOut(new PrintWriter(out));
        assertThat(commandLine.execute("--help")).isZero();
        assertThat(out.toString()).contains("--listen=PORT=HOST:PORT[@ZONE]", "--zone-of=ADDRESS=ZONE", "--delay=A:B=DELAY", "50ms+-10ms");
    }
}

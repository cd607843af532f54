package dev.hangar.distribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;

/**
 * What {@code java -jar hangar.jar} does with its arguments before anything starts: {@code admin ...} runs an
 * administration command against a running server ({@link AdminCommand}), {@code --help} and {@code --version}
 * print and exit, a word that is not an option is refused (Spring would ignore it and start
 * a server), and anything else — {@code --key=value} settings — goes to the server.
 */
final class CommandLine {
    /** The exit status of a refused command line, as getopt-style tools use. */
    static final int USAGE_ERROR = 2;

    private CommandLine() {}

    /**
     * Answers the arguments that ask for no server.
     *
     * @return the exit status when the arguments were answered here; empty when the server should start
     */
    static OptionalInt answer(String[] args, PrintStream out, PrintStream err) {
        List<String> arguments = Arrays.asList(args);
        if (!arguments.isEmpty() && arguments.get(0).equals("admin")) {
            return OptionalInt.of(AdminCommand.run(arguments.subList(1, arguments.size()), System.getenv(), out, err));
        }
        if (arguments.contains("--help") || arguments.contains("-h")) {
            out.print(usage());
            return OptionalInt.of(0);
        }
        if (arguments.contains("--version")) {
            out.println("Hangar " + version());
            return OptionalInt.of(0);
        }
        for (String argument : arguments) {
            if (!argument.startsWith("--")) {
                err.println("hangar: unknown command or argument '" + argument + "': settings are given as --key=value; "
                        + "see --help");
                return OptionalInt.of(USAGE_ERROR);
            }
        }
        return OptionalInt.empty();
    }

    /** The version the build wrote into META-INF/build-info.properties, or "(unknown version)" outside a build. */
    static String version() {
        try (InputStream in = CommandLine.class.getResourceAsStream("/META-INF/build-info.properties")) {
            if (in == null) {
                return "(unknown version)";
            }
            Properties info = new Properties();
            info.load(in);
            return info.getProperty("build.version", "(unknown version)");
        } catch (IOException e) {
            return "(unknown version)";
        }
    }

    static String usage() {
        return """
                Usage: java -jar hangar.jar [--<setting>=<value> ...]
                       java -jar hangar.jar admin <command>      (java -jar hangar.jar admin --help)
                       java -jar hangar.jar --help | --version

                Starts Hangar, an S3-compatible object store: the S3 API on 127.0.0.1:9000, health, metrics and
                administration on 127.0.0.1:9001, data in ./data. The first start prints a generated root key pair.

                Every setting is a Spring Boot property: an argument (--hangar.s3.port=9100), an environment variable
                (HANGAR_S3_PORT=9100) or a line of application.yml. docs/configuration.md lists them all; often used:
                  --hangar.data-dir=<folder>             where everything is stored (./data)
                  --hangar.s3.port=<port>                the S3 API (9000; 0 picks a free port)
                  --hangar.s3.bind-address=<address>     127.0.0.1; 0.0.0.0 takes remote clients
                  --hangar.s3.tls.certificate=<pem> --hangar.s3.tls.private-key=<pem>   https on the S3 port
                  --hangar.management.port=<port>        health, metrics and administration (9001)
                  --hangar.root-access-key=<id> --hangar.root-secret-key=<secret>   the root key, instead of a generated one
                  --hangar.storage.sync=always|batch|none  durability (always: every acknowledged write is on disk)

                Options:
                  -h, --help      print this and exit
                  --version       print the version and exit
                """;
    }
}

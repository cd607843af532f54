package dev.hangar.bench.consensus;

import java.util.Arrays;
import java.util.Optional;

/**
 * The S3 requests the lab measures, named as {@link ConsensusBenchmark}'s methods, with what decides the rounds
 * they pay: whether they submit a command or read, and how many bucket settings reads the S3 layer makes for them
 * ({@link SmallObjectRequests}).
 */
enum Operation {
    PUT("putObject", true, 5),
    CONDITIONAL_PUT("conditionalPutObject", true, 5),
    GET("getObject", false, 3),
    HEAD("headObject", false, 3),
    LIST("listObjectsV2", false, 3),
    DELETE("deleteObject", true, 4);

    private final String method;
    private final boolean command;
    private final int settingsReads;

    Operation(String method, boolean command, int settingsReads) {
        this.method = method;
        this.command = command;
        this.settingsReads = settingsReads;
    }

    /** The operation a benchmark method measures. */
    static Optional<Operation> ofMethod(String method) {
        return Arrays.stream(values()).filter(operation -> operation.method.equals(method)).findFirst();
    }

    String method() {
        return method;
    }

    /** Whether its object call is a metadata command (else a read). */
    boolean isCommand() {
        return command;
    }

    /** How many bucket settings reads the S3 layer makes around its object call. */
    int settingsReads() {
        return settingsReads;
    }
}

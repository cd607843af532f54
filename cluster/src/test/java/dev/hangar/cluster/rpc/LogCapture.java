package dev.hangar.cluster.rpc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects what one java.util.logging logger logs while open, for tests that check a warning was given. */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
    }

    /** Starts collecting the records of the logger named after {@code type}. */
    public static LogCapture of(Class<?> type) {
        LogCapture capture = new LogCapture(Logger.getLogger(type.getName()));
        capture.logger.addHandler(capture);
        return capture;
    }

    /** The messages of the warnings (and worse) collected so far. */
    public List<String> warnings() {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogRecord::getMessage).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}

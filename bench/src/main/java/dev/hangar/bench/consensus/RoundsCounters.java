package dev.hangar.bench.consensus;

import java.util.Locale;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The rounds the coordinator counted for the requests of a benchmark, as JMH secondary results beside the latency
 * ({@code ConsensusBenchmark.putObject:objectRounds}, ...). They are events, which JMH sums over the measurement
 * iterations (and threads): rounds per request is {@code objectRounds / requests}, which {@link ConsensusTable}
 * computes. At the end of a trial the distribution over the measured requests is also printed, one line, since a
 * mean can hide requests that paid more (a forward, a retry).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class RoundsCounters {
    /** Requests made in the iteration. */
    public long requests;
    /** Rounds of their object calls (the command or the object read). */
    public long objectRounds;
    /** Rounds of the bucket settings reads before and after them. */
    public long settingsRounds;

    private boolean measuring;
    private long measured;
    private long objectTotal;
    private long settingsTotal;
    private int objectMin = Integer.MAX_VALUE;
    private int objectMax;
    private int settingsMin = Integer.MAX_VALUE;
    private int settingsMax;
    private int blocksMax;

    @Setup(Level.Iteration)
    public void startIteration(IterationParams iteration) {
        requests = 0;
        objectRounds = 0;
        settingsRounds = 0;
        measuring = iteration.getType() == IterationType.MEASUREMENT;
    }

    /** Counts one request's rounds and hands back its result. */
    <T> T count(Served<T> served) {
        requests++;
        objectRounds += served.objectRounds();
        settingsRounds += served.settingsRounds();
        if (measuring) {
            measured++;
            objectTotal += served.objectRounds();
            settingsTotal += served.settingsRounds();
            objectMin = Math.min(objectMin, served.objectRounds());
            objectMax = Math.max(objectMax, served.objectRounds());
            settingsMin = Math.min(settingsMin, served.settingsRounds());
            settingsMax = Math.max(settingsMax, served.settingsRounds());
            blocksMax = Math.max(blocksMax, served.blockRounds());
        }
        return served.result();
    }

    @TearDown(Level.Trial)
    public void report(BenchmarkParams benchmark) {
        if (measured == 0) {
            return;
        }
        String method = benchmark.getBenchmark().substring(benchmark.getBenchmark().lastIndexOf('.') + 1);
        StringBuilder params = new StringBuilder();
        for (String key : benchmark.getParamsKeys()) {
            params.append(' ').append(key).append('=').append(benchmark.getParam(key));
        }
        System.out.println(String.format(Locale.ROOT,
                "rounds %s%s: %d measured requests; object %.2f (min %d, max %d); settings %.2f (min %d, max %d);"
                        + " block rounds at most %d",
                method, params, measured, (double) objectTotal / measured, objectMin, objectMax,
                (double) settingsTotal / measured, settingsMin, settingsMax, blocksMax));
    }
}

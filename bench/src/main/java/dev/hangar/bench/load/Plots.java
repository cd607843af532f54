package dev.hangar.bench.load;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Plots written with XChart, as PNG or SVG according to the file's extension. */
public final class Plots {

    /** Percentiles that draw a latency distribution: dense in the body, then into the tail. */
    private static final double[] CDF_PERCENTILES = cdfPercentiles();

    private Plots() {
    }

    /** Checks, before any load runs, that the plot file can be written in a known format. */
    static void checkFormat(Path file) {
        format(file);
    }

    /** One line of {@code y} against {@code x}, with markers. */
    public static void line(Path file, String title, String xTitle, String yTitle, String series, double[] x, double[] y)
        throws IOException {
        XYChart chart = chart(title, xTitle, yTitle);
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setYAxisMin(0.0);
        XYSeries line = chart.addSeries(series, x, y);
        line.setMarker(SeriesMarkers.CIRCLE);
        save(chart, file);
    }

    /**
     * Several lines of y against x, one per entry of {@code xyBySeries} ({@code {x[], y[]}}), with
     * markers; the series named {@code reference} (if any) is drawn as a plain line, a guide.
     */
    public static void lines(Path file, String title, String xTitle, String yTitle, Map<String, double[][]> xyBySeries,
        String reference) throws IOException {
        XYChart chart = chart(title, xTitle, yTitle);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisMin(0.0);
        for (Map.Entry<String, double[][]> entry : xyBySeries.entrySet()) {
            XYSeries series = chart.addSeries(entry.getKey(), entry.getValue()[0], entry.getValue()[1]);
            series.setMarker(entry.getKey().equals(reference) ? SeriesMarkers.NONE : SeriesMarkers.CIRCLE);
        }
        save(chart, file);
    }

    /**
     * Latency distributions as cumulative curves: for each series, the fraction of requests (y, in
     * percent) that took at most x milliseconds, x on a logarithmic axis.
     */
    static void latencyCdf(Path file, String title, Map<String, Histogram> microsBySeries) throws IOException {
        XYChart chart = chart(title, "latency (ms, log scale)", "requests at or below (%)");
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        boolean any = false;
        for (Map.Entry<String, Histogram> entry : microsBySeries.entrySet()) {
            Histogram histogram = entry.getValue();
            if (histogram.getTotalCount() == 0) {
                continue;
            }
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (double percentile : CDF_PERCENTILES) {
                xs.add(Math.max(0.001, histogram.getValueAtPercentile(percentile) / 1_000.0));
                ys.add(percentile);
            }
            XYSeries series = chart.addSeries(entry.getKey(), xs, ys);
            series.setMarker(SeriesMarkers.NONE);
            any = true;
        }
        if (!any) {
            chart.addSeries("no data", new double[] {1}, new double[] {0});
        }
        save(chart, file);
    }

    private static XYChart chart(String title, String xTitle, String yTitle) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        XYChart chart = new XYChartBuilder().width(900).height(540).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
        return chart;
    }

    private static void save(XYChart chart, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        String format = format(file);
        try (OutputStream out = Files.newOutputStream(file)) {
            if (format.equals("png")) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            } else {
                VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            }
        }
    }

    private static String format(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".png")) {
            return "png";
        }
        if (name.endsWith(".svg")) {
            return "svg";
        }
        throw new IllegalArgumentException("a plot is written as .png or .svg, not " + file);
    }

    private static double[] cdfPercentiles() {
        List<Double> percentiles = new ArrayList<>();
        for (int p = 0; p < 90; p++) {
            percentiles.add((double) p);
        }
        for (double p = 90; p < 99; p += 0.25) {
            percentiles.add(p);
        }
        for (double p = 99; p < 99.9; p += 0.05) {
            percentiles.add(p);
        }
        percentiles.add(99.9);
        percentiles.add(99.99);
        percentiles.add(100.0);
        return percentiles.stream().mapToDouble(Double::doubleValue).toArray();
    }
}

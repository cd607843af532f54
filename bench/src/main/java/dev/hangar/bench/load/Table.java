package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A fixed-width text table: the first column left-aligned, the others right-aligned. */
final class Table {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(List<String> headers) {
        this.headers = List.copyOf(headers);
    }

    Table row(List<String> cells) {
        if (cells.size() != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells, got " + cells.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    void print(PrintWriter out) {
        int[] widths = new int[headers.size()];
        for (int column = 0; column < widths.length; column++) {
            widths[column] = headers.get(column).length();
            for (List<String> row : rows) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        printRow(out, headers, widths);
        StringBuilder rule = new StringBuilder();
        for (int column = 0; column < widths.length; column++) {
            rule.append(column == 0 ? "" : "  ").append("-".repeat(widths[column]));
        }
        out.println(rule);
        for (List<String> row : rows) {
            printRow(out, row, widths);
        }
        out.flush();
    }

    private static void printRow(PrintWriter out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int column = 0; column < widths.length; column++) {
            String format = column == 0 ? "%-" + widths[column] + "s" : "  %" + widths[column] + "s";
            line.append(String.format(Locale.ROOT, format, cells.get(column)));
        }
        out.println(line.toString().stripTrailing());
    }

    /** A number with a fixed count of decimals, whatever the default locale. */
    static String decimal(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}

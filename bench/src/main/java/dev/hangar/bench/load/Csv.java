package dev.hangar.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Comma-separated values with a header line; the cells written here never need quoting. */
public final class Csv {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public Csv(List<String> header) {
        this.header = List.copyOf(header);
    }

    public Csv row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    /** The rows of a file {@link #write} wrote, each by its header's names; a row with another cell count is refused. */
    public static List<Map<String, String>> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> header = List.of(lines.getFirst().split(",", -1));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            if (cells.length != header.size()) {
                throw new IllegalArgumentException(file + ": " + cells.length + " cells where the header has "
                        + header.size() + ": " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < cells.length; i++) {
                row.put(header.get(i), cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    public void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(String.join(",", header));
        for (List<String> row : rows) {
            lines.add(String.join(",", row));
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}

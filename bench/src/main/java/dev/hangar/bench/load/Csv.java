package dev.hangar.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

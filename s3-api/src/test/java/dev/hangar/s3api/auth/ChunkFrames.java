package dev.hangar.s3api.auth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Splits an aws-chunked body as the SDK wrote it into its frames (each data chunk with its header line and
 * CRLF, then the final chunk with the trailers), so tests can drop, repeat or alter frames.
 */
record ChunkFrames(List<byte[]> dataFrames, byte[] ending) {

    static ChunkFrames split(byte[] body) {
        List<byte[]> frames = new ArrayList<>();
        int position = 0;
        while (true) {
            int lineEnd = indexOfCrLf(body, position);
            String header = new String(body, position, lineEnd - position, StandardCharsets.ISO_8859_1);
            int size = Integer.parseInt(header.split(";")[0], 16);
            if (size == 0) {
                return new ChunkFrames(frames, Arrays.copyOfRange(body, position, body.length));
            }
            int frameEnd = lineEnd + 2 + size + 2;
            frames.add(Arrays.copyOfRange(body, position, frameEnd));
            position = frameEnd;
        }
    }

    byte[] join() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        dataFrames.forEach(out::writeBytes);
        out.writeBytes(ending);
        return out.toByteArray();
    }

    String endingText() {
        return new String(ending, StandardCharsets.ISO_8859_1);
    }

    ChunkFrames withEnding(String text) {
        return new ChunkFrames(dataFrames, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    ChunkFrames withoutFrame(int index) {
        List<byte[]> frames = new ArrayList<>(dataFrames);
        frames.remove(index);
        return new ChunkFrames(frames, ending);
    }

    ChunkFrames swapped(int first, int second) {
        List<byte[]> frames = new ArrayList<>(dataFrames);
        Collections.swap(frames, first, second);
        return new ChunkFrames(frames, ending);
    }

    private static int indexOfCrLf(byte[] body, int from) {
        for (int index = from; index + 1 < body.length; index++) {
            if (body[index] == '\r' && body[index + 1] == '\n') {
                return index;
            }
        }
        throw new IllegalArgumentException("no CRLF after " + from);
    }
}

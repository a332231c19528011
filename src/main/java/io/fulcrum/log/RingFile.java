package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A ring's {@code backing-file}: a file of the ring's size, mapped in memory, that holds a copy of the ring's
 * messages so that they can be read after the process stops. As HAProxy's, it starts with a header of
 * {@link #HEADER} bytes (which the ring's storage loses), then the messages, oldest overwritten first. Fulcrum's
 * layout is its own (HAProxy's is its internal ring structure): the header is
 * {@code "FULCRUM-RING-01\n"}, then the area's size, the absolute positions of the oldest byte kept and of the end
 * (each a 64-bit big-endian number); the area holds each message followed by a newline, from
 * {@code head % size} to {@code end % size}, wrapping around. Written by the log sender thread only, under the
 * ring's lock.
 */
final class RingFile {
    /** What the header takes from the ring's size, as HAProxy's struct ring does. */
    static final int HEADER = 72;
    private static final byte[] MAGIC = "FULCRUM-RING-01\n".getBytes(StandardCharsets.US_ASCII);

    private final MappedByteBuffer map;
    private final long area;
    private long head;
    private long end;

    private RingFile(MappedByteBuffer map, long area) {
        this.map = map;
        this.area = area;
        map.put(0, MAGIC).putLong(16, area);
        positions();
    }

    /**
     * Prepares the file of ring {@code ring} as HAProxy does when it reads the line: an existing non-empty file is
     * kept as {@code <path>.bak} (an older .bak goes), then a new one of {@code size} bytes is made, mode 0600.
     */
    static void create(Path path, long size, String ring) throws ConfigException {
        try {
            if (path.toString().isEmpty()) {
                throw new NoSuchFileException("");
            }
            if (Files.isRegularFile(path) && Files.size(path) > 0) {
                Files.move(path, Path.of(path + ".bak"), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.deleteIfExists(path);
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                ch.truncate(0).write(java.nio.ByteBuffer.allocate(1), size - 1);
            }
        } catch (IOException e) {
            throw new ConfigException("cannot open backing-file '" + path + "' for ring '" + ring + "': " + reason(e) + ".");
        }
    }

    /** Maps the file {@link #create} made, of {@code size} bytes. */
    static RingFile open(Path path, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new RingFile(ch.map(FileChannel.MapMode.READ_WRITE, 0, size), size - HEADER);
        }
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        return e.getMessage();
    }

    /** The oldest message, {@code length} bytes long, left the ring. */
    void evicted(int length) {
        head += length + 1;
        positions();
    }

    /** A new message. */
    void append(byte[] data, int length) {
        for (int i = 0; i <= length; i++) {
            map.put((int) (HEADER + end++ % area), i < length ? data[i] : (byte) '\n');
        }
        positions();
    }

    private void positions() {
        map.putLong(24, head).putLong(32, end);
    }
}

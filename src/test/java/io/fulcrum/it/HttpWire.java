package io.fulcrum.it;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * HTTP/1.1 as the tests see it on the wire, written independently of Fulcrum's parser: a head read line by
 * line, its fields in order as received (names as written), and body decoders (Content-Length, chunked with
 * trailers, until close) that count and checksum what they deliver. Strict where it matters to the tests: a
 * line must end with CRLF, a chunk's data with CRLF, and EOF inside a message is an error.
 */
final class HttpWire {
    private HttpWire() {
    }

    /** A field as received. */
    record Field(String name, String value) {
        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    /** A start line and fields; {@code raw} is the head's bytes as received, the empty line included. */
    record Head(String startLine, List<Field> fields, String raw) {
        /** The value of the first field named {@code name} (any case), or null. */
        String get(String name) {
            for (Field f : fields) {
                if (f.name.equalsIgnoreCase(name)) {
                    return f.value;
                }
            }
            return null;
        }

        /** All the values of the fields named {@code name}. */
        List<String> all(String name) {
            List<String> v = new ArrayList<>();
            for (Field f : fields) {
                if (f.name.equalsIgnoreCase(name)) {
                    v.add(f.value);
                }
            }
            return v;
        }

        boolean has(String name) {
            return get(name) != null;
        }

        /** The names of the fields, lower-cased, in order. */
        List<String> names() {
            return fields.stream().map(f -> f.name.toLowerCase(Locale.ROOT)).toList();
        }

        /** Whether a Connection field lists {@code token}. */
        boolean connectionHas(String token) {
            for (String v : all("connection")) {
                for (String t : v.split(",")) {
                    if (t.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
            return false;
        }

        String version() {
            String[] p = startLine.split(" ", 3);
            return p[0].startsWith("HTTP/") ? p[0] : p[2];
        }
    }

    /** Reads a line ending with CRLF (returned without it); null on EOF before any byte. */
    static String readLine(InputStream in, ByteArrayOutputStream raw) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        int c;
        while ((c = in.read()) >= 0) {
            raw.write(c);
            if (c == '\n') {
                byte[] b = line.toByteArray();
                if (b.length == 0 || b[b.length - 1] != '\r') {
                    throw new IOException("line not ended by CRLF: '" + text(b) + "'");
                }
                return new String(b, 0, b.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(c);
            if (line.size() > 65536) {
                throw new IOException("line longer than 64 KiB");
            }
        }
        if (line.size() == 0) {
            return null;
        }
        throw new EOFException("EOF inside a line: '" + line.toString(StandardCharsets.ISO_8859_1) + "'");
    }

    /** Reads a head; null on EOF before its first byte. */
    static Head readHead(InputStream in) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream(512);
        String start = readLine(in, raw);
        if (start == null) {
            return null;
        }
        List<Field> fields = readFields(in, raw);
        return new Head(start, fields, raw.toString(StandardCharsets.ISO_8859_1));
    }

    /** Field lines up to the empty line (a head's or a trailer section's). */
    static List<Field> readFields(InputStream in, ByteArrayOutputStream raw) throws IOException {
        List<Field> fields = new ArrayList<>();
        while (true) {
            String line = readLine(in, raw);
            if (line == null) {
                throw new EOFException("EOF inside a header section");
            }
            if (line.isEmpty()) {
                return fields;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("not a field line: '" + line + "'");
            }
            fields.add(new Field(line.substring(0, colon), line.substring(colon + 1).trim()));
        }
    }

    /**
     * A body being read: delivers the decoded bytes, counts them and checksums them; {@link #trailers()}
     * once the end was reached. Reading it to its end leaves the stream at the next message.
     */
    static final class Body extends InputStream {
        private final InputStream in;
        /** Bytes left (fixed length) or in the current chunk; -1: until close. */
        private long left;
        private final boolean chunked;
        private boolean ended;
        private long count;
        private final CRC32 crc = new CRC32();
        private List<Field> trailers = List.of();
        private final ByteArrayOutputStream framing = new ByteArrayOutputStream();

        private Body(InputStream in, long length, boolean chunked) {
            this.in = in;
            this.chunked = chunked;
            this.left = chunked ? 0 : length;
            this.ended = !chunked && length == 0;
        }

        static Body fixed(InputStream in, long length) {
            return new Body(in, length, false);
        }

        static Body chunked(InputStream in) {
            return new Body(in, 0, true);
        }

        static Body untilClose(InputStream in) {
            return new Body(in, -1, false);
        }

        static Body none(InputStream in) {
            return new Body(in, 0, false);
        }

        @Override
        public int read() throws IOException {
            byte[] b = new byte[1];
            int n = read(b, 0, 1);
            return n < 0 ? -1 : b[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (true) {
                if (ended) {
                    return -1;
                }
                if (chunked && left == 0) {
                    nextChunk();
                    continue;
                }
                int want = left < 0 ? len : (int) Math.min(len, left);
                int n = in.read(b, off, want);
                if (n < 0) {
                    if (left < 0) {
                        ended = true;
                        return -1;
                    }
                    throw new EOFException("EOF with " + left + " body bytes missing (after " + count + ")");
                }
                if (left > 0) {
                    left -= n;
                    if (left == 0 && !chunked) {
                        ended = true;
                    }
                    if (left == 0 && chunked) {
                        expectCrlf();
                    }
                }
                count += n;
                crc.update(b, off, n);
                return n;
            }
        }

        private void expectCrlf() throws IOException {
            int cr = in.read();
            int lf = in.read();
            if (cr != '\r' || lf != '\n') {
                throw new IOException("chunk data not followed by CRLF: " + cr + " " + lf);
            }
        }

        private void nextChunk() throws IOException {
            String line = readLine(in, framing);
            if (line == null) {
                throw new EOFException("EOF before a chunk size");
            }
            int semi = line.indexOf(';');
            String size = (semi >= 0 ? line.substring(0, semi) : line).trim();
            long n = Long.parseLong(size, 16);
            if (n == 0) {
                trailers = readFields(in, framing);
                ended = true;
            } else {
                left = n;
            }
        }

        /** Reads to the end, discarding; returns the body's length. */
        long drain() throws IOException {
            byte[] b = new byte[64 * 1024];
            while (read(b, 0, b.length) >= 0) {
                // counted by read
            }
            return count;
        }

        byte[] readAllBody() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] b = new byte[64 * 1024];
            int n;
            while ((n = read(b, 0, b.length)) >= 0) {
                out.write(b, 0, n);
            }
            return out.toByteArray();
        }

        boolean ended() {
            return ended;
        }

        long count() {
            return count;
        }

        long crc() {
            return crc.getValue();
        }

        List<Field> trailers() {
            return trailers;
        }
    }

    /**
     * The body that follows a request head: chunked if Transfer-Encoding says so, else Content-Length, else
     * none (RFC 9112 6.3 for requests).
     */
    static Body requestBody(InputStream in, Head h) {
        String te = h.get("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            return Body.chunked(in);
        }
        String cl = h.get("content-length");
        return cl != null ? Body.fixed(in, Long.parseLong(cl.trim())) : Body.none(in);
    }

    /** The body that follows a response head to a {@code method} request (RFC 9112 6.3). */
    static Body responseBody(InputStream in, Head h, String method) {
        int status = status(h);
        if (method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304) {
            return Body.none(in);
        }
        String te = h.get("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            return Body.chunked(in);
        }
        String cl = h.get("content-length");
        return cl != null ? Body.fixed(in, Long.parseLong(cl.trim())) : Body.untilClose(in);
    }

    static int status(Head h) {
        return Integer.parseInt(h.startLine.split(" ", 3)[1]);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}

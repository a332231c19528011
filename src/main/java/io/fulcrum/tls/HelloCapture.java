package io.fulcrum.tls;

import io.fulcrum.sample.Hashes;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * What {@code tune.ssl.capture-buffer-size} keeps of a client's ClientHello for the {@code ssl_fc_cipherlist_*},
 * {@code ssl_fc_extlist_bin}, {@code ssl_fc_eclist_bin}, {@code ssl_fc_ecformats_bin} and
 * {@code ssl_fc_protocol_hello_id} fetches (JA3 fingerprints). As in HAProxy the lists share the buffer, in that
 * order: the cipher suites, the extension types (whole ones), the supported groups, the point formats, each cut to
 * what is left; the hash covers the whole cipher list. Read from the first TLS record of the connection.
 */
record HelloCapture(int version, byte[] ciphers, long ciphersHash, byte[] extensions, byte[] groups, byte[] formats) {
    private static final int SUPPORTED_GROUPS = 10;
    private static final int POINT_FORMATS = 11;
    /** A record's header, and the most a record carries. */
    private static final int HEADER = 5;
    private static final int MAX_RECORD = 16384 + 2048;

    /**
     * Gathers the first record of a connection from the bytes as they arrive (on its event loop), then parses it.
     * Costs nothing once done.
     */
    static final class Collector {
        private final int size;
        private byte[] bytes = new byte[512];
        private int length;
        private boolean done;
        HelloCapture capture;

        Collector(int size) {
            this.size = size;
        }

        void read(ByteBuf b) {
            if (done) {
                return;
            }
            int want = Math.min(b.readableBytes(), MAX_RECORD + HEADER - length);
            if (length + want > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + want));
            }
            b.getBytes(b.readerIndex(), bytes, length, want);
            length += want;
            if (length >= HEADER) {
                int record = HEADER + ((bytes[3] & 0xff) << 8 | bytes[4] & 0xff);
                if (bytes[0] != 0x16 || length >= record || length >= MAX_RECORD + HEADER) {
                    done = true;
                    capture = parse(bytes, Math.min(length, record), size);
                    bytes = null;
                }
            }
        }
    }

    /** The capture of a ClientHello record ({@code end}: where its bytes end), or null when it is not one. */
    static HelloCapture parse(byte[] b, int end, int size) {
        try {
            if (b[0] != 0x16 || b[5] != 1) {
                return null;
            }
            int version = u16(b, 9, end);
            int at = 11 + 32; // the record, the handshake's header, the version, the random
            at += 1 + u8(b, at, end); // the session id
            int cipherLength = u16(b, at, end);
            at += 2;
            check(at + cipherLength, end);
            long hash = Hashes.xxh64(b, at, cipherLength, 0);
            int budget = size;
            byte[] ciphers = Arrays.copyOfRange(b, at, at + Math.min(budget, cipherLength));
            budget -= ciphers.length;
            at += cipherLength;
            at += 1 + u8(b, at, end); // the compression methods
            byte[] types = new byte[0];
            byte[] groups = new byte[0];
            byte[] formats = new byte[0];
            if (at + 2 <= end) {
                int extEnd = Math.min(end, at + 2 + u16(b, at, end));
                types = new byte[Math.max(0, budget) / 2 * 2];
                int typeCount = 0;
                int groupsAt = -1;
                int formatsAt = -1;
                for (at += 2; at + 4 <= extEnd; at += 4 + u16(b, at + 2, end)) {
                    int type = u16(b, at, end);
                    if (typeCount + 2 <= types.length) {
                        types[typeCount++] = b[at];
                        types[typeCount++] = b[at + 1];
                    }
                    if (type == SUPPORTED_GROUPS) {
                        groupsAt = at + 4;
                    } else if (type == POINT_FORMATS) {
                        formatsAt = at + 4;
                    }
                }
                types = Arrays.copyOf(types, typeCount);
                budget -= typeCount;
                if (groupsAt >= 0) {
                    int n = Math.min(Math.max(0, budget), u16(b, groupsAt, end));
                    groups = Arrays.copyOfRange(b, groupsAt + 2, check(groupsAt + 2 + n, end));
                    budget -= n;
                }
                if (formatsAt >= 0) {
                    int n = Math.min(Math.max(0, budget), u8(b, formatsAt, end));
                    formats = Arrays.copyOfRange(b, formatsAt + 1, check(formatsAt + 1 + n, end));
                }
            }
            return new HelloCapture(version, ciphers, hash, types, groups, formats);
        } catch (IndexOutOfBoundsException e) {
            return null; // a truncated or broken ClientHello: nothing captured
        }
    }

    private static int check(int at, int end) {
        if (at > end) {
            throw new IndexOutOfBoundsException(at);
        }
        return at;
    }

    private static int u8(byte[] b, int at, int end) {
        check(at + 1, end);
        return b[at] & 0xff;
    }

    private static int u16(byte[] b, int at, int end) {
        check(at + 2, end);
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }
}

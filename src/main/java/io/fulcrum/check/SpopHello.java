package io.fulcrum.check;

import io.fulcrum.check.CheckRule.Verdict;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * The agent's answer to {@code spop-check}'s HAPROXY-HELLO (SPOE.txt 3.2): an AGENT-HELLO frame with a supported
 * "version" and a "max-frame-size", or an AGENT-DISCONNECT. Failures are worded as HAProxy's SPOE frame errors.
 */
final class SpopHello {
    private SpopHello() {
    }

    private static final int AGENT_HELLO = 101;
    private static final int AGENT_DISCONNECT = 102;
    private static final int MAX_FRAME_SIZE = 16380;
    private static final int MIN_FRAME_SIZE = 256;
    private static final int TYPE_INT32 = 2;
    private static final int TYPE_UINT64 = 5;
    private static final int TYPE_STRING = 8;

    /** HAProxy's spoe_frm_err_reasons, by status code. */
    private static final String[] REASONS = {
            "normal", "I/O error", "a timeout occurred", "frame is too big", "invalid frame received", "version value not found",
            "max-frame-size value not found", "capabilities value not found", "unsupported version", "max-frame-size too big or too small",
            "fragmentation not supported", "invalid interlaced frames", "frame-id not found", "resource allocation error",
            "an unknown error occurred"};
    private static final int INVALID = 4;
    private static final int NO_VERSION = 5;
    private static final int NO_FRAME_SIZE = 6;
    private static final int BAD_VERSION = 8;
    private static final int BAD_FRAME_SIZE = 9;
    private static final int NO_FRAGMENTS = 10;
    private static final int UNKNOWN = 14;

    /** Thrown by the decoder with the SPOE status code of what is wrong. */
    private static final class FrameError extends Exception {
        final int code;

        FrameError(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    static Verdict judge(ByteBuf a, boolean eof) {
        long size = a.getUnsignedInt(a.readerIndex());
        if (!eof && a.readableBytes() < 4 + size) {
            return null;
        }
        Reader r = new Reader(a, a.readerIndex() + 4, (int) Math.min(a.readableBytes() - 4, size));
        try {
            int type = r.u8();
            if (type == AGENT_DISCONNECT) {
                return fail(disconnectCode(r));
            }
            if (type != AGENT_HELLO) {
                return fail(INVALID);
            }
            hello(r);
            return Verdict.pass("SPOA server is ok");
        } catch (FrameError e) {
            return fail(e.code);
        }
    }

    private static Verdict fail(int code) {
        return new Verdict(CheckStatus.L7RSP, 0, REASONS[code >= 0 && code < REASONS.length ? code : UNKNOWN]);
    }

    private static void metadata(Reader r) throws FrameError {
        if (r.end - r.at < 6) {
            throw new FrameError(INVALID);
        }
        boolean fin = (r.u8() << 24 | r.u8() << 16 | r.u8() << 8 | r.u8()) % 2 == 1;
        if (!fin) {
            throw new FrameError(NO_FRAGMENTS);
        }
        if (r.u8() != 0 || r.u8() != 0) {
            throw new FrameError(INVALID); // stream-id and frame-id must be 0
        }
    }

    private static void hello(Reader r) throws FrameError {
        metadata(r);
        boolean version = false;
        boolean frameSize = false;
        while (r.at < r.end) {
            String key = r.string();
            if (key.isEmpty()) {
                throw new FrameError(INVALID);
            }
            switch (key) {
                case "version" -> {
                    if ((r.u8() & 0x0f) != TYPE_STRING) {
                        throw new FrameError(INVALID);
                    }
                    if (!r.string().trim().matches("2\\.0+")) {
                        throw new FrameError(BAD_VERSION);
                    }
                    version = true;
                }
                case "max-frame-size" -> {
                    int t = r.u8() & 0x0f;
                    if (t < TYPE_INT32 || t > TYPE_UINT64) {
                        throw new FrameError(INVALID);
                    }
                    long v = r.varint();
                    if (v < MIN_FRAME_SIZE || v > MAX_FRAME_SIZE) {
                        throw new FrameError(BAD_FRAME_SIZE);
                    }
                    frameSize = true;
                }
                default -> r.skipValue();
            }
        }
        if (!version) {
            throw new FrameError(NO_VERSION);
        }
        if (!frameSize) {
            throw new FrameError(NO_FRAME_SIZE);
        }
    }

    /** The "status-code" an AGENT-DISCONNECT gives (its message is not reported, as in HAProxy). */
    private static int disconnectCode(Reader r) throws FrameError {
        metadata(r);
        int code = 0;
        while (r.at < r.end) {
            String key = r.string();
            if (key.equals("status-code")) {
                int t = r.u8() & 0x0f;
                if (t < TYPE_INT32 || t > TYPE_UINT64) {
                    return INVALID;
                }
                code = (int) Math.min(Integer.MAX_VALUE, r.varint());
            } else {
                r.skipValue();
            }
        }
        return code;
    }

    /** SPOE's encodings (SPOE.txt 3.1): varints, length-prefixed strings, typed values. */
    private static final class Reader {
        private final ByteBuf a;
        private int at;
        private final int end;

        Reader(ByteBuf a, int at, int len) {
            this.a = a;
            this.at = at;
            this.end = at + len;
        }

        int u8() throws FrameError {
            if (at >= end) {
                throw new FrameError(INVALID);
            }
            return a.getUnsignedByte(at++);
        }

        long varint() throws FrameError {
            long v = u8();
            if (v >= 240) {
                int shift = 4;
                int b;
                do {
                    b = u8();
                    v += (long) b << shift;
                    shift += 7;
                } while (b >= 128 && shift < 64);
            }
            return v;
        }

        String string() throws FrameError {
            long len = varint();
            if (len > end - at) {
                throw new FrameError(INVALID);
            }
            String s = a.toString(at, (int) len, StandardCharsets.ISO_8859_1);
            at += (int) len;
            return s;
        }

        void skipValue() throws FrameError {
            int t = u8() & 0x0f;
            switch (t) {
                case 0, 1 -> { } // null, boolean: in the type byte
                case 2, 3, 4, 5 -> varint();
                case 6 -> skip(4);
                case 7 -> skip(16);
                case 8, 9 -> string();
                default -> throw new FrameError(INVALID);
            }
        }

        private void skip(int n) throws FrameError {
            if (end - at < n) {
                throw new FrameError(INVALID);
            }
            at += n;
        }
    }
}

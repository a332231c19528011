package io.fulcrum.mux.h1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The case header names are written in to peers that need it ({@code h1-case-adjust}, {@code h1-case-adjust-file},
 * for the clients of a frontend with {@code option h1-case-adjust-bogus-client} and the servers of a backend with
 * {@code option h1-case-adjust-bogus-server}). Names are otherwise written in lower case, as they are kept. Since a
 * name changes its case only, its length stays: the names are rewritten in place in the encoded head, the fields
 * the encoder adds (framing, Connection) and trailers included, as HAProxy's HTTP/1 output does.
 */
public final class HeaderCase {
    /** Writes names as they are. */
    public static final HeaderCase NONE = new HeaderCase(Map.of());

    /** Lower-case name as written by the encoder, to the bytes to write instead. */
    private final Map<AsciiString, byte[]> names = new HashMap<>();

    /** {@code from} (matched as written: only a lower-case one can match) to {@code to}, of the same length. */
    public HeaderCase(Map<String, String> fromTo) {
        fromTo.forEach((from, to) -> names.put(new AsciiString(from), to.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** This one when {@code enabled}, else {@link #NONE}. */
    public HeaderCase when(boolean enabled) {
        return enabled ? this : NONE;
    }

    /**
     * Rewrites the names of the header lines encoded in {@code out} from {@code start}: those after the first line
     * (a start line, or the last chunk's size line), up to the empty line.
     */
    public void adjust(ByteBuf out, int start) {
        if (names.isEmpty()) {
            return;
        }
        int end = out.writerIndex();
        int line = out.indexOf(start, end, (byte) '\n') + 1;
        while (line > 0 && line < end) {
            int lf = out.indexOf(line, end, (byte) '\n');
            int colon = lf < 0 ? -1 : out.indexOf(line, lf, (byte) ':');
            if (colon < 0) {
                return; // the empty line
            }
            byte[] name = new byte[colon - line];
            out.getBytes(line, name);
            byte[] to = names.get(new AsciiString(name, false));
            if (to != null) {
                out.setBytes(line, to);
            }
            line = lf + 1;
        }
    }

    /** {@code message} (a head and maybe a body), adjusted: a copy when some name may change, else itself. */
    public ByteBuf adjusted(ByteBuf message, ByteBufAllocator alloc) {
        if (names.isEmpty()) {
            return message;
        }
        ByteBuf copy = alloc.buffer(message.readableBytes()).writeBytes(message);
        message.release();
        adjust(copy, 0);
        return copy;
    }
}

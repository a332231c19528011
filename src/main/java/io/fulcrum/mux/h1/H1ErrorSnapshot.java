package io.fulcrum.mux.h1;

import io.fulcrum.log.LogDates;

/**
 * One refused message as {@code show errors} prints it (HAProxy 2.6's layout, without the H1 mux's internal flags,
 * which Fulcrum does not have).
 *
 * @param proxy   the frontend of a request, the backend of a response, and its numeric id
 * @param other   the frontend of a response (a request's backend is never known here, as in HAProxy), or null
 * @param server  the server of a response, or null
 * @param source  the client's address
 * @param errorAt the message offset of the error
 */
record H1ErrorSnapshot(long millis, int event, boolean request, String proxy, int proxyId, String other, int otherId,
                       String server, int serverId, String source, H1Capture capture, long errorAt) {

    /** Appends the capture: its header, then its bytes, a line per input line and at most 79 columns a line. */
    void appendTo(StringBuilder out, int bufsize) {
        out.append(" \n[");
        LogDates.accept(out, millis);
        out.append("] ").append(request ? "frontend " : "backend ").append(proxy).append(" (#").append(proxyId)
                .append(request ? "): invalid request\n  backend " : "): invalid response\n  frontend ")
                .append(other == null ? "<NONE>" : other).append(" (#").append(other == null ? -1 : otherId).append("), server ")
                .append(server == null ? "<NONE>" : server).append(" (#").append(server == null ? -1 : serverId)
                .append("), event #").append(event).append(", src ").append(source).append('\n');
        byte[] b = capture.bytes();
        out.append("  buffer starts at ").append(capture.start()).append(" (including 0 out), ").append(Math.max(0, bufsize - b.length))
                .append(" free,\n  len ").append(b.length).append(", wraps at ").append(bufsize).append(", error at position ")
                .append(errorAt - capture.start()).append("\n  \n");
        dump(out, b);
    }

    /** HAProxy's dump_text_line(), line after line: printable ASCII as is, \t \n \r \e \\ escaped, others as \xNN. */
    static void dump(StringBuilder out, byte[] b) {
        int p = 0;
        int lineStart = 0;
        while (p < b.length) {
            int start = out.length();
            out.append("  ").append(String.format("%05d", p)).append(p == lineStart ? ' ' : '+').append(' ');
            while (p < b.length) {
                int c = b[p] & 0xff;
                int width = out.length() - start;
                String esc = escape(c);
                if (width > 79 - (esc == null ? 1 : esc.length())) {
                    break; // the line goes on on the next output line, marked '+'
                }
                if (esc == null) {
                    out.append((char) c);
                } else {
                    out.append(esc);
                }
                p++;
                if (c == '\n') {
                    lineStart = p;
                    break;
                }
            }
            out.append('\n');
        }
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** The escaped form of {@code c}, or null when it is printed as is. */
    private static String escape(int c) {
        return switch (c) {
            case '\t' -> "\\t";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case 27 -> "\\e";
            case '\\' -> "\\\\";
            default -> c >= 0x20 && c < 0x7f ? null : "\\x" + HEX[c >> 4] + HEX[c & 0xf];
        };
    }
}

package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HAProxy 2.6's HTTP/1 response head parser ({@code h1_headers_to_hdr_list()}) as it reads error files:
 * leading blank lines, bare LF line ends, folded lines and any byte but CR/LF in values are tolerated;
 * a malformed head fails with HAProxy's "unable to parse headers (error offset: N)", where N is the
 * offset of the faulty byte, or -2 when the head is incomplete. Names are lowercased and values trimmed,
 * as HAProxy stores them; Content-Length and Transfer-Encoding are interpreted on the way.
 */
final class ResponseHeadParser {

    /** A header field as HAProxy keeps it: lowercased name, value without surrounding blanks. */
    record Field(String name, String value) {
    }

    /** What the head says. {@code status} is the code as HAProxy stores it, in 16 bits. */
    record Head(String version, String code, String reason, int status, List<Field> fields, int bodyOffset,
                boolean contentLength, long bodyLength, boolean chunked) {

        /** The lengths of the start line's strings and of the fields' names and values: what HTX keeps of them. */
        int strings() {
            int n = version.length() + code.length() + reason.length();
            for (Field f : fields) {
                n += f.name().length() + f.value().length();
            }
            return n;
        }
    }

    private static final String TCHARS = "!#$%&'*+-.^_`|~";

    private final byte[] b;
    /** {@code tune.http.maxhdr}: header slots, the end-of-headers marker included. */
    private final int maxHeaders;
    private int p;
    private final List<Field> fields = new ArrayList<>();
    private boolean contentLength;
    private long bodyLength;
    private boolean transferEncoding;
    private boolean chunked;
    private boolean chunkedSeen;

    private ResponseHeadParser(byte[] bytes, int maxHeaders) {
        this.b = bytes;
        this.maxHeaders = maxHeaders;
    }

    static Head parse(byte[] bytes, int maxHeaders) throws ConfigException {
        return new ResponseHeadParser(bytes, maxHeaders).head();
    }

    private Head head() throws ConfigException {
        while (at() == '\r' || at() == '\n') {
            lineEnd();
        }
        if (!isToken(at())) {
            throw invalid(p);
        }
        int start = p;
        while (isVersionChar(at())) {
            p++;
        }
        if (!isBlank(at())) {
            throw invalid(p);
        }
        String version = text(start, p);
        skipBlanks();
        start = p;
        int status = 0;
        while (at() >= '0' && at() <= '9') {
            status = (status * 10 + at() - '0') & 0xFFFF;
            p++;
        }
        if (p == start && isLineEnd(at()) || !isBlank(at()) && !isLineEnd(at())) {
            throw invalid(p);
        }
        String code = text(start, p);
        skipBlanks();
        start = p;
        while (!isLineEnd(at())) {
            p++;
        }
        String reason = text(start, p);
        lineEnd();
        while (!isLineEnd(at())) {
            header();
        }
        lineEnd();
        if (fields.size() >= maxHeaders) {
            throw invalid(p);
        }
        if (transferEncoding && contentLength) {
            // Transfer-Encoding wins: Content-Length is dropped.
            fields.removeIf(f -> f.name().equals("content-length"));
            contentLength = false;
            bodyLength = 0;
        }
        return new Head(version, code, reason, status, List.copyOf(fields), p, contentLength, bodyLength, chunked);
    }

    private void header() throws ConfigException {
        int start = p;
        while (isToken(at())) {
            p++;
        }
        if (at() != ':' || p == start) {
            throw invalid(p);
        }
        String name = text(start, p).toLowerCase(Locale.ROOT);
        p++;
        StringBuilder value = new StringBuilder();
        int valueStart = -1;
        int firstLineEnd = -1;
        while (true) {
            start = p;
            while (!isLineEnd(at())) {
                if (valueStart < 0 && !isBlank(at())) {
                    valueStart = p;
                }
                p++;
            }
            value.append(text(start, p));
            int eol = p;
            firstLineEnd = firstLineEnd < 0 ? eol : firstLineEnd;
            lineEnd();
            if (!isBlank(at())) {
                break;
            }
            // A folded line: its line end becomes spaces, as in HAProxy.
            value.append(" ".repeat(p - eol));
        }
        add(name, HeaderValues.trim(value.toString()), valueStart < 0 ? firstLineEnd : valueStart);
    }

    /** Records a header as HAProxy does, interpreting the ones that delimit the body. */
    private void add(String name, String value, int valueOffset) throws ConfigException {
        switch (name) {
            case "content-length" -> {
                String number = contentLength(value, valueOffset);
                if (number == null) {
                    return;
                }
                value = number;
            }
            case "transfer-encoding" -> transferEncoding(value, valueOffset);
            case "connection" -> {
                if (value.isEmpty()) {
                    return;
                }
            }
            default -> { }
        }
        if (fields.size() >= maxHeaders) {
            throw invalid(p);
        }
        fields.add(new Field(name, value));
    }

    /**
     * A Content-Length value: a list of equal numbers, equal to any earlier Content-Length (HAProxy's
     * {@code h1_parse_cont_len_header()}). Returns the number to keep, or null when an earlier header
     * already gave it (the duplicate is dropped).
     */
    private String contentLength(String value, int valueOffset) throws ConfigException {
        String number = null;
        int i = 0;
        while (i < value.length()) {
            if (HeaderValues.isBlank(value.charAt(i))) {
                i++;
                continue;
            }
            int digits = i;
            while (digits < value.length() && value.charAt(digits) >= '0' && value.charAt(digits) <= '9') {
                digits++;
            }
            int next = digits;
            while (next < value.length() && HeaderValues.isBlank(value.charAt(next))) {
                next++;
            }
            if (digits == i || next < value.length() && value.charAt(next) != ',') {
                throw invalid(valueOffset);
            }
            long length;
            try {
                length = Long.parseUnsignedLong(value.substring(i, digits));
            } catch (NumberFormatException e) {
                throw invalid(valueOffset);
            }
            if ((contentLength || number != null) && length != bodyLength) {
                throw invalid(valueOffset);
            }
            bodyLength = length;
            number = value.substring(i, digits);
            i = next + 1;
        }
        if (number == null) {
            throw invalid(valueOffset);
        }
        boolean first = !contentLength;
        contentLength = true;
        return first ? number : null;
    }

    /** The body is chunked when the last coding is; "chunked" may appear only once. */
    private void transferEncoding(String value, int valueOffset) throws ConfigException {
        transferEncoding = true;
        for (HeaderValues.Word word : HeaderValues.words(value)) {
            chunked = word.text(value).equalsIgnoreCase("chunked");
            if (chunked && chunkedSeen) {
                throw invalid(valueOffset);
            }
            chunkedSeen |= chunked;
        }
    }

    /** Steps over CRLF or LF; a CR must be followed by LF. */
    private void lineEnd() throws ConfigException {
        if (at() == '\r') {
            p++;
            if (at() != '\n') {
                throw invalid(p);
            }
        }
        p++;
    }

    private void skipBlanks() throws ConfigException {
        while (isBlank(at())) {
            p++;
        }
    }

    /** The byte at the current position; running out of bytes means the head is incomplete. */
    private int at() throws ConfigException {
        if (p >= b.length) {
            throw invalid(-2);
        }
        return b[p] & 0xFF;
    }

    private String text(int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static ConfigException invalid(int offset) {
        return new ConfigException("unable to parse headers (error offset: " + offset + ")");
    }

    private static boolean isBlank(int c) {
        return HeaderValues.isBlank(c);
    }

    private static boolean isLineEnd(int c) {
        return c == '\r' || c == '\n';
    }

    /** HAProxy's version characters: upper-case letters, digits, '/' and '.'. */
    private static boolean isVersionChar(int c) {
        return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '.';
    }

    /** RFC 7230 tchar. */
    private static boolean isToken(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c < 128 && TCHARS.indexOf(c) >= 0;
    }
}

package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Error files HAProxy 2.6.12 accepts and refuses: every case below was given to it in an
 * {@code errorfile} line ({@code haproxy -c}) and the expected message is the one it printed.
 */
class ErrorMessageReaderTest {
    /** A line without default-path: file names are the process's. */
    private static final Source HERE = new Source("t.cfg", 1);


    private static final Map<String, String> REFUSED = new LinkedHashMap<>();

    static {
        REFUSED.put("garbage\r\n\r\n", "unable to parse headers (error offset: 0)");
        REFUSED.put(" HTTP/1.1 403 X\r\n\r\n", "unable to parse headers (error offset: 0)");
        REFUSED.put("http/1.1 403 X\r\n\r\n", "unable to parse headers (error offset: 0)");
        REFUSED.put("HTTp/1.1 403 X\r\n\r\n", "unable to parse headers (error offset: 3)");
        REFUSED.put("HTTP/1-1 403 X\r\n\r\n", "unable to parse headers (error offset: 6)");
        REFUSED.put("HTTP/1.1\r\n\r\n", "unable to parse headers (error offset: 8)");
        REFUSED.put("HTTP/1.1 \r\n\r\n", "unable to parse headers (error offset: 9)");
        REFUSED.put("HTTP/1.1 a03 X\r\n\r\n", "unable to parse headers (error offset: 9)");
        REFUSED.put("HTTP/1.1 403X\r\n\r\n", "unable to parse headers (error offset: 12)");
        REFUSED.put("HTTP/1.1 403 X\rY\r\n\r\n", "unable to parse headers (error offset: 15)");
        REFUSED.put("HTTP/1.1 403 X\r\n X-A: b\r\n\r\n", "unable to parse headers (error offset: 16)");
        REFUSED.put("HTTP/1.1 403 X\r\n:x\r\n\r\n", "unable to parse headers (error offset: 16)");
        REFUSED.put("HTTP/1.1 403 X\r\nX(A: b\r\n\r\n", "unable to parse headers (error offset: 17)");
        REFUSED.put("HTTP/1.1 403 X\r\nBad Name: x\r\n\r\n", "unable to parse headers (error offset: 19)");
        REFUSED.put("HTTP/1.1 403 X\r\nNoColon\r\n\r\n", "unable to parse headers (error offset: 23)");
        REFUSED.put("HTTP/1.1 403 X\r\nX-A: b\rc\r\n\r\n", "unable to parse headers (error offset: 23)");
        REFUSED.put("HTTP/1.1 403 X\r\nX-A: b\r\nX-A\u007f: c\r\n\r\n", "unable to parse headers (error offset: 27)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length:\r\n\r\n", "unable to parse headers (error offset: 31)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: abc\r\n\r\n", "unable to parse headers (error offset: 32)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: -1\r\n\r\n", "unable to parse headers (error offset: 32)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: +1\r\n\r\na", "unable to parse headers (error offset: 32)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: 1,2\r\n\r\na", "unable to parse headers (error offset: 32)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: 99999999999999999999\r\n\r\n", "unable to parse headers (error offset: 32)");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\na", "unable to parse headers (error offset: 51)");
        REFUSED.put("HTTP/1.1 403 G\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", "unable to parse headers (error offset: 35)");
        REFUSED.put("HTTP/1.1 403 X\r\n", "unable to parse headers (error offset: -2)");
        REFUSED.put("HTTP/1.1 403 X\r\nFoo: bar", "unable to parse headers (error offset: -2)");
        REFUSED.put("HTTP/1.1 403 X\r\nX-A: b\r\n\r", "unable to parse headers (error offset: -2)");
        REFUSED.put("FOO/1.1 403 X\r\n\r\n", "invalid http version (FOO/1.1)");
        REFUSED.put("HTTP/1.10 403 X\r\n\r\n", "invalid http version (HTTP/1.10)");
        REFUSED.put("HTTP/1.1 100 X\r\n\r\n", "invalid http status code for an error message (100)");
        REFUSED.put("HTTP/1.1 199 X\r\n\r\n", "invalid http status code for an error message (199)");
        REFUSED.put("HTTP/1.1 65636 X\r\n\r\n", "invalid http status code for an error message (100)");
        REFUSED.put("HTTP/1.1 403 X\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "chunk-encoded payload not supported");
        REFUSED.put("HTTP/1.1 403 X\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "chunk-encoded payload not supported");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "chunk-encoded payload not supported");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: 0\r\n\r\nabc", "message payload not expected");
        REFUSED.put("HTTP/1.1 204 X\r\n\r\nabc", "message payload not expected");
        REFUSED.put("HTTP/1.1 403 X\r\nContent-Length: 5\r\n\r\nabc", "payload size does not match the announced content-length (3 != 5)");
    }

    private static final List<String> ACCEPTED = List.of(
            "HTTP/1.1 403 X\r\nX-A: b\r\n\r\n",
            "\r\nHTTP/1.1 403 X\r\n\r\n",
            "HTTP/1.1 403 X\nX-A: b\n\nabc",
            "HTTP/1.1\t403\tX\r\n\r\n",
            "HTTP/1.1  403 X\r\n\r\n",
            "HTTP/1.1 403\r\n\r\n",
            "HTTP/1.1 4\r\n\r\n",
            "HTTP/1.1 40 X\r\n\r\n",
            "HTTP/1.1 4033 X\r\n\r\n",
            "HTTP/1.1 000 X\r\n\r\n",
            "HTTP/1.1 999 X\r\n\r\n",
            "HTTP/1.1 101 X\r\n\r\n",
            "HTTP/1.1 65736 X\r\n\r\n",
            "HTTP/2.0 403 X\r\n\r\n",
            "HTTP/1.1 403 X \u00e9\r\n\r\n",
            "HTTP/1.1 403 X\r\nX-A: b\u0001c\r\n\r\n",
            "HTTP/1.1 403 X\r\nX-A: a\u0000b\r\n\r\n",
            "HTTP/1.1 403 X\r\nX-A:\r\n\r\n",
            "HTTP/1.1 403 X\r\nX-A: b\r\n folded\r\n\r\n",
            "HTTP/1.1 403 X\r\nContent-Length: 00\r\n\r\n",
            "HTTP/1.1 403 X\r\nContent-Length:   2  \r\n\r\nab",
            "HTTP/1.1 403 X\r\nContent-Length: 1, 1\r\n\r\na",
            "HTTP/1.1 403 X\r\nContent-Length: 1 ,1\r\n\r\na",
            "HTTP/1.1 403 X\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\na",
            "HTTP/1.1 403 X\r\nTransfer-Encoding: gzip\r\n\r\nabc",
            "HTTP/1.1 403 X\r\nTransfer-Encoding: chunked, gzip\r\n\r\nabc",
            "HTTP/1.1 403 X\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\nabc",
            "HTTP/1.1 403 X\r\nTransfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc",
            "HTTP/1.1 403 X\r\nTransfer-Encoding:\r\n\r\n",
            "HTTP/1.1 403 X\r\nX-A: b\r\n\r\n\r\n",
            "HTTP/1.1 204 X\r\nContent-Length: 3\r\n\r\n",
            "HTTP/1.1 304 X\r\nContent-Length: 5\r\n\r\n",
            "HTTP/1.1 403 X\r\nContent-Length: 0\r\n\r\n");

    @Test
    void refusesWhatHaproxyRefusesWithItsMessage() {
        REFUSED.forEach((raw, message) -> assertThatThrownBy(() -> parse(raw))
                .as("%s", raw).isInstanceOf(ConfigException.class).hasMessage(message));
    }

    @Test
    void acceptsWhatHaproxyAccepts() throws ConfigException {
        for (String raw : ACCEPTED) {
            try {
                parse(raw);
            } catch (ConfigException e) {
                fail(raw + ": " + e.getMessage());
            }
        }
        assertThat(parse("").isEmpty()).isTrue();
    }

    @Test
    void headersTakeAtMost100Slots() throws ConfigException {
        parse(headers(100));
        assertThatThrownBy(() -> parse(headers(101))).hasMessage("unable to parse headers (error offset: 1019)");
        assertThatThrownBy(() -> parse(headers(102))).hasMessage("unable to parse headers (error offset: 1028)");
    }

    /** The largest bodies HAProxy accepted after these heads: the message must fit in 16 kB of HTX. */
    @Test
    void messagesMustFitInABuffer() throws ConfigException {
        parse("HTTP/1.1 403 X\r\n\r\n" + "a".repeat(16279));
        assertThatThrownBy(() -> parse("HTTP/1.1 403 X\r\n\r\n" + "a".repeat(16280)))
                .hasMessage("unable to add payload into the HTX message");
        parse("HTTP/1.1 403 XYZ\r\nX-A: bb\r\nX-Bcd: eeee\r\n\r\n" + "a".repeat(16247));
        assertThatThrownBy(() -> parse("HTTP/1.1 403 XYZ\r\nX-A: bb\r\nX-Bcd: eeee\r\n\r\n" + "a".repeat(16248)))
                .hasMessage("unable to add payload into the HTX message");
    }

    @Test
    void filesAreReadUpToTheBufferSize(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.http");
        Files.writeString(big, "HTTP/1.1 403 X\r\n\r\n" + "a".repeat(20000), StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> ErrorMessageReader.file(HERE, big.toString()))
                .hasMessage("'" + big + "': unable to add payload into the HTX message");
        Path longHeader = dir.resolve("long.http");
        Files.writeString(longHeader, "HTTP/1.1 403 X\r\nX-Long: " + "b".repeat(16400) + "\r\n\r\n");
        assertThatThrownBy(() -> ErrorMessageReader.file(HERE, longHeader.toString()))
                .hasMessage("'" + longHeader + "': unable to parse headers (error offset: -2)");
    }

    @Test
    void filesThatCannotBeRead(@TempDir Path dir) {
        assertThatThrownBy(() -> ErrorMessageReader.file(HERE, "/nonexistent"))
                .hasMessage("error opening file '/nonexistent'.");
        assertThatThrownBy(() -> ErrorMessageReader.file(HERE, dir.toString()))
                .hasMessage("error reading file '" + dir + "'.");
    }

    private static String headers(int count) {
        StringBuilder sb = new StringBuilder("HTTP/1.1 403 X\r\n");
        for (int i = 0; i < count; i++) {
            sb.append("X-H").append(i).append(": v\r\n");
        }
        return sb.append("\r\n").toString();
    }

    private static ErrorMessage parse(String raw) throws ConfigException {
        return ErrorMessageReader.parse(raw.getBytes(StandardCharsets.ISO_8859_1));
    }
}

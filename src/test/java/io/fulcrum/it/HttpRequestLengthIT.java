package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code req.len} in HTTP mode is the size of the request in HAProxy's internal form (HTX), not its bytes on the
 * wire: the start line's structure (20 bytes) and strings, each field's lower-cased name and trimmed value, one byte
 * for the end of the headers, the body a wait-for-body rule holds, and the end (and trailers) of a chunked body. The
 * Connection field loses its close and keep-alive tokens, a rule's new field counts. The numbers are haproxy 2.6's
 * (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpRequestLengthIT {

    @Test
    void requestLengthIsTheSizeOfTheRequestInHaproxysInternalForm() throws Exception {
        int port = freePort();
        String config = """
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request wait-for-body time 5s if { method POST }
                    http-request set-header x-added abc if { path /added }
                    http-request return status 200 content-type text/plain lf-string "%%[req.len]"
                """.formatted(port);
        try (FulcrumProcess proxy = serve(config, port)) {
            // 20 + "GET" + "/" + "HTTP/1.1" + 1, and "host" + "x"
            assertThat(length(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).isEqualTo(38);
            assertThat(length(port, "GET /a?b=1 HTTP/1.1\r\nHost: example\r\nUser-Agent: t\r\nAccept: */*\r\nConnection: close\r\n\r\n"))
                    .isEqualTo(69);
            assertThat(length(port, "GET / HTTP/1.0\r\nX-A:   v  \r\n\r\n")).isEqualTo(37);
            assertThat(length(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close, x-foo\r\n\r\n")).isEqualTo(38 + 15);
            assertThat(length(port, "GET /added HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).isEqualTo(43 + 10);
            assertThat(length(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"))
                    .isEqualTo(39 + 15 + 5);
            String chunked = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n";
            assertThat(length(port, chunked + "\r\n")).isEqualTo(39 + 24 + 5 + 1);
            assertThat(length(port, chunked + "X-T: ab\r\n\r\n")).isEqualTo(39 + 24 + 5 + 1 + 5);
        }
    }

    /** The body of the answer to {@code request}, sent at once; the connection closes after it. */
    private static int length(int port, String request) throws Exception {
        try (Socket s = connect(port)) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 200");
            return Integer.parseInt(answer.substring(answer.indexOf("\r\n\r\n") + 4).trim());
        }
    }
}

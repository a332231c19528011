package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tune.http.logurilen} and {@code tune.http.cookielen} in log lines: the request line is cut to the setting's
 * length, and its parts are what is left of it (no version left: HTTP/0.9); a {@code capture cookie}
 * longer than cookielen is cut to it, with a warning. The lines are HAProxy 2.6's ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogLengthsIT {

    @Test
    void theRequestLineAndTheCapturedCookieAreCut() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok", "Set-Cookie: sess=abcdefghijkl"));
             FulcrumProcess proxy = TcpProxyKit.serve("""
                     global
                         log 127.0.0.1:%d format raw local0
                         tune.http.logurilen 20
                         tune.http.cookielen 7
                     defaults
                         mode http
                         log global
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend fe
                         bind 127.0.0.1:%d
                         capture cookie sess len 63
                         log-format "[%%r] [%%HM] [%%HU] [%%HP] [%%HQ] [%%HV] [%%CC] [%%CS]"
                         default_backend be
                     backend be
                         server s1 127.0.0.1:%d
                     """.formatted(logs.port(), fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(proxy.stderr()).contains("truncating capture length to 7 bytes for frontend 'fe'.");
            assertThat(c.exchange("GET /abcdefghij/klmnopqrstuvwxyz?q=1 HTTP/1.1\r\nHost: x\r\nCookie: sess=0123456789\r\n\r\n")
                    .status()).isEqualTo(200);
            assertThat(logs.next()).isEqualTo("[GET /abcdefghij/klmn] [GET] [/abcdefghij/klmn] [/abcdefghij/klmn] [] [HTTP/0.9] "
                    + "[sess=01] [sess=ab]\n");
            assertThat(c.exchange("GET /abcdefgh HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200);
            assertThat(logs.next()).isEqualTo("[GET /abcdefgh HTTP/1] [GET] [/abcdefgh] [/abcdefgh] [] [HTTP/1] [-] [sess=ab]\n");
            assertThat(c.exchange("GET /ab?x HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200);
            assertThat(logs.next()).isEqualTo("[GET /ab?x HTTP/1.1] [GET] [/ab?x] [/ab] [?x] [HTTP/1.1] [-] [sess=ab]\n");
        }
    }
}

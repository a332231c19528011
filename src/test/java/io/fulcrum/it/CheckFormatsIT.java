package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log-format texts and variables in checks: {@code tcp-check send-lf|send-binary-lf}, {@code expect string-lf|binary-lf},
 * {@code on-success|on-error <fmt>}, {@code status-code <expr>}, {@code set-var|set-var-fmt} in the {@code check} scope,
 * with their conditions ({@code set-var(check.x,ifnotset)}), {@code tcp-check connect port <expr>}, {@code http-check send uri-lf|hdr|body-lf} and {@code http-check expect string-lf}: what the server receives and the
 * log lines. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckFormatsIT {

    private static String line(InputStream in) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
            b.write(c);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** A defaults section logging every check's result. */
    @Test
    void tcpCheckFormatsAndVariables() throws Exception {
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        try (Origin origin = Origin.start(s -> {
            InputStream in = s.getInputStream();
            String hello = line(in);
            seen.add(hello);
            send(s, "+OK " + hello.substring(hello.indexOf(' ') + 1, hello.lastIndexOf(' ')) + "\r\n");
            String ping = line(in);
            seen.add(ping);
            send(s, hello.contains("s1") ? "+PONG\r\n" : "-ERR\r\n");
        })) {
            int fe = freePort();
            int refused = FulcrumProcess.refusedPort(); // the servers' own port: the checks go where check.port says
            String cfg = CheckKit.config("", "tcp", fe, "be") + """
                    backend be
                        option tcp-check
                        tcp-check set-var(check.port) int(%d)
                        tcp-check connect port var(check.port)
                        tcp-check set-var-fmt(check.who) "%%[srv_name]"
                        tcp-check set-var(check.code) int(42)
                        tcp-check send-lf "HELLO %%[var(check.who)] %%[be_name]\\r\\n"
                        tcp-check expect string-lf "+OK %%[var(check.who)]"
                        tcp-check unset-var(check.who)
                        tcp-check send-binary-lf "%%[str(PING),hex]0d0a"
                        tcp-check expect binary-lf "%%[str(+PONG),hex]" on-success "pong from %%[srv_name]%%[var(check.who)]" on-error "got %%[res.payload(0,4)]" status-code "var(check.code)"
                        server s1 127.0.0.1:%d check inter 30s
                        server s2 127.0.0.1:%d check inter 30s
                    """.formatted(origin.port(), refused, refused);
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server be/s1 succeeded, reason: Layer7 check passed, code: 42, info: \"pong from s1\", "
                        + "check duration: ");
                p.awaitStderr("Health check for server be/s2 failed, reason: Layer7 invalid response, info: \"got -ERR\", check duration: ");
                assertThat(seen).contains("HELLO s1 be\r", "HELLO s2 be\r", "PING\r");
            }
        }
    }

    @Test
    void httpCheckFormatsAndVariables() throws Exception {
        Queue<String> requests = new ConcurrentLinkedQueue<>();
        try (Origin origin = Origin.start(s -> {
            byte[] b = new byte[4096];
            int n = s.getInputStream().read(b);
            String req = new String(b, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
            if (!req.endsWith("n=abc")) { // the body may come on its own
                n = s.getInputStream().read(b);
                req += n < 0 ? "" : new String(b, 0, n, StandardCharsets.ISO_8859_1);
            }
            requests.add(req);
            send(s, "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nX-H1: abc-123\r\nConnection: close\r\n\r\nabc-ok");
        })) {
            int fe = freePort();
            String cfg = CheckKit.config("", "http", fe, "hb") + """
                    backend hb
                        option httpchk
                        http-check set-var(check.n) str(abc)
                        http-check set-var(check.n,ifnotset) str(zzz)
                        http-check set-var(check.e,ifnotempty) str()
                        http-check set-var(check.g) int(5)
                        http-check set-var(check.g,ifexists,ifgt) int(7)
                        http-check set-var-fmt(check.l,ifnotexists) "%%[var(check.g)]"
                        http-check set-var(check.g,iflt) int(9)
                        http-check set-var(check.i) str(yes) if FALSE
                        http-check send meth GET uri-lf "/health/%%[var(check.n)]" ver HTTP/1.1 hdr host "%%[srv_name].example" hdr x-v "e=%%[var(check.e)] g=%%[var(check.g)] l=%%[var(check.l)] i=%%[var(check.i)]" body-lf "n=%%[var(check.n)]"
                        http-check expect hdr name-lf "x-%%[srv_name]" value-lf -m beg "%%[var(check.n)]"
                        http-check expect string-lf "%%[var(check.n)]-ok" on-success "body had %%[var(check.n)]"
                        server h1 127.0.0.1:%d check inter 30s
                    """.formatted(origin.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server hb/h1 succeeded, reason: Layer7 check passed, code: 200, info: \"body had abc\", "
                        + "check duration: ");
                String req = requests.peek();
                assertThat(req).startsWith("GET /health/abc HTTP/1.1\r\n").endsWith("\r\n\r\nn=abc");
                assertThat(req.toLowerCase()).contains("\r\nhost: h1.example\r\n", "\r\ncontent-length: 5\r\n");
                // set-var's conditions; a check rule's 'if' is not read (HAProxy 2.6 neither): the variable is set
                assertThat(req.toLowerCase()).contains("\r\nx-v: e= g=9 l=5 i=yes\r\n");
            }
        }
    }

    /** {@code status-code} fetches its expression as text, then reads its digits: res.payload (binary) gives a code. */
    @Test
    void statusCodeReadsItsExpressionAsText() throws Exception {
        try (Origin origin = Origin.start(s -> {
            s.getInputStream().read(new byte[64]);
            send(s, "404 nope");
        })) {
            int fe = freePort();
            String cfg = CheckKit.config("", "tcp", fe, "be") + """
                    backend be
                        option tcp-check
                        tcp-check send "x\\n"
                        tcp-check expect rstring ^2 status-code res.payload(0,3) error-status L7STS
                        server s1 127.0.0.1:%d check inter 30s
                    """.formatted(origin.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server be/s1 failed, reason: Layer7 wrong status, code: 404, "
                        + "info: \"TCPCHK did not match content (regex) at step 2\", check duration: ");
            }
        }
    }
}

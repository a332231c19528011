package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;

/**
 * {@code http-check expect hdr|fhdr} (names, values, matching methods, negation), expects around a set-var and the
 * comment HAProxy adds to a failure's info, against a real origin; the log lines as haproxy 2.6 words them. Passes
 * against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpCheckExpectIT {

    @Test
    void headerExpectsAndComments() throws Exception {
        List<String> requests = new CopyOnWriteArrayList<>();
        try (Origin origin = Origin.start(s -> {
            byte[] b = new byte[4096];
            int n = s.getInputStream().read(b);
            requests.add(new String(b, 0, Math.max(0, n), StandardCharsets.ISO_8859_1));
            send(s, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Ver: 1.2, 3.4\r\nServer: nginx/1.25\r\n\r\nok");
        })) {
            int fe = freePort();
            StringBuilder cfg = new StringBuilder("""
                    defaults
                        mode http
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                        option log-health-checks
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend value
                    """.formatted(fe));
            String[][] cases = {
                    {"value", "expect hdr name x-ver value 3.4"},
                    {"full", "expect fhdr name x-ver value 3.4"},
                    {"missing", "expect hdr name x-missing"},
                    {"methods", "expect hdr name -m beg x- value -m reg '^1\\.[0-9]$'"},
                    {"negated", "expect ! hdr name server value -m sub nginx comment nonginx"},
                    {"status", "expect status 201 comment want-201"},
                    // an expect after a set-var still reads the answer; a set-var last zeroes the code (haproxy's check->code)
                    {"varbetween", "expect status 200-399", "set-var(check.x) res.fhdr(x-ver)", "expect hdr name x-ver"},
                    {"varlast", "expect status 200-399", "set-var(check.x) str(x)"},
                    // a URI the rules made empty goes out as "/"
                    {"emptyuri", "unset-var(check.path)", "send meth GET uri-lf \"%[var(check.path)]\"", "expect status 200"},
            };
            for (String[] c : cases) {
                cfg.append("backend ").append(c[0]).append("\n    option httpchk\n");
                for (int i = 1; i < c.length; i++) {
                    cfg.append("    http-check ").append(c[i]).append('\n');
                }
                cfg.append("    server s1 127.0.0.1:").append(origin.port()).append(" check inter 1s rise 1 fall 1\n");
            }
            try (FulcrumProcess p = serve(cfg.toString(), fe)) {
                String ok = "Health check for server %s/s1 succeeded, reason: Layer7 check passed, code: 200, check duration: ";
                String failed = "Health check for server %s/s1 failed, reason: Layer7 wrong status, code: 200, info: \"%s\", check duration: ";
                p.awaitStderr(ok.formatted("value"));
                p.awaitStderr(failed.formatted("full", "OK"));
                p.awaitStderr(failed.formatted("missing", "OK"));
                p.awaitStderr(ok.formatted("methods"));
                p.awaitStderr(failed.formatted("negated", "OK comment: nonginx"));
                p.awaitStderr(failed.formatted("status", "OK comment: want-201"));
                p.awaitStderr(ok.formatted("varbetween"));
                p.awaitStderr(ok.replace("200", "0").formatted("varlast"));
                p.awaitStderr(ok.formatted("emptyuri"));
                assertThat(requests).anyMatch(r -> r.startsWith("GET / HTTP/1.0\r\n"));
            }
        }
    }
}

package io.fulcrum.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the check ITs' configurations start with, and how their check servers read a request. */
final class CheckKit {
    private CheckKit() {
    }

    /**
     * The {@code global} lines (may be empty), a {@code defaults} section in {@code mode} with 5 s timeouts (check
     * included) logging every check's result, and a frontend on 127.0.0.1:{@code fe} to {@code backend}.
     */
    static String config(String global, String mode, int fe, String backend) {
        return (global.isEmpty() ? "" : "global\n" + global.indent(4)) + """
                defaults
                    mode %s
                    timeout connect 5s
                    timeout client 5s
                    timeout server 5s
                    timeout check 5s
                    option log-health-checks
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend %s
                """.formatted(mode, fe, backend);
    }

    /** An HTTP request's head (up to its empty line), "" when the connection ends before sending anything. */
    static String readHead(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while (b.indexOf("\r\n\r\n") < 0 && (c = in.read()) >= 0) {
            b.append((char) c);
        }
        return b.toString();
    }

    /** What {@code -c} says of a configuration it refuses (haproxy's with {@code -Dit.proxy=haproxy}), the file's name written {@code %s}. */
    static String refusal(String cfg) throws Exception {
        Path file = FulcrumProcess.config(cfg);
        List<String> args = List.of("-c", "-f", file.toString());
        FulcrumProcess p = TcpProxyKit.haproxy()
                ? FulcrumProcess.start(List.of(System.getProperty("it.haproxy", "/usr/sbin/haproxy")), args)
                : FulcrumProcess.start(args);
        assertThat(p.awaitExit(Duration.ofSeconds(60))).as(p.stderr()).isNotZero();
        return p.stderr().replace(file.toString(), "%s");
    }
}

package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The names of the certificates of a crt-list and of {@code crt}, under a {@code crt-base} ending with a slash: as
 * haproxy 2.6 names them, crt-base, a slash and the name as written ({@code //}, {@code ./} kept), in
 * {@code show ssl crt-list} and {@code show ssl cert}, and the CLI finds them by those names. Checked against
 * haproxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CrtListNamesIT {
    private static Path dir;
    private static Path admin;
    private static int port;
    private static String list;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-crtnames");
        admin = dir.resolve("admin.sock");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        TlsKit.selfSigned(sub, "a", "a.test");
        TlsKit.selfSigned(sub, "b", "b.test");
        list = dir.resolve("list.txt").toString();
        Files.writeString(Path.of(list), "sub/a.pem\n./sub/b.pem [verify none] b.test\nsub//a.pem c.test\n");
        port = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                    crt-base %s/
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt-list %s crt ./sub//b.pem
                    http-request return status 200
                """.formatted(admin, dir, port, list), port);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static String cli(String line) throws Exception {
        return TlsKit.cli(admin, line).replace("\0", ""); // (haproxy 2.6 writes a NUL after an ALPN list)
    }

    @Test
    void namesAreCrtBaseASlashAndTheNameAsWritten() throws Exception {
        String base = dir + "//";
        assertThat(cli("show ssl crt-list -n " + list)).isEqualTo("# " + list + "\n" + base + "sub/a.pem:1\n" + base
                + "./sub/b.pem:2 [verify none] b.test\n" + base + "sub//a.pem:3 c.test\n\n");
        assertThat(cli("show ssl cert")).isEqualTo("# filename\n" + base + "./sub//b.pem\n" + base + "./sub/b.pem\n" + base + "sub//a.pem\n"
                + base + "sub/a.pem\n\n");
        assertThat(cli("show ssl cert " + base + "sub//a.pem")).startsWith("Filename: " + base + "sub//a.pem\nStatus: Used\n");
        assertThat(cli("del ssl crt-list " + list + " " + base + "sub//a.pem")).isEqualTo("Entry '" + base + "sub//a.pem' deleted in crtlist '"
                + list + "'!\n\n");
        // The line's certificate is served for its name.
        assertThat(TlsKit.sClient(dir, port, "", "-servername", "b.test")).contains("subject=CN = b.test");
    }
}

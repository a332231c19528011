package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of a CA file's certificates as haproxy 2.6 holds them (an OpenSSL store: duplicates dropped, sorted
 * by subject, shorter canonical names first, but for the last one added), in {@code show ssl ca-file} and in the CA
 * names a client certificate request sends; and the listing's head repeated when its 16 kB buffer fills. Checked
 * against haproxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SslCaFileOrderIT {
    private static final String HEAD = "Filename: %s\nStatus: Used\n";
    private static Path dir;
    private static Path admin;
    private static int port;
    private static FulcrumProcess proxy;
    private static String crafted;
    private static String many;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-caorder");
        admin = dir.resolve("admin.sock");
        TlsKit.selfSigned(dir, "server", "server.test");
        TlsKit.run(dir, "", "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "k.key");
        // In the file's order; "Alpha" twice.
        StringBuilder c = new StringBuilder();
        for (String subject : List.of("/CN=Zeta Root", "/CN=ALPHB", "/CN=Alpha", "/O=Org/CN=B", "/CN=  Extra   Spaces ", "/CN=beta")) {
            String pem = ca(subject);
            c.append(pem);
            if (subject.equals("/CN=Alpha")) {
                c.append(pem);
            }
        }
        crafted = write("crafted.pem", c.toString());
        StringBuilder m = new StringBuilder();
        for (int i = 60; i >= 1; i--) {
            m.append(ca("/CN=filler %02d".formatted(i)));
        }
        many = write("many.pem", m.toString());
        port = freePort();
        int other = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s verify optional ca-file %s
                    bind 127.0.0.1:%d ssl crt %s verify optional ca-file %s
                    http-request return status 200
                """.formatted(admin, port, dir.resolve("server.pem"), crafted, other, dir.resolve("server.pem"), many), port);
    }

    private static String ca(String subject) throws Exception {
        Path out = dir.resolve("one.crt");
        TlsKit.run(dir, "", "openssl", "req", "-x509", "-key", "k.key", "-out", out.toString(), "-days", "30", "-subj", subject);
        return Files.readString(out);
    }

    private static String write(String name, String text) throws Exception {
        Files.writeString(dir.resolve(name), text);
        return dir.resolve(name).toString();
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static List<String> subjects(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^Subject: (.*)$").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void theCertificatesAreSortedByCanonicalSubjectButTheLastAdded() throws Exception {
        assertThat(TlsKit.cli(admin, "show ssl ca-file")).contains(crafted + " - 6 certificate(s)\n");
        String shown = TlsKit.cli(admin, "show ssl ca-file " + crafted);
        assertThat(shown).startsWith(HEAD.formatted(crafted) + " \nCertificate #1:\n");
        assertThat(subjects(shown)).containsExactly("/CN=Alpha", "/CN=ALPHB", "/CN=Zeta Root", "/CN=  Extra   Spaces ", "/O=Org/CN=B", "/CN=beta");
        assertThat(subjects(TlsKit.cli(admin, "show ssl ca-file " + crafted + ":2"))).containsExactly("/CN=ALPHB");
        // The names of the certificate request, in the same order.
        String hello = TlsKit.run(dir, "", "openssl", "s_client", "-connect", "127.0.0.1:" + port);
        assertThat(hello).contains("Acceptable client certificate CA names\nCN = Alpha\nCN = ALPHB\nCN = Zeta Root\n"
                + "CN = \"  Extra   Spaces \"\nO = Org, CN = B\nCN = beta\n");
    }

    @Test
    void theHeadIsRepeatedWhenTheBufferFills() throws Exception {
        String shown = TlsKit.cli(admin, "show ssl ca-file " + many);
        String head = HEAD.formatted(many);
        List<String> segments = List.of(shown.substring(0, shown.length() - 1).split("(?=" + Pattern.quote(head) + ")"));
        assertThat(segments).hasSize(2);
        assertThat(segments.get(0).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(16384);
        // The first certificate of the second part did not fit in the first.
        String next = segments.get(1).substring(head.length());
        assertThat(segments.get(0).length() + next.indexOf(" \nCertificate #", 1)).isGreaterThan(16384);
        List<String> expected = new ArrayList<>();
        for (int i = 2; i <= 60; i++) {
            expected.add("/CN=filler %02d".formatted(i));
        }
        expected.add("/CN=filler 01");
        assertThat(subjects(shown)).containsExactlyElementsOf(expected);
        Matcher numbers = Pattern.compile("(?m)^Certificate #(\\d+):$").matcher(shown);
        for (int i = 1; i <= 60; i++) {
            assertThat(numbers.find()).isTrue();
            assertThat(numbers.group(1)).isEqualTo(String.valueOf(i));
        }
    }
}

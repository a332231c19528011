package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tune.ssl.keylog on}: a log-format line written from the ssl_fc_*_secret, ssl_fc_client_random and
 * ssl_fc_session_key fetches is the NSS key log of the connection, line for line what openssl s_client itself
 * writes with -keylogfile (TLS 1.3 and TLS 1.2). Off, the fetches have no sample.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsKeyLogIT {
    private static final String[] TLS13 = {"CLIENT_HANDSHAKE_TRAFFIC_SECRET ssl_fc_client_handshake_traffic_secret",
        "SERVER_HANDSHAKE_TRAFFIC_SECRET ssl_fc_server_handshake_traffic_secret", "CLIENT_TRAFFIC_SECRET_0 ssl_fc_client_traffic_secret_0",
        "SERVER_TRAFFIC_SECRET_0 ssl_fc_server_traffic_secret_0", "EXPORTER_SECRET ssl_fc_exporter_secret"};

    @TempDir
    Path dir;

    private String config(int port, String keylog) {
        StringBuilder format = new StringBuilder();
        for (String l : TLS13) {
            String[] w = l.split(" ");
            format.append(w[0]).append(" %[ssl_fc_client_random,hex] %[").append(w[1]).append("]\\n");
        }
        format.append("CLIENT_RANDOM %[ssl_fc_client_random,hex] %[ssl_fc_session_key,hex]");
        return "global\n    tune.ssl.keylog " + keylog + "\ndefaults\n    mode http\n    timeout client 5s\n    timeout server 5s\n"
                + "    timeout connect 5s\nfrontend f\n    bind 127.0.0.1:" + port + " ssl crt " + dir.resolve("site.pem") + "\n"
                + "    log stdout format raw local0\n    log-format \"" + format + "\"\n"
                + "    http-request return status 200 content-type text/plain string ok\n";
    }

    /** The key log lines of one openssl s_client exchange, from the client and from the proxy's log. */
    private Set<String>[] exchange(FulcrumProcess p, int port, String version) throws Exception {
        Path keys = dir.resolve("keys" + version);
        int before = p.stdout().length();
        TlsKit.run(dir, "GET / HTTP/1.0\r\n\r\n", "openssl", "s_client", version, "-ign_eof", "-connect", "127.0.0.1:" + port,
                "-keylogfile", keys.toString());
        Set<String> client = Files.readAllLines(keys).stream().filter(l -> !l.startsWith("#")).map(l -> l.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
        long end = System.currentTimeMillis() + 5000;
        while (!p.stdout().substring(before).contains("CLIENT_RANDOM") && System.currentTimeMillis() < end) {
            Thread.sleep(50);
        }
        Set<String> logged = p.stdout().substring(before).lines().filter(l -> !l.endsWith(" -")).map(l -> l.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
        @SuppressWarnings("unchecked")
        Set<String>[] both = new Set[] {client, logged};
        return both;
    }

    @Test
    void logLinesAreTheClientsKeyLog() throws Exception {
        TlsKit.selfSigned(dir, "site", "site.test");
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "on"), port)) {
            Set<String>[] tls13 = exchange(p, port, "-tls1_3");
            assertThat(tls13[0]).hasSize(5);
            // (HAProxy also logs a CLIENT_RANDOM line with what OpenSSL calls TLS 1.3's master key; Fulcrum has none.)
            assertThat(tls13[1]).containsAll(tls13[0]).allMatch(l -> tls13[0].contains(l) || l.startsWith("client_random "));
            Set<String>[] tls12 = exchange(p, port, "-tls1_2");
            assertThat(tls12[0]).hasSize(1).first().asString().startsWith("client_random ");
            assertThat(tls12[1]).isEqualTo(tls12[0]);
        }
    }

    @Test
    void offByDefault() throws Exception {
        TlsKit.selfSigned(dir, "site", "site.test");
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "off"), port)) {
            Set<String>[] tls13 = exchange(p, port, "-tls1_3");
            assertThat(tls13[0]).hasSize(5);
            // No secret. (HAProxy still gives the client random and master key; Fulcrum keeps them only with keylog on.)
            assertThat(tls13[1]).allMatch(l -> l.startsWith("client_random "));
        }
    }
}

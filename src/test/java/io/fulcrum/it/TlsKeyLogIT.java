package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code tune.ssl.keylog on}: a log-format line written from the ssl_fc_*_secret, ssl_fc_client_random and
 * ssl_fc_session_key fetches is the NSS key log of the connection, line for line what openssl s_client itself
 * writes with -keylogfile (TLS 1.3 and TLS 1.2), and a recorded TLS 1.3 connection decrypts with it (in the test, and
 * with tshark when installed). Off, the fetches have no sample.
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
        Set<String> logged = loggedSince(p, before).lines().filter(l -> !l.endsWith(" -")).map(l -> l.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
        @SuppressWarnings("unchecked")
        Set<String>[] both = new Set[] {client, logged};
        return both;
    }

    /** What the proxy logged after {@code before}, once the connection's line (ending with CLIENT_RANDOM) is there. */
    private static String loggedSince(FulcrumProcess p, int before) throws InterruptedException {
        long end = System.currentTimeMillis() + 5000;
        while (!p.stdout().substring(before).contains("CLIENT_RANDOM") && System.currentTimeMillis() < end) {
            Thread.sleep(50);
        }
        return p.stdout().substring(before);
    }

    /** An NSS key log file of the logged lines ({@code LABEL client_random secret}). */
    private static void writeKeyLog(Path file, String logged) throws java.io.IOException {
        Files.write(file, logged.lines().filter(l -> l.split(" ").length == 3).toList());
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

    /**
     * The issue's proof: a recorded TLS 1.3 connection (the suite forced to TLS_AES_128_GCM_SHA256) decrypts with the
     * NSS key log built from nothing but Fulcrum's log lines, the way a capture tool reads it: the server's handshake
     * records open with its handshake traffic secret, its first application records with SERVER_TRAFFIC_SECRET_0,
     * and one of them is the HTTP response.
     */
    @Test
    void recordedConnectionDecryptsWithTheLoggedSecrets() throws Exception {
        TlsKit.selfSigned(dir, "site", "site.test");
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "on"), port); RecordingRelay relay = new RecordingRelay(port)) {
            int before = p.stdout().length();
            TlsKit.run(dir, "GET / HTTP/1.0\r\n\r\n", "openssl", "s_client", "-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256",
                    "-ign_eof", "-connect", "127.0.0.1:" + relay.port());
            String random = Tls13Records.clientRandom(relay.clientBytes());
            List<Tls13Records.Rec> records = Tls13Records.split(relay.serverBytes());
            Path keyLog = dir.resolve("fulcrum.keys");
            writeKeyLog(keyLog, loggedSince(p, before));
            Map<String, String> secrets = new HashMap<>();
            for (String l : Files.readAllLines(keyLog)) {
                String[] w = l.split(" ");
                if (w[1].equalsIgnoreCase(random)) {
                    secrets.put(w[0], w[2]);
                }
            }
            assertThat(secrets).containsKeys("SERVER_HANDSHAKE_TRAFFIC_SECRET", "SERVER_TRAFFIC_SECRET_0");

            Tls13Records.Keys handshake = new Tls13Records.Keys(secrets.get("SERVER_HANDSHAKE_TRAFFIC_SECRET"));
            Tls13Records.Keys application = new Tls13Records.Keys(secrets.get("SERVER_TRAFFIC_SECRET_0"));
            int handshakeRecords = 0;
            List<Integer> types = new ArrayList<>();
            StringBuilder data = new StringBuilder();
            for (Tls13Records.Rec r : records) {
                if (r.type() != Tls13Records.APPLICATION_DATA) {
                    continue; // ServerHello, the compatibility ChangeCipherSpec: in the clear
                }
                byte[] inner = handshakeRecords == types.size() ? handshake.open(r) : null;
                if (inner != null) {
                    handshakeRecords++;
                    types.add(Tls13Records.innerType(inner));
                    continue;
                }
                inner = application.open(r);
                assertThat(inner).as("application record %d opens with SERVER_TRAFFIC_SECRET_0", types.size() - handshakeRecords).isNotNull();
                types.add(Tls13Records.innerType(inner));
                if (Tls13Records.innerType(inner) == Tls13Records.APPLICATION_DATA) {
                    data.append(new String(Tls13Records.content(inner), StandardCharsets.ISO_8859_1));
                }
            }
            assertThat(handshakeRecords).as("records of the server's encrypted handshake").isPositive();
            assertThat(types.subList(0, handshakeRecords)).containsOnly(22);
            assertThat(data.toString()).startsWith("HTTP/1.1 200").endsWith("\r\n\r\nok");
        }
    }

    /**
     * The same with tshark, when installed and allowed to capture (root): a capture of the loopback connection shows
     * the HTTP response with Fulcrum's key log, and none without it.
     */
    @Test
    void tsharkDecryptsACaptureWithTheLoggedSecrets() throws Exception {
        assumeTrue(new ProcessBuilder("sh", "-c", "command -v tshark").start().waitFor() == 0, "tshark is not installed");
        assumeTrue("root".equals(System.getProperty("user.name")), "capturing needs root");
        TlsKit.selfSigned(dir, "site", "site.test");
        int port = freePort();
        Path capture = dir.resolve("tls13.pcapng");
        try (FulcrumProcess p = serve(config(port, "on"), port)) {
            Process tshark = new ProcessBuilder("tshark", "-i", "lo", "-f", "tcp port " + port, "-w", capture.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("tshark.out").toFile()).start();
            try {
                long end = System.currentTimeMillis() + 20_000;
                while (!Files.readString(dir.resolve("tshark.out")).contains("Capturing on") && System.currentTimeMillis() < end) {
                    Thread.sleep(50);
                }
                Thread.sleep(500); // "Capturing on" is printed as the capture starts
                int before = p.stdout().length();
                TlsKit.run(dir, "GET / HTTP/1.0\r\n\r\n", "openssl", "s_client", "-tls1_3", "-ign_eof", "-connect", "127.0.0.1:" + port);
                writeKeyLog(dir.resolve("fulcrum.keys"), loggedSince(p, before));
                Thread.sleep(1000);
            } finally {
                tshark.destroy();
                tshark.waitFor();
            }
        }
        String clear = TlsKit.run(dir, "", "tshark", "-r", capture.toString(), "-o", "tls.keylog_file:" + dir.resolve("fulcrum.keys"),
                "-Y", "http.response", "-T", "fields", "-e", "http.response.code", "-e", "http.content_length_header");
        // (TlsKit.run mixes in tshark's warnings on stderr: the fields are the lines that start with a digit.)
        assertThat(clear.lines().filter(l -> l.matches("\\d.*"))).containsExactly("200\t2");
        String opaque = TlsKit.run(dir, "", "tshark", "-r", capture.toString(), "-Y", "http.response", "-T", "fields", "-e", "http.response.code");
        assertThat(opaque.lines().filter(l -> l.matches("\\d.*"))).isEmpty();
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

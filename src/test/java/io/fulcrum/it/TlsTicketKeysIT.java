package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tls-ticket-keys} (configuration.txt 5.1) with openssl s_client saving and offering its session: the bind
 * lines naming the same file share the keys (a session from one resumes on the other; a line without the file does
 * not resume it), and {@code set ssl tls-key} rotates them, the penultimate key encrypting, so a ticket survives one
 * rotation and not two. HAProxy's 80-byte (AES-256) keys resume as the 48-byte ones, a file takes keys of its first
 * key's size only. {@code show tls-keys} and the refusals are HAProxy 2.6's (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsTicketKeysIT {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static Path dir;
    private static Path admin;
    private static String keys;
    private static String other;
    private static String keys80;
    private static int aes256;
    private static int a;
    private static int b;
    private static int plain;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-tickets");
        admin = dir.resolve("admin.sock");
        String crt = TlsKit.selfSigned(dir, "a", "a.example.com").toString();
        List<String> fileKeys = List.of(key(), key(), key(), key());
        keys = dir.resolve("keys.txt").toString();
        Files.writeString(Path.of(keys), String.join("\n", fileKeys) + "\n");
        other = dir.resolve("other.txt").toString();
        Files.writeString(Path.of(other), key() + "\n" + key() + "\n" + key() + "\n");
        keys80 = dir.resolve("keys80.txt").toString();
        Files.writeString(Path.of(keys80), key(80) + "\n" + key(80) + "\n" + key(80) + "\n");
        aes256 = freePort();
        a = freePort();
        b = freePort();
        plain = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s tls-ticket-keys %s
                    bind 127.0.0.1:%d ssl crt %s tls-ticket-keys %s
                    bind 127.0.0.1:%d ssl crt %s tls-ticket-keys %s
                    bind 127.0.0.1:%d ssl crt %s
                    bind 127.0.0.1:%d ssl crt %s tls-ticket-keys %s
                    http-request return status 200 content-type text/plain lf-string "resumed=%%[ssl_fc_is_resumed]"
                """.formatted(admin, aes256, crt, keys80, a, crt, keys, b, crt, keys, plain, crt, freePort(), crt, other), plain);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static String key() {
        return key(48);
    }

    private static String key(int size) {
        byte[] k = new byte[size];
        RANDOM.nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }

    private static String cli(String line) throws Exception {
        return CliClient.send(admin, line);
    }

    /** A request through openssl s_client, which saves or offers its session with {@code args}. */
    private static String sClient(int port, String... args) throws Exception {
        String out = TlsKit.sClient(dir, port, "GET / HTTP/1.0\r\n\r\n", args);
        assertThat(out).contains("HTTP/1.1 200 OK");
        return out;
    }

    private static boolean resumes(int port, String version, String session) throws Exception {
        String out = sClient(port, version, "-sess_in", session);
        assertThat(out.contains("Reused, TLSv1.")).isEqualTo(out.contains("resumed=1"));
        return out.contains("Reused, TLSv1.");
    }

    /** A new session on {@code port} in TLS {@code version} (-tls1_2...), saved in the file {@code session}. */
    private static void newSession(int port, String version, String session) throws Exception {
        assertThat(sClient(port, version, "-sess_out", session)).contains("New, TLSv1.");
    }

    @Test
    void bindLinesOfTheSameFileResumeEachOthersTickets() throws Exception {
        for (String v : new String[] {"-tls1_2", "-tls1_3"}) {
            newSession(a, v, "shared" + v);
            assertThat(resumes(b, v, "shared" + v)).as(v + " on the other line of the file").isTrue();
            assertThat(resumes(plain, v, "shared" + v)).as(v + " on a line with its own keys").isFalse();
        }
    }

    @Test
    void aes256KeysResumeAndRotate() throws Exception {
        for (String v : new String[] {"-tls1_2", "-tls1_3"}) {
            newSession(aes256, v, "aes256" + v);
            assertThat(resumes(aes256, v, "aes256" + v)).as(v + " with 80-byte keys").isTrue();
        }
        assertThat(cli("set ssl tls-key " + keys80 + " " + key(48))).isEqualTo("'set ssl tls-key' received a key of wrong size.\n\n");
        assertThat(cli("set ssl tls-key " + keys + " " + key(80))).isEqualTo("'set ssl tls-key' received a key of wrong size.\n\n");
        String next = key(80);
        assertThat(cli("set ssl tls-key " + keys80 + " " + next)).isEqualTo("TLS ticket key updated!\n\n");
        assertThat(cli("show tls-keys " + keys80)).endsWith(".2 " + next + "\n\n");
        assertThat(resumes(aes256, "-tls1_3", "aes256-tls1_3")).as("after one rotation").isTrue();
    }

    @Test
    void aTicketOutlivesOneRotationNotTwo() throws Exception {
        String session = "rotated";
        assertThat(sClient(a, "-tls1_3", "-sess_out", session)).contains("New, TLSv1.3");
        String first = key();
        assertThat(cli("set ssl tls-key " + other + " " + key())).isEqualTo("TLS ticket key updated!\n\n"); // another file: no effect
        assertThat(cli("set ssl tls-key " + keys + " " + first)).isEqualTo("TLS ticket key updated!\n\n");
        assertThat(resumes(b, "-tls1_3", session)).as("after one rotation").isTrue();
        assertThat(cli("set ssl tls-key " + keys + " " + key())).isEqualTo("TLS ticket key updated!\n\n");
        assertThat(resumes(b, "-tls1_3", session)).as("after two rotations").isFalse();
        // A session saved now is encrypted with the key set first, the penultimate.
        assertThat(sClient(a, "-tls1_3", "-sess_out", "later")).contains("New, TLSv1.3");
        assertThat(resumes(a, "-tls1_3", "later")).isTrue();
    }

    @Test
    void showsAndSetsKeysAsHaproxyDoes() throws Exception {
        // The ids count from the last file named.
        assertThat(cli("show tls-keys")).isEqualTo("# id (file)\n0 (" + other + ")\n1 (" + keys + ")\n2 (" + keys80 + ")\n\n");
        String before = cli("show tls-keys #1");
        assertThat(before).startsWith("# id secret\n# 1 (" + keys + ")\n1.0 ").matches("(?s)# id secret\n# 1 \\(.*\\)\n(1\\.[012] \\S+\n){3}\n");
        assertThat(cli("show tls-keys " + keys)).isEqualTo(before);
        assertThat(cli("show tls-keys *")).startsWith("# id secret\n# 0 (" + other + ")\n0.0 ")
                .contains(before.substring(12, before.length() - 1)).endsWith(cli("show tls-keys #2").substring(12));
        String next = key();
        assertThat(cli("set ssl tls-key #1 " + next)).isEqualTo("TLS ticket key updated!\n\n");
        List<String> shown = cli("show tls-keys #1").lines().skip(2).filter(l -> !l.isEmpty()).map(l -> l.substring(4)).toList();
        List<String> was = before.lines().skip(2).filter(l -> !l.isEmpty()).map(l -> l.substring(4)).toList();
        assertThat(shown).containsExactly(was.get(1), was.get(2), next);
        for (String bad : new String[] {"show tls-keys #7", "show tls-keys 1", "show tls-keys nofile"}) {
            assertThat(cli(bad)).as(bad).isEqualTo("'show tls-keys' unable to locate referenced filename\n\n");
        }
        assertThat(cli("set ssl tls-key #1")).isEqualTo("'set ssl tls-key' expects a filename and the new TLS key in base64 encoding.\n\n");
        assertThat(cli("set ssl tls-key #9 " + next)).isEqualTo("'set ssl tls-key' unable to locate referenced filename\n\n");
        assertThat(cli("set ssl tls-key #1 abc")).isEqualTo("'set ssl tls-key' received invalid base64 encoded TLS key.\n\n");
        assertThat(cli("set ssl tls-key #1 " + Base64.getEncoder().encodeToString(new byte[40])))
                .isEqualTo("'set ssl tls-key' received a key of wrong size.\n\n");
    }
}

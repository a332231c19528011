package io.fulcrum.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the peers tests do: track a key with a request, and wait for a line of {@code show table} on a CLI socket. */
final class PeersKit {
    static final String HAPROXY = System.getProperty("it.haproxy", "/usr/sbin/haproxy");
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PeersKit() {
    }

    /** The global and defaults sections of the peers tests: a CLI socket at {@code socket}, HTTP mode. */
    static String head(Path socket) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                """.formatted(socket);
    }

    /** Starts haproxy in the foreground on {@code cfg} as peer {@code name}; the test is skipped where it is not installed. */
    static FulcrumProcess haproxy(Path cfg, String name) throws IOException {
        assumeTrue(Files.isExecutable(Path.of(HAPROXY)), "haproxy is not installed");
        return FulcrumProcess.start(List.of(HAPROXY), List.of("-db", "-f", cfg.toString(), "-L", name));
    }

    /** Stops the processes started (null: not started). */
    static void stop(FulcrumProcess... processes) throws Exception {
        for (FulcrumProcess p : processes) {
            if (p != null) {
                p.close();
            }
        }
    }

    /** A request to the frontend on {@code port} with {@code x-key: key} (the configurations track that header). */
    static void track(int port, String key) throws Exception {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("x-key", key).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    static String table(Path socket, String table) throws Exception {
        return CliClient.send(socket, "show table " + table);
    }

    /** Waits (20 s at most) until {@code show table} on {@code socket} has a line matching {@code line}; returns it. */
    static Matcher await(Path socket, String table, String line) throws Exception {
        Pattern p = Pattern.compile(line);
        Matcher m = p.matcher(CliClient.await(socket, "show table " + table, p));
        m.find();
        return m;
    }
}

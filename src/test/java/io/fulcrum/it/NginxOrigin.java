package io.fulcrum.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real nginx as origin, on 127.0.0.1, in the foreground with a temporary prefix (its own config, logs,
 * temp and document root). Tests using it are skipped where nginx is not installed (CI installs it).
 */
final class NginxOrigin implements AutoCloseable {
    static final Path BINARY = Path.of(System.getProperty("it.nginx", "/usr/sbin/nginx"));

    private final Process process;
    private final Path dir;
    private final int port;

    private NginxOrigin(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /**
     * Starts nginx serving {@code root()} on a free port; {@code serverConfig} is more directives for its
     * {@code server} block (locations...), {@code httpConfig} for its {@code http} block.
     */
    static NginxOrigin start(String httpConfig, String serverConfig) throws Exception {
        assumeTrue(Files.isExecutable(BINARY), "nginx is not installed at " + BINARY);
        Path dir = Files.createTempDirectory("fulcrum-nginx");
        Files.createDirectories(dir.resolve("root"));
        Files.createDirectories(dir.resolve("logs"));
        int port = FulcrumProcess.freePort();
        String conf = """
                daemon off;
                master_process off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log warn;
                events { worker_connections 256; }
                http {
                    access_log %1$s/logs/access.log;
                    client_body_temp_path %1$s/tmp-body;
                    proxy_temp_path %1$s/tmp-proxy;
                    fastcgi_temp_path %1$s/tmp-fastcgi;
                    uwsgi_temp_path %1$s/tmp-uwsgi;
                    scgi_temp_path %1$s/tmp-scgi;
                    default_type application/octet-stream;
                %2$s
                    server {
                        listen 127.0.0.1:%3$d;
                        root %1$s/root;
                %4$s
                    }
                }
                """.formatted(dir, httpConfig.indent(4), port, serverConfig.indent(8));
        Files.writeString(dir.resolve("nginx.conf"), conf);
        Process p = new ProcessBuilder(BINARY.toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("logs/error.log").toString())
                .redirectOutput(dir.resolve("logs/stdout").toFile()).redirectErrorStream(true).start();
        NginxOrigin n = new NginxOrigin(p, dir, port);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            if (!p.isAlive()) {
                throw new AssertionError("nginx exited with " + p.exitValue() + ": " + Files.readString(dir.resolve("logs/error.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return n;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    n.close();
                    throw new AssertionError("nginx not listening on " + port);
                }
                Thread.sleep(50);
            }
        }
    }

    int port() {
        return port;
    }

    /** Its document root. */
    Path root() {
        return dir.resolve("root");
    }

    /** Its access log (one line per request it served). */
    String accessLog() throws IOException {
        Path log = dir.resolve("logs/access.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}

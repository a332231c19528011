package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code unix-bind}: the unix sockets of bind lines get its prefix (written before the path as is), mode and owner,
 * unless their line sets them; the stats socket is left alone. Needs root (the sockets change owner) and the
 * {@code nobody} user and {@code nogroup} group. Passes against haproxy ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnixBindIT {

    @Test
    void bindLinesUnixSocketsGetThePrefixModeAndOwner() throws Exception {
        assumeTrue(System.getProperty("user.name").equals("root"), "only root can give a socket to another user");
        Path dir = Files.createTempDirectory("fulcrum-unix-bind");
        Path stats = Files.createTempDirectory("fulcrum-unix-bind-stats").resolve("stats.sock");
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve("""
                global
                    unix-bind prefix %s/sock- mode 600 user nobody group nogroup
                    stats socket %s
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind unix@a
                    bind unix@b mode 644 uid 0
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain string ok
                """.formatted(dir, stats, port), port)) {
            Path a = dir.resolve("sock-a");
            Path b = dir.resolve("sock-b");
            assertThat(mode(a)).isEqualTo("rw-------");
            assertThat(owner(a)).isEqualTo("nobody:nogroup");
            assertThat(mode(b)).as("the line's own mode and uid").isEqualTo("rw-r--r--");
            assertThat(owner(b)).isEqualTo("root:nogroup");
            assertThat(owner(stats)).as("the stats socket keeps its owner").isEqualTo("root:root");
            assertThat(get(a)).startsWith("HTTP/1.1 200").endsWith("ok");
        }
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    private static String owner(Path p) throws Exception {
        Map<String, Object> a = Files.readAttributes(p, "posix:owner,group", LinkOption.NOFOLLOW_LINKS);
        return a.get("owner") + ":" + a.get("group");
    }

    /** A request over the unix socket {@code path}; the whole answer (the server closes after it). */
    private static String get(Path path) throws Exception {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
            ch.write(ByteBuffer.wrap("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer buf = ByteBuffer.allocate(4096);
            while (ch.read(buf) >= 0 && buf.hasRemaining()) {
                // read until the server closes
            }
            return new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
        }
    }
}

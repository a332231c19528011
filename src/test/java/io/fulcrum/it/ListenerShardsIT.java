package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code shards} on a bind line: one listening socket per address by default, one per thread with
 * {@code by-thread}, at most one per thread with a number; all of them serve. Passes against haproxy
 * ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenerShardsIT {

    @Test
    void eachShardIsAListeningSocketAndServes() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-shards").resolve("s.sock");
        int single = freePort();
        int byThread = freePort();
        int many = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess p = serve("""
                     global
                         nbthread 2
                         stats socket %s level admin
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 10s
                         timeout server 10s
                     listen echo
                         bind 127.0.0.1:%d
                         bind 127.0.0.1:%d shards by-thread
                         bind 127.0.0.1:%d shards 64
                         server s1 127.0.0.1:%d
                     """.formatted(sock, single, byThread, many, origin.port()), many)) {
            String fds = CliClient.send(sock, "show fd");
            assertThat(listening(fds, single)).as("sockets of a plain bind line in:\n" + fds).isEqualTo(1);
            assertThat(listening(fds, byThread)).as("sockets of 'shards by-thread' with 2 threads").isEqualTo(2);
            assertThat(listening(fds, many)).as("'shards 64' is trimmed to the thread count").isEqualTo(2);
            for (int port : new int[] {single, byThread, many}) {
                for (int i = 0; i < 8; i++) { // the kernel picks a shard by the client's port: several tries reach both
                    try (Socket s = connect(port)) {
                        assertThat(echo(s, "hello " + i)).isEqualTo("hello " + i);
                    }
                }
            }
        }
    }

    private static long listening(String fds, int port) {
        return fds.lines().filter(l -> l.contains("sock_accept_iocb") && l.matches(".* lport=" + port + "( .*)?")).count();
    }
}

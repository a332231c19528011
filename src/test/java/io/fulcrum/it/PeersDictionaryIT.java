package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server keys between a Fulcrum ("ful") and the real haproxy 2.6 ("hap"): two entries stuck to the same server on
 * Fulcrum reach haproxy with their server key, the second sent as a dictionary cache id alone; both processes dump
 * their dictionary caches alike in {@code show peers dict} (Fulcrum's TX cache, haproxy's RX cache).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PeersDictionaryIT {

    private static String config(Path socket, int hapPeer, int fulPeer, int front, int origin) {
        return PeersKit.head(socket) + """
                peers mesh
                    peer hap 127.0.0.1:%d
                    peer ful 127.0.0.1:%d
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    stick-table type string len 16 size 100 expire 60s peers mesh store server_key
                    stick on req.hdr(x-key)
                    server s1 127.0.0.1:%d
                """.formatted(hapPeer, fulPeer, front, origin);
    }

    @Test
    void serverKeysGoThroughTheDictionaryCache() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-peers-dict");
        int hapPeer = freePort();
        int fulPeer = freePort();
        int hapFront = freePort();
        int fulFront = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok"))) {
            Path hapCfg = FulcrumProcess.config(config(dir.resolve("hap.sock"), hapPeer, fulPeer, hapFront, origin.port()));
            Path fulCfg = FulcrumProcess.config(config(dir.resolve("ful.sock"), hapPeer, fulPeer, fulFront, origin.port()));
            try (FulcrumProcess hap = PeersKit.haproxy(hapCfg, "hap");
                 FulcrumProcess ful = FulcrumProcess.start(List.of("-db", "-f", fulCfg.toString(), "-L", "ful"))) {
                TcpProxyKit.awaitListening(hap, "127.0.0.1", hapFront, Duration.ofSeconds(20));
                TcpProxyKit.awaitListening(ful, "127.0.0.1", fulFront, Duration.ofSeconds(20));
                PeersKit.track(fulFront, "k1");
                PeersKit.await(dir.resolve("hap.sock"), "be", "key=k1 use=0 exp=\\d+ .*server_key=s1");
                PeersKit.track(fulFront, "k2");
                PeersKit.await(dir.resolve("hap.sock"), "be", "key=k2 use=0 exp=\\d+ .*server_key=s1");

                // Polled: the two peers connect to each other at start, and when both connections meet (a collision,
                // HAProxy's coll) one is closed and its session begins again, its caches empty until the entries are
                // taught again.
                String sent = CliClient.await(dir.resolve("ful.sock"), "show peers dict", Pattern.compile("id=hap\\(remote,active\\).*"
                        + "\n        TX dictionary cache:\n            0 -> s1\n        RX dictionary cache:\n", Pattern.DOTALL));
                CliClient.await(dir.resolve("hap.sock"), "show peers dict", Pattern.compile("id=ful\\(remote,active\\).*"
                        + "\n        RX dictionary cache:\n            0 -> s1    1 -> -    2 -> -    3 -> -\n", Pattern.DOTALL));
                // 32 lines of four slots, the last one ending the dump.
                assertThat(sent).contains("\n          124 -> -  125 -> -  126 -> -  127 -> -\n");
            }
        }
    }
}

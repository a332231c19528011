package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A configuration with a peers section and no proxy starts, as haproxy 2.6 does: the local peer's listener is
 * one, and it answers a peer's hello (passes against haproxy too, {@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PeersOnlyIT {

    @Test
    void aPeersSectionAloneIsEnoughToStart() throws Exception {
        int peer = freePort();
        String config = """
                global
                    localpeer solo
                peers mesh
                    peer solo 127.0.0.1:%d
                    peer other 127.0.0.1:%d
                    table t type ip size 1k expire 1m store gpc0
                """.formatted(peer, FulcrumProcess.refusedPort());
        try (FulcrumProcess proxy = TcpProxyKit.serve(config, peer);
             Socket s = TcpProxyKit.connect(peer)) {
            s.getOutputStream().write("HAProxyS 2.1\nsolo\nother 1234 1\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] status = in.readNBytes(4);
            assertThat(new String(status, StandardCharsets.US_ASCII)).isEqualTo("200\n");
        }
    }
}

package io.fulcrum.tls;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.channel.Channel;

import java.util.function.Function;

/**
 * With {@code tune.ssl.keylog on}, the client connection's TLS secrets as NSS key log lines need them (7.3.4): hex
 * strings by label, the randoms and TLS 1.2's master key as binaries. Without it they have no sample. The server
 * connection's randoms and master key ({@code ssl_bc_*}) are kept in any case.
 */
final class KeyLogFetches {
    private KeyLogFetches() {
    }

    static void register(SampleCatalog c) {
        secret(c, "ssl_fc_client_early_traffic_secret", "CLIENT_EARLY_TRAFFIC_SECRET");
        secret(c, "ssl_fc_client_handshake_traffic_secret", "CLIENT_HANDSHAKE_TRAFFIC_SECRET");
        secret(c, "ssl_fc_server_handshake_traffic_secret", "SERVER_HANDSHAKE_TRAFFIC_SECRET");
        secret(c, "ssl_fc_client_traffic_secret_0", "CLIENT_TRAFFIC_SECRET_0");
        secret(c, "ssl_fc_server_traffic_secret_0", "SERVER_TRAFFIC_SECRET_0");
        secret(c, "ssl_fc_exporter_secret", "EXPORTER_SECRET");
        secret(c, "ssl_fc_early_exporter_secret", "EARLY_EXPORTER_SECRET");
        binary(c, "ssl_fc_client_random", Source.L5CLI, SampleContext::frontChannel, s -> s.clientRandom);
        binary(c, "ssl_fc_server_random", Source.L5CLI, SampleContext::frontChannel, s -> s.serverRandom);
        binary(c, "ssl_fc_session_key", Source.L5CLI, SampleContext::frontChannel, s -> s.masterKey);
        // The server connection keeps them whether or not tune.ssl.keylog is on.
        binary(c, "ssl_bc_client_random", Source.L5SRV, SampleContext::backChannel, s -> s.clientRandom);
        binary(c, "ssl_bc_server_random", Source.L5SRV, SampleContext::backChannel, s -> s.serverRandom);
        binary(c, "ssl_bc_session_key", Source.L5SRV, SampleContext::backChannel, s -> s.masterKey);
    }

    private static void secret(SampleCatalog c, String name, String label) {
        c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.STR, Source.L5CLI, (a, ctx, out) -> {
            KeyLog.Secrets s = secrets(TlsConnection.of(ctx.frontChannel()));
            String hex = s == null ? null : s.byLabel.get(label);
            return hex != null && out.setStr(hex);
        }));
    }

    private static void binary(SampleCatalog c, String name, Source source, Function<SampleContext, Channel> channel,
                               Function<KeyLog.Secrets, byte[]> of) {
        c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.BIN, source, (a, ctx, out) -> {
            Channel ch = channel.apply(ctx);
            KeyLog.Secrets s = ch == null ? null : secrets(TlsConnection.of(ch));
            byte[] b = s == null ? null : of.apply(s);
            return b != null && out.setBin(b);
        }));
    }

    private static KeyLog.Secrets secrets(TlsConnection t) {
        return t == null ? null : t.secrets;
    }
}

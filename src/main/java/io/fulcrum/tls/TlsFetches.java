package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.channel.Channel;

import java.util.function.BiPredicate;
import java.util.function.Function;

/** The fetches of the TLS layers of the client ({@code ssl_fc*}) and server ({@code ssl_bc*}) connections (7.3.4). */
final class TlsFetches {
    private TlsFetches() {
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("ssl_fc", ArgSpec.NONE, SampleType.BOOL, Source.L5CLI,
                (a, ctx, out) -> out.setBool(TlsConnection.of(ctx.frontChannel()) != null)));
        c.fetch(new Fetch("ssl_bc", ArgSpec.NONE, SampleType.BOOL, Source.L5SRV,
                (a, ctx, out) -> ctx.backChannel() != null && out.setBool(TlsConnection.of(ctx.backChannel()) != null)));
        for (Side side : Side.values()) {
            side.fetch(c, "protocol", SampleType.STR, (t, out) -> out.setStr(t.protocol));
            side.fetch(c, "cipher", SampleType.STR, (t, out) -> out.setStr(t.cipher));
            side.fetch(c, "alpn", SampleType.STR, (t, out) -> t.alpn != null && out.setStr(t.alpn));
            side.fetch(c, "session_id", SampleType.BIN, (t, out) -> t.sessionId != null && t.sessionId.length > 0 && out.setBin(t.sessionId));
            // HAProxy answers false on a connection without TLS too (httpslog logs it on plain connections).
            c.fetch(new Fetch(side.prefix + "is_resumed", ArgSpec.NONE, SampleType.BOOL, side.source, (a, ctx, out) -> {
                TlsConnection t = TlsConnection.of(side.channel.apply(ctx));
                return out.setBool(t != null && t.completed() && t.resumed);
            }));
            // Both sizes are the symmetric cipher's key: the ciphers BoringSSL offers use all of their key.
            side.fetch(c, "use_keysize", SampleType.SINT, (t, out) -> out.setSint(t.keyBits()));
            side.fetch(c, "alg_keysize", SampleType.SINT, (t, out) -> out.setSint(t.keyBits()));
            // A completed handshake has no error, and HAProxy's string of no error is no sample; a failed one (only
            // in the log line of a client connection) has the library's.
            side.any(c, "err", SampleType.SINT, (t, out) -> out.setSint(t.completed() ? 0 : t.error.code()));
            side.any(c, "err_str", SampleType.STR, (t, out) -> !t.completed() && t.error.text() != null && out.setStr(t.error.text()));
            // tls-unique: BoringSSL's SSL_get_finished is not reachable through netty-tcnative.
            c.fetch(new Fetch(side.prefix + "unique_id", ArgSpec.NONE, SampleType.BIN, side.source, (a, ctx, out) -> false, a -> {
                throw new ConfigException("not available: netty-tcnative hides the TLS Finished messages (tls-unique)");
            }));
        }
        Side.FRONT.any(c, "sni", SampleType.STR, (t, out) -> t.sni != null && out.setStr(t.sni));
        Side.FRONT.any(c, "has_sni", SampleType.BOOL, (t, out) -> out.setBool(t.sni != null));
        // BoringSSL's early data is never turned on (allow-0rtt, differences.md): no connection has any.
        Side.FRONT.fetch(c, "has_early", SampleType.BOOL, (t, out) -> out.setBool(false));
    }

    /** The connection a group of fetches reads: {@code ssl_fc_*} the client's, {@code ssl_bc_*} the server's. */
    private enum Side {
        FRONT("ssl_fc_", Source.L5CLI, SampleContext::frontChannel),
        BACK("ssl_bc_", Source.L5SRV, SampleContext::backChannel);

        private final String prefix;
        private final Source source;
        private final Function<SampleContext, Channel> channel;

        Side(String prefix, Source source, Function<SampleContext, Channel> channel) {
            this.prefix = prefix;
            this.source = source;
            this.channel = channel;
        }

        /** A fetch of the session's state; no sample on a connection without TLS or whose handshake failed. */
        void fetch(SampleCatalog c, String name, SampleType type, BiPredicate<TlsConnection, Sample> read) {
            any(c, name, type, (t, out) -> t.completed() && read.test(t, out));
        }

        /** A fetch of the connection's TLS layer, its handshake failed or not; no sample on a connection without TLS. */
        void any(SampleCatalog c, String name, SampleType type, BiPredicate<TlsConnection, Sample> read) {
            c.fetch(new Fetch(prefix + name, ArgSpec.NONE, type, source, (a, ctx, out) -> {
                TlsConnection t = TlsConnection.of(channel.apply(ctx));
                return t != null && read.test(t, out);
            }));
        }
    }
}

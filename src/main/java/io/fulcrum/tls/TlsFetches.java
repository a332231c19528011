package io.fulcrum.tls;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.util.function.BiPredicate;

/** The fetches of the client connection's TLS layer (configuration.txt 7.3.4, {@code ssl_fc*}). */
final class TlsFetches {
    private TlsFetches() {
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("ssl_fc", ArgSpec.NONE, SampleType.BOOL, Source.L5CLI,
                (a, ctx, out) -> out.setBool(TlsConnection.of(ctx.frontChannel()) != null)));
        front(c, "ssl_fc_protocol", SampleType.STR, (t, out) -> out.setStr(t.protocol));
        front(c, "ssl_fc_cipher", SampleType.STR, (t, out) -> out.setStr(t.cipher));
        front(c, "ssl_fc_alpn", SampleType.STR, (t, out) -> t.alpn != null && out.setStr(t.alpn));
        front(c, "ssl_fc_sni", SampleType.STR, (t, out) -> t.sni != null && out.setStr(t.sni));
        front(c, "ssl_fc_has_sni", SampleType.BOOL, (t, out) -> out.setBool(t.sni != null));
        front(c, "ssl_fc_session_id", SampleType.BIN, (t, out) -> t.sessionId != null && t.sessionId.length > 0 && out.setBin(t.sessionId));
        front(c, "ssl_fc_is_resumed", SampleType.BOOL, (t, out) -> out.setBool(t.resumed));
        // Both sizes are the symmetric cipher's key: the ciphers BoringSSL offers use all of their key.
        front(c, "ssl_fc_use_keysize", SampleType.SINT, (t, out) -> out.setSint(t.keyBits()));
        front(c, "ssl_fc_alg_keysize", SampleType.SINT, (t, out) -> out.setSint(t.keyBits()));
        // A connection whose handshake failed is never a stream's: those that fetches see have no error.
        front(c, "ssl_fc_err", SampleType.SINT, (t, out) -> out.setSint(0));
    }

    /** A fetch of the client connection's TLS state; no sample on a connection without TLS. */
    private static void front(SampleCatalog c, String name, SampleType type, BiPredicate<TlsConnection, Sample> read) {
        c.fetch(new Fetch(name, ArgSpec.NONE, type, Source.L5CLI, (a, ctx, out) -> {
            TlsConnection t = TlsConnection.of(ctx.frontChannel());
            return t != null && read.test(t, out);
        }));
    }
}

package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HopByHopTest {

    private static RequestHead request(String... nameValues) {
        HttpHeaders h = new HttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return new RequestHead(AsciiString.of("GET"), AsciiString.of("/"), 11, h);
    }

    private static String fields(RequestHead r) {
        return r.headers().toString().replace("\n", "; ");
    }

    @Test
    void connectionAndWhatItNamesGo() {
        RequestHead r = request("host", "a", "connection", "keep-alive, X-Foo", "x-foo", "1", "keep-alive", "timeout=5",
                "proxy-connection", "keep-alive", "x-bar", "2");
        HopByHop.Tokens t = HopByHop.strip(r);
        assertThat(t).isEqualTo(new HopByHop.Tokens(false, true, false));
        assertThat(fields(r)).isEqualTo("host: a; x-bar: 2; ");
    }

    @Test
    void cleaningTakesOnlyCloseAndKeepAliveOutAsHaproxysMux() {
        RequestHead r = request("host", "a", "connection", "keep-alive, X-Foo, TE", "x-foo", "1", "keep-alive", "timeout=5",
                "Connection", "close", "te", "trailers, gzip", "upgrade", "h2c");
        HopByHop.Tokens t = HopByHop.clean(r);
        assertThat(t).isEqualTo(new HopByHop.Tokens(true, true, false));
        assertThat(fields(r)).as("the rules see the rest; an emptied Connection goes")
                .isEqualTo("host: a; connection: X-Foo,TE; x-foo: 1; keep-alive: timeout=5; te: trailers, gzip; upgrade: h2c; ");
        assertThat(HopByHop.strip(r)).as("nothing left to say once cleaned").isEqualTo(new HopByHop.Tokens(false, false, false));
        assertThat(fields(r)).isEqualTo("host: a; te: trailers; ");
    }

    @Test
    void closeAndTeTrailers() {
        RequestHead r = request("host", "a", "Connection", "close, TE", "TE", "trailers, deflate;q=0.5");
        HopByHop.Tokens t = HopByHop.strip(r);
        assertThat(t.close()).isTrue();
        assertThat(fields(r)).as("TE stays as trailers only, even when Connection names it").isEqualTo("host: a; TE: trailers; ");
    }

    @Test
    void teWithoutTrailersGoes() {
        RequestHead r = request("host", "a", "te", "gzip");
        HopByHop.strip(r);
        assertThat(fields(r)).isEqualTo("host: a; ");
    }

    @Test
    void severalConnectionFieldsAndOddSpacing() {
        RequestHead r = request("connection", " ,close ,, ", "Connection", "x-a\t,  UPGRADE", "x-a", "1", "upgrade", "websocket");
        HopByHop.Tokens t = HopByHop.strip(r);
        assertThat(t).isEqualTo(new HopByHop.Tokens(true, false, true));
        assertThat(r.headers().size()).isZero();
    }

    @Test
    void anUpgradeTheCallerForwardsKeepsUpgradeAndConnectionInPlace() {
        RequestHead r = request("host", "a", "Connection", "Upgrade", "upgrade", "websocket", "sec-websocket-key", "k");
        HopByHop.Tokens t = HopByHop.strip(r, true);
        assertThat(t.upgrade()).isTrue();
        assertThat(fields(r)).isEqualTo("host: a; Connection: Upgrade; upgrade: websocket; sec-websocket-key: k; ");
    }

    @Test
    void anUpgradeLosesOnlyCloseAndKeepAliveAndKeepsWhatConnectionNames() {
        RequestHead r = request("connection", "keep-alive", "Connection", "keep-alive, Upgrade, HTTP2-Settings",
                "upgrade", "h2c", "http2-settings", "AAM", "connection", "a , close, b,KEEP-ALIVE,c", "keep-alive", "5");
        HopByHop.Tokens t = HopByHop.strip(r, true);
        assertThat(t).isEqualTo(new HopByHop.Tokens(true, true, true));
        assertThat(fields(r)).as("HAProxy's clean-up: a bare comma after a dropped token; an emptied field goes")
                .isEqualTo("Connection: Upgrade,HTTP2-Settings; upgrade: h2c; http2-settings: AAM; connection: a ,b,c; ");
    }

    @Test
    void upgradeTokenWithoutUpgradeFieldIsNoUpgrade() {
        RequestHead r = request("host", "a", "connection", "upgrade, x-a", "x-a", "1");
        HopByHop.Tokens t = HopByHop.strip(r, true);
        assertThat(t.upgrade()).isTrue();
        assertThat(fields(r)).isEqualTo("host: a; ");
    }

    @Test
    void aSwitchingResponseKeepsItsConnection() {
        HttpHeaders h = new HttpHeaders();
        h.add("connection", "keep-alive, UPGRADE");
        h.add("x-b", "2");
        ResponseHead r = new ResponseHead(11, 101, AsciiString.of("Switching Protocols"), h);
        HopByHop.strip(r, true);
        assertThat(r.headers().toString().replace("\n", "; ")).isEqualTo("connection: UPGRADE; x-b: 2; ");
        assertThat(HopByHop.saysUpgrade(r)).isTrue();
        assertThat(HopByHop.saysUpgrade(request("connection", "close"))).isFalse();
    }

    @Test
    void connectionCannotRemoveFramingOrRoutingFields() {
        RequestHead r = request("host", "a", "content-length", "3", "connection", "Host, Content-Length, close");
        HopByHop.strip(r);
        assertThat(fields(r)).isEqualTo("host: a; content-length: 3; ");
    }

    @Test
    void nothingToStrip() {
        RequestHead r = request("host", "a");
        assertThat(HopByHop.strip(r)).isEqualTo(new HopByHop.Tokens(false, false, false));
        assertThat(fields(r)).isEqualTo("host: a; ");
    }

    /** What HAProxy's H1 mux keeps of Connection fields, as %U and %B count it: no close, no keep-alive, no empty field. */
    @Test
    void receivedDataCountsConnectionFieldsAsCleaned() {
        RequestHead plain = request("host", "a");
        int bare = 20 + "GET/HTTP/1.1".length() + 1;
        assertThat(HopByHop.receivedData(plain)).isEqualTo(plain.htxData()).isEqualTo(bare + "hosta".length());
        assertThat(HopByHop.receivedData(request("host", "a", "Connection", "Close"))).isEqualTo(bare + "hosta".length());
        assertThat(HopByHop.receivedData(request("host", "a", "connection", "keep-alive, foo", "foo", "1")))
                .isEqualTo(bare + "hostaconnectionfoofoo1".length());
        assertThat(HopByHop.receivedData(request("connection", "a , close, b,KEEP-ALIVE,c")))
                .isEqualTo(bare + "connectiona ,b,c".length());
        assertThat(HopByHop.receivedData(request("connection", "Upgrade"))).isEqualTo(bare + "connectionUpgrade".length());
    }
}

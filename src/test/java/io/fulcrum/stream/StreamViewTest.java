package io.fulcrum.stream;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

class StreamViewTest {

    private static StreamView view(String backend, String server, int serverSide, long expiresIn) {
        return view(backend, server, serverSide, expiresIn, -1, -1);
    }

    private static StreamView view(String backend, String server, int serverSide, long expiresIn, long client, long srv) {
        return new StreamView(0x10000000002L, 0, 61_500, 7,
                new InetSocketAddress("127.0.0.1", 40000), new InetSocketAddress("::1", 8080), 12,
                "fe", 2, true, backend, 3, server, 1,
                server == null ? null : new InetSocketAddress("127.0.0.1", 50000),
                server == null ? null : new InetSocketAddress("10.0.0.1", 80), server == null ? -1 : 13,
                serverSide, expiresIn, client, srv);
    }

    @Test
    void aLineHasHaproxysLayoutWithItsFlagsZero() {
        assertThat(view("be", "s1", 8, 29_900).line()).isEqualTo("0x10000000002: proto=tcpv6 src=127.0.0.1:40000 fe=fe be=be srv=s1"
                + " ts=00 epoch=0 age=1m1s calls=7 rate=0 cpu=0 lat=0 rq[f=000000h,i=0,an=00h,rx=,wx=,ax=]"
                + " rp[f=000000h,i=0,an=00h,rx=,wx=,ax=] scf=[8,0h,fd=12] scb=[8,0h,fd=13] exp=29s rc=0 c_exp=\n");
        assertThat(view(null, null, 0, -1).line()).contains(" be=<NONE> srv=<none> ").contains(" scb=[0,0h,fd=-1] exp= rc=0");
    }

    @Test
    void theChannelsTimeoutsAreTheClientsAndTheServersReadTimeouts() {
        assertThat(view("be", "s1", 8, 28_100, 28_100, 38_900).line())
                .contains(" rq[f=000000h,i=0,an=00h,rx=28s,wx=,ax=] rp[f=000000h,i=0,an=00h,rx=38s,wx=,ax=] ");
    }

    @Test
    void theDetailSaysWhatIsKnownOfEachSide() {
        assertThat(view("be", "s1", 5, -1).detail()).matches("(?s)0x10000000002: \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d\\.\\d{6}]"
                + " proto=tcpv6 source=127\\.0\\.0\\.1:40000\n"
                + "  frontend=fe \\(id=2 mode=http\\) addr=::1:8080\n"
                + "  backend=be \\(id=3 mode=http\\) addr=127\\.0\\.0\\.1:50000\n"
                + "  server=s1 \\(id=1\\) addr=10\\.0\\.0\\.1:80\n"
                + "  task \\(calls=7 exp=<NEVER> age=1m1s\\)\n"
                + "  scf state=EST fd=12\n"
                + "  scb state=CON fd=13\n");
        assertThat(view(null, null, 2, 0).detail()).contains("  backend=<NONE> (id=-1 mode=-)\n  server=<NONE> (id=-1)\n")
                .contains("exp=0s").contains("scb state=QUE fd=-1");
    }

    @Test
    void agesReadAsHaproxysHumanTime() {
        assertThat(StreamView.humanTime(0)).isEqualTo("0s");
        assertThat(StreamView.humanTime(59)).isEqualTo("59s");
        assertThat(StreamView.humanTime(60)).isEqualTo("1m");
        assertThat(StreamView.humanTime(61)).isEqualTo("1m1s");
        assertThat(StreamView.humanTime(3600)).isEqualTo("1h");
        assertThat(StreamView.humanTime(3661)).isEqualTo("1h1m");
        assertThat(StreamView.humanTime(86400)).isEqualTo("1d");
        assertThat(StreamView.humanTime(90061)).isEqualTo("1d1h");
        assertThat(StreamView.humanTime(-1)).isEqualTo("?");
    }

    @Test
    void idsAreReadAsStrtoulReadsThem() {
        assertThat(StreamCommands.pointer("0x1f")).isEqualTo(31);
        assertThat(StreamCommands.pointer("017")).isEqualTo(15);
        assertThat(StreamCommands.pointer("12ab")).isEqualTo(12);
        assertThat(StreamCommands.pointer("zzz")).isZero();
        assertThat(StreamCommands.pointer("")).isZero();
    }
}

package io.fulcrum.peers;

import io.fulcrum.stick.DataType;
import io.fulcrum.stick.Entry;
import io.fulcrum.stick.StickTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A session accepted from a peer, driven byte by byte: the handshake's status codes, errors, learning, acks and pushes. */
class PeerSessionTest {
    @TempDir
    static Path dir;
    private PeersRuntime section;
    private StickTable table;
    private EmbeddedChannel ch;

    @BeforeEach
    void open() throws IOException {
        open(Loaded.mesh(dir, ""));
    }

    private void open(PeersRuntime section) {
        this.section = section;
        ch = new EmbeddedChannel();
        section.share(ch.eventLoop());
        table = section.tables.getFirst().table;
        ch.pipeline().addLast(new PeerSession(section, null));
        ch.pipeline().fireChannelActive();
    }

    @AfterEach
    void close() {
        ch.finishAndReleaseAll();
    }

    private void in(String text) {
        ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    }

    private void inHex(String hex) {
        ch.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex)));
    }

    /** What the session wrote since the last call, as hex. */
    private String outHex() {
        ch.runPendingTasks();
        StringBuilder b = new StringBuilder();
        for (ByteBuf o; (o = ch.readOutbound()) != null; ) {
            b.append(ByteBufUtil.hexDump(o));
            o.release();
        }
        return b.toString();
    }

    private String out() {
        return new String(ByteBufUtil.decodeHexDump(outHex()), StandardCharsets.ISO_8859_1);
    }

    @Test
    void refusedHellos() {
        in("HELLO 2.1\n");
        assertThat(out()).isEqualTo("501\n");
        assertThat(ch.isActive()).isFalse();
    }

    @Test
    void unknownVersion() {
        in("HAProxyS 2.2\n");
        assertThat(out()).isEqualTo("502\n");
    }

    @Test
    void helloToAnotherName() {
        in("HAProxyS 2.1\nsomeone\n");
        assertThat(out()).isEqualTo("503\n");
    }

    @Test
    void helloFromAStranger() {
        in("HAProxyS 2.1\r\nme\r\nstranger 123 1\r\n");
        assertThat(out()).isEqualTo("504\n");
    }

    private void handshake() {
        in("HAProxyS 2.1\nme\nother 123 1\n");
        // Accepted, and asked for its entries: the resync at start.
        assertThat(outHex()).isEqualTo(ByteBufUtil.hexDump("200\n".getBytes(StandardCharsets.ISO_8859_1)) + "0000");
    }

    @Test
    void learnsAndAcknowledges() throws Exception {
        handshake();
        ByteBuf def = Unpooled.buffer();
        new TableCodec(table).define(def, 7);
        StringBuilder m = new StringBuilder("0a82").append(String.format("%02x", def.readableBytes())).append(ByteBufUtil.hexDump(def));
        def.release();
        // Update 5 of key "k1" (http_req_cnt=9), then an incremental one (6) of "k2", in one read.
        m.append("0a80").append("08").append("00000005").append("026b31").append("09");
        m.append("0a81").append("04").append("026b32").append("0a");
        inHex(m.toString());
        assertThat(table.get(table.lookup("k1"), DataType.HTTP_REQ_CNT, 0)).isEqualTo(9);
        assertThat(table.get(table.lookup("k2"), DataType.HTTP_REQ_CNT, 0)).isEqualTo(10);
        assertThat(table.expiresIn(table.lookup("k1"))).isBetween(50_000L, 60_000L);
        // One acknowledgement for the read, of the last update, with the peer's id of the table.
        assertThat(outHex()).isEqualTo("0a8405" + "07" + "00000006");
        // The peer's entries are not sent back to it.
        assertThat(outHex()).isEmpty();
    }

    @Test
    void pushesLocalChangesOnceTheResyncIsDone() {
        handshake();
        inHex("0001"); // resync finished
        assertThat(outHex()).isEqualTo("0003"); // confirmed
        Entry e = table.getOrCreate("k");
        table.add(e, DataType.HTTP_REQ_CNT, 0, 3);
        table.add(e, DataType.HTTP_REQ_CNT, 0, 1); // two changes, one update
        String pushed = outHex();
        assertThat(pushed).startsWith("0a82").endsWith("0a8007" + "00000001" + "016b" + "04");
        Entry f = table.getOrCreate("f");
        table.add(f, DataType.HTTP_REQ_CNT, 0, 1);
        assertThat(outHex()).isEqualTo("0a8007" + "00000002" + "0166" + "01"); // same table: no definition again
    }

    /** With {@code tune.peers.max-updates-at-once 1}, the loop runs its other tasks between two updates. */
    @Test
    void pushesAFewUpdatesAtOnce() throws IOException {
        ch.finishAndReleaseAll();
        open(Loaded.mesh(dir, "    tune.peers.max-updates-at-once 1\n"));
        handshake();
        inHex("0001");
        assertThat(outHex()).isEqualTo("0003");
        int[] flushes = new int[1];
        ch.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
            @Override
            public void flush(ChannelHandlerContext ctx) {
                flushes[0]++;
                ctx.flush();
            }
        });
        table.add(table.getOrCreate("a"), DataType.HTTP_REQ_CNT, 0, 1);
        table.add(table.getOrCreate("b"), DataType.HTTP_REQ_CNT, 0, 1);
        String pushed = outHex();
        assertThat(flushes[0]).isEqualTo(2); // one update, then the other once the loop came back to the session
        assertThat(pushed).endsWith("0a8007" + "00000001" + "0161" + "01" + "0a8007" + "00000002" + "0162" + "01"); // with its id, as HAProxy after a pause
    }

    @Test
    void teachesWhenAsked() {
        handshake();
        Entry e = table.getOrCreate("k");
        table.add(e, DataType.HTTP_REQ_CNT, 0, 2);
        inHex("0001");
        outHex();
        inHex("0000"); // resync request
        String taught = outHex();
        // Every entry with its expiry (a timed update), then "finished": this process has nothing more to learn.
        assertThat(taught).startsWith("0a82").contains("0a850b" + "00000001").endsWith("016b02" + "0001");
    }

    /** As HAProxy: the peer's confirmation acknowledges the whole lesson; a new session resumes after it, not before. */
    @Test
    void confirmedLessonIsAcknowledged() {
        handshake();
        table.add(table.getOrCreate("k"), DataType.HTTP_REQ_CNT, 0, 2);
        inHex("0001");
        outHex();
        inHex("0000");
        outHex();
        PeerLink other = section.link("other");
        assertThat(other.acked[0]).isZero();
        inHex("0003"); // confirmed
        assertThat(other.acked[0]).isEqualTo(1);
    }

    @Test
    void reservedClassIsAProtocolError() {
        handshake();
        inHex("ff00");
        assertThat(outHex()).isEqualTo("0100");
        assertThat(ch.isActive()).isFalse();
    }

    @Test
    void oversizedMessageIsRefused() {
        handshake();
        ByteBuf b = Unpooled.buffer();
        b.writeByte(10).writeByte(0x80);
        VarInt.write(b, 20_000);
        ch.writeInbound(b);
        assertThat(outHex()).isEqualTo("0101");
        assertThat(ch.isActive()).isFalse();
    }

    @Test
    void malformedUpdateIsAProtocolError() {
        handshake();
        ByteBuf def = Unpooled.buffer();
        new TableCodec(table).define(def, 1);
        String d = "0a82" + String.format("%02x", def.readableBytes()) + ByteBufUtil.hexDump(def);
        def.release();
        inHex(d + "0a8004" + "00000001"); // an update without its key
        assertThat(outHex()).isEqualTo("0100");
    }
}

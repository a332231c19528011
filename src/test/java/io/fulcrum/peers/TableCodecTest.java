package io.fulcrum.peers;

import io.fulcrum.cfg.Environment;
import io.fulcrum.stick.DataType;
import io.fulcrum.stick.Entry;
import io.fulcrum.stick.KeyType;
import io.fulcrum.stick.StickTable;
import io.fulcrum.stick.StickTables;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How tables, keys and data are encoded: the definitions are byte for byte those haproxy 2.6 sent for the same tables,
 * the updates those it sent for the same entries (with the rates' ages chosen here).
 */
class TableCodecTest {
    private static final String CONFIG = """
            global
                localpeer hap
            peers mesh
                peer hap 127.0.0.1:23001
                peer ful 127.0.0.1:23002
                table t2 type integer size 10 expire 60s store gpc(2),gpc_rate(2,10s),http_req_cnt
                table ips type ip size 10 store conn_cur,conn_cnt,server_id,server_key
                table v6 type ipv6 size 10
                table bin type binary len 4 size 10
                table s4 type string len 4 size 10
            backend fe
                stick-table type string len 16 size 100 expire 60s peers mesh store http_req_cnt,http_req_rate(10s),conn_cur,server_id,gpt0
            """;

    @TempDir
    static Path dir;
    private StickTables tables;
    private ByteBuf buf;

    @BeforeEach
    void load() throws IOException {
        Loaded l = Loaded.load(dir, CONFIG, new Environment(Map.of()));
        assertThat(l.output()).doesNotContain("ALERT");
        tables = StickTables.of(l.registry());
        buf = Unpooled.buffer();
    }

    @AfterEach
    void release() {
        buf.release();
    }

    private TableCodec codec(String table) {
        return new TableCodec(tables.get(table));
    }

    private String hexAndClear() {
        String hex = ByteBufUtil.hexDump(buf);
        buf.clear();
        return hex;
    }

    /** A table-class message around what {@code body} wrote, as the sessions frame it. */
    private String framed(int type, java.util.function.Consumer<ByteBuf> body) {
        ByteBuf b = Unpooled.buffer();
        try {
            body.accept(b);
            Wire.message(buf, type, b);
            return hexAndClear();
        } finally {
            b.release();
        }
    }

    @Test
    void definitionsAreHaproxys() {
        assertThat(framed(Wire.DEFINE, b -> codec("mesh/t2").define(b, 1)))
                .isEqualTo("0a821501032f74320204f091ff5ef0971c17021802f0e203");
        assertThat(framed(Wire.DEFINE, b -> codec("fe").define(b, 2)))
                .isEqualTo("0a820f0202666506" + "11" + "f355" + "f0971c" + "0af0e203");
    }

    @Test
    void updatesAreHaproxys() {
        StickTable t2 = tables.get("mesh/t2");
        Entry e = t2.getOrCreate(7L);
        t2.add(e, DataType.HTTP_REQ_CNT, 0, 1);
        long now = StickTable.now();
        for (int i = 0; i < 2; i++) {
            t2.learnRaw(e, DataType.GPC_RATE, i, 2, now - 1000);
        }
        TableCodec c = codec("mesh/t2");
        assertThat(framed(Wire.UPDATE, b -> {
            b.writeInt(2);
            c.writeKey(b, e.key());
            c.writeData(b, e, now, new TxDictionary());
        })).isEqualTo("0a8013" + "00000002" + "00000007" + "01" + "0000" + "f82f0000" + "f82f0000");

        StickTable fe = tables.get("fe");
        Entry abc = fe.getOrCreate("abc");
        fe.add(abc, DataType.HTTP_REQ_CNT, 0, 1);
        fe.learnRaw(abc, DataType.HTTP_REQ_RATE, 0, 0, 1);
        fe.learnRaw(abc, DataType.HTTP_REQ_RATE, 0, 2, now - 1000);
        TableCodec f = codec("fe");
        assertThat(framed(Wire.UPDATE, b -> {
            b.writeInt(3);
            f.writeKey(b, abc.key());
            f.writeData(b, abc, now, new TxDictionary());
        })).isEqualTo("0a8010" + "00000003" + "03616263" + "00" + "00" + "00" + "01" + "f82f0100");
    }

    @Test
    void keysOfEachType() throws Exception {
        assertKey("mesh/ips", 0x0a000001, "0a000001");
        assertKey("mesh/t2", 7L, "00000007");
        assertKey("mesh/t2", -1L, "ffffffff");
        byte[] v6 = new byte[16];
        v6[15] = 1;
        assertKey("mesh/v6", new KeyType.Bytes(v6), "00000000000000000000000000000001");
        assertKey("mesh/bin", new KeyType.Bytes(new byte[] {1, 2, 0, 0}), "01020000");
        assertKey("mesh/s4", "abcd", "0461626364");
        // A longer string than the table's keys is cut to them, and what follows it is skipped.
        buf.writeBytes(ByteBufUtil.decodeHexDump("06616263646566" + "2a"));
        assertThat(codec("mesh/s4").readKey(buf)).isEqualTo("abcd");
        assertThat(buf.readUnsignedByte()).isEqualTo((short) 0x2a);
        buf.clear();
        assertThat(codec("mesh/s4").keySize()).isEqualTo(5); // room for the terminating zero, as HAProxy counts it
        assertThat(codec("mesh/bin").keySize()).isEqualTo(4);
        assertThat(codec("mesh/v6").keyCode()).isEqualTo(5);
    }

    private void assertKey(String table, Object key, String hex) throws Exception {
        TableCodec c = codec(table);
        c.writeKey(buf, key);
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo(hex);
        assertThat(c.readKey(buf)).isEqualTo(key);
        assertThat(buf.isReadable()).isFalse();
        buf.clear();
    }

    @Test
    void dataRoundTripButConnCur() throws Exception {
        StickTable ips = tables.get("mesh/ips");
        Entry e = ips.getOrCreate(1);
        ips.set(e, DataType.SERVER_ID, 0, -3);
        ips.set(e, DataType.CONN_CUR, 0, 5);
        ips.set(e, DataType.CONN_CNT, 0, 4_000_000_000L);
        e.serverKey("srv1");
        TableCodec c = codec("mesh/ips");
        ips.learnRaw(e, DataType.CONN_CUR, 0, 0, 5);
        TxDictionary sent = new TxDictionary();
        c.writeData(buf, e, StickTable.now(), sent);

        ByteBuf def = Unpooled.buffer();
        c.define(def, 1);
        VarInt.read(def);
        def.skipBytes((int) VarInt.read(def));
        TableCodec.Remote remote = c.remote(def);
        def.release();
        assertThat(remote.types()).isEqualTo((1L << 0) | (1L << 4) | (1L << 6) | (1L << 19));

        Entry copy = ips.getOrCreate(2);
        String[] dict = new String[128];
        c.readData(buf, remote, copy, StickTable.now(), dict);
        assertThat(buf.isReadable()).isFalse();
        assertThat(ips.get(copy, DataType.SERVER_ID, 0)).isEqualTo(-3);
        assertThat(ips.get(copy, DataType.CONN_CNT, 0)).isEqualTo(4_000_000_000L);
        assertThat(ips.get(copy, DataType.CONN_CUR, 0)).isZero(); // a local count: never learned
        assertThat(copy.serverKey()).isEqualTo("srv1");
        assertThat(dict[0]).isEqualTo("srv1");
        assertThat(sent.at(0)).isEqualTo("srv1");

        // Sent again, the key goes as its cache id alone (length 1, id 1), as HAProxy sends it; the peer reads it back.
        Entry other = ips.getOrCreate(3);
        other.serverKey("srv1");
        c.writeData(buf, other, StickTable.now(), sent);
        assertThat(ByteBufUtil.hexDump(buf)).endsWith("0101");
        Entry copy2 = ips.getOrCreate(4);
        c.readData(buf, remote, copy2, StickTable.now(), dict);
        assertThat(copy2.serverKey()).isEqualTo("srv1");
    }

    /** The 129th key sent takes the oldest key's slot, the first, as HAProxy's cache does. */
    @Test
    void theDictionaryReplacesItsOldestKey() {
        TxDictionary d = new TxDictionary();
        for (int i = 0; i < TxDictionary.SIZE; i++) {
            assertThat(d.add("s" + i)).isEqualTo(i);
        }
        assertThat(d.slotOf("s5")).isEqualTo(5);
        assertThat(d.add("new")).isZero();
        assertThat(d.slotOf("s0")).isEqualTo(-1);
        assertThat(d.slotOf("new")).isZero();
        assertThat(d.add("newer")).isEqualTo(1);
    }

    @Test
    void definitionOfAnotherKeyIsIgnored() throws Exception {
        ByteBuf def = Unpooled.buffer();
        codec("mesh/bin").define(def, 1);
        VarInt.read(def);
        def.skipBytes((int) VarInt.read(def));
        assertThat(codec("mesh/s4").remote(def)).isNull();
        def.release();
    }
}

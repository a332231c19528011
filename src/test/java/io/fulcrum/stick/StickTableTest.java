package io.fulcrum.stick;

import io.fulcrum.sample.Sample;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLongArray;

import static org.assertj.core.api.Assertions.assertThat;

/** Stick tables without a proxy: keys, data, rates, expiry, size and eviction. */
class StickTableTest {

    private static StickTable table(KeyType type, int size, long expire, boolean nopurge, Object... store) {
        Layout layout = new Layout();
        for (int i = 0; i < store.length; i += 3) {
            layout.add((DataType) store[i], (Integer) store[i + 1], (Long) store[i + 2]);
        }
        layout.done();
        return new StickTable("t", type, 32, size, expire, nopurge, false, layout);
    }

    private static Object ip(StickTable t, String text) {
        return t.parseKey(text);
    }

    @Test
    void rateSlidesOverItsPeriodAsHaproxysFreqCounter() {
        AtomicLongArray d = new AtomicLongArray(3);
        Rate.add(d, 0, 1000, 100, 3);
        assertThat(Rate.read(d, 0, 1000, 500)).isEqualTo(3);
        Rate.add(d, 0, 1000, 900, 1);
        assertThat(Rate.read(d, 0, 1000, 999)).isEqualTo(4);
        // half of the next period gone: the previous period weighs half
        assertThat(Rate.read(d, 0, 1000, 1500)).isEqualTo(2);
        Rate.add(d, 0, 1000, 1500, 1);
        assertThat(Rate.read(d, 0, 1000, 1500)).isEqualTo(3);
        assertThat(Rate.read(d, 0, 1000, 1750)).isEqualTo(2); // 1 + 4 * 250 / 1000
        assertThat(Rate.read(d, 0, 1000, 2500)).isEqualTo(0); // 0 + 1 * 500 / 1000, rounded down
        assertThat(Rate.read(d, 0, 1000, 3000)).isEqualTo(0);
        Rate.add(d, 0, 1000, 5000, 2); // long idle: both periods are forgotten
        assertThat(Rate.read(d, 0, 1000, 5000)).isEqualTo(2);
    }

    @Test
    void keysOfEachType() {
        StickTable ip = table(KeyType.IP, 10, 0, false);
        Sample s = new Sample();
        s.setIpv4(0x7f000001);
        assertThat(ip.key(s)).isEqualTo(ip("127.0.0.1"));
        assertThat(ip.format(ip.key(s))).isEqualTo("127.0.0.1");
        assertThat(ip.parseKey("1.2.3")).isNull();
        StickTable v6 = table(KeyType.IPV6, 10, 0, false);
        assertThat(v6.format(v6.parseKey("::1"))).isEqualTo("::1");
        assertThat(v6.parseKey("1.2.3.4")).isNull();
        StickTable str = new StickTable("s", KeyType.STRING, 4, 10, 0, false, false, layoutOf());
        s.setStr("abcdefgh");
        assertThat(str.key(s)).isEqualTo("abcd");
        assertThat(str.parseKey("abcdefgh")).isEqualTo("abcd");
        StickTable integer = table(KeyType.INTEGER, 10, 0, false);
        assertThat(integer.parseKey("x")).isNull();
        assertThat(integer.parseKey("-42")).isEqualTo(-42L);
        StickTable bin = new StickTable("b", KeyType.BINARY, 4, 10, 0, false, false, layoutOf());
        assertThat(bin.format(new KeyType.Bytes(new byte[] {0x6b, 0x31, 0, (byte) 0xff}))).isEqualTo("6B3100FF"); // as haproxy prints it
    }

    @Test
    void serverNameIsServerKeysOlderName() {
        assertThat(DataType.named("server_name")).isEqualTo(DataType.SERVER_KEY); // as haproxy 2.6 reads "store server_name"
        assertThat(DataType.named("server_nam")).isNull();
    }

        private static Object ip(String text) {
        return KeyType.IP.parse(text, 0);
    }

    private static Layout layoutOf() {
        Layout l = new Layout();
        l.done();
        return l;
    }

    @Test
    void countersAreUnsignedIntsThatWrapAndLegacyTypesReadTheArrays() {
        StickTable t = table(KeyType.IP, 10, 0, false, DataType.GPC0, 1, 0L, DataType.BYTES_IN_CNT, 1, 0L, DataType.SERVER_ID, 1, 0L);
        Entry e = t.getOrCreate(ip(t, "1.2.3.4"));
        t.set(e, DataType.GPC0, 0, -1);
        assertThat(t.get(e, DataType.GPC0, 0)).isEqualTo(4294967295L);
        t.add(e, DataType.GPC0, 0, 1);
        assertThat(t.get(e, DataType.GPC0, 0)).isZero();
        t.set(e, DataType.SERVER_ID, 0, -3);
        assertThat(t.get(e, DataType.SERVER_ID, 0)).isEqualTo(-3);
        assertThat(t.add(e, DataType.GPC1, 0, 1)).isFalse();
        assertThat(t.get(e, DataType.GPC1, 0)).isEqualTo(-1);

        StickTable arrays = table(KeyType.IP, 10, 0, false, DataType.GPC, 2, 0L, DataType.GPT, 1, 0L);
        Entry a = arrays.getOrCreate(ip(arrays, "1.2.3.4"));
        arrays.add(a, DataType.GPC1, 0, 5); // gpc1 is gpc[1] there
        assertThat(arrays.get(a, DataType.GPC, 1)).isEqualTo(5);
        assertThat(arrays.holds(DataType.GPC0, 0)).isTrue();
        assertThat(arrays.holds(DataType.GPC, 2)).isFalse();
        arrays.set(a, DataType.GPT0, 0, 7);
        assertThat(arrays.get(a, DataType.GPT, 0)).isEqualTo(7);
    }

    @Test
    void expiredEntriesAreGoneUnlessHeld() throws InterruptedException {
        // A second of expiry: what follows the sleep must run within it, even on a loaded machine.
        StickTable t = table(KeyType.IP, 10, 1000, false, DataType.GPC0, 1, 0L);
        Entry free = t.getOrCreate(ip(t, "1.1.1.1"));
        Entry held = t.getOrCreate(ip(t, "2.2.2.2"));
        t.hold(held);
        t.add(free, DataType.GPC0, 0, 3);
        Thread.sleep(1100);
        assertThat(t.lookup(ip(t, "1.1.1.1"))).isNull();
        assertThat(t.lookup(ip(t, "2.2.2.2"))).isSameAs(held);
        Entry again = t.getOrCreate(ip(t, "1.1.1.1"));
        assertThat(again).isNotSameAs(free);
        assertThat(t.get(again, DataType.GPC0, 0)).isZero(); // a fresh entry
        t.sweep();
        assertThat(t.used()).isEqualTo(2);
        t.release(held);
        assertThat(t.lookup(ip(t, "2.2.2.2"))).isSameAs(held); // its expiry starts again at the release
    }

    @Test
    void aFullTableEvictsTheOldestUnheldEntries() throws InterruptedException {
        StickTable t = table(KeyType.INTEGER, 4, 10_000, false);
        for (long k = 1; k <= 4; k++) {
            Entry e = t.getOrCreate(k);
            if (k == 1) {
                t.hold(e);
            }
            Thread.sleep(2); // distinct expiry dates: 1 is the oldest, then 2
        }
        assertThat(t.getOrCreate(5L)).isNotNull();
        assertThat(t.lookup(1L)).isNotNull(); // held: never evicted
        assertThat(t.lookup(2L)).isNull(); // the oldest unheld one went
        assertThat(t.lookup(3L)).isNotNull();
        assertThat(t.used()).isEqualTo(4);
    }

    @Test
    void aFullNopurgeTableStoresNoNewKey() {
        StickTable t = table(KeyType.INTEGER, 2, 0, true);
        assertThat(t.getOrCreate(1L)).isNotNull();
        assertThat(t.getOrCreate(2L)).isNotNull();
        assertThat(t.getOrCreate(3L)).isNull();
        assertThat(t.getOrCreate(1L)).isNotNull(); // known keys are still found
        StickTable held = table(KeyType.INTEGER, 1, 0, false);
        held.hold(held.getOrCreate(1L));
        assertThat(held.getOrCreate(2L)).isNull(); // nothing can be evicted
    }

    @Test
    void entriesPrintAsHaproxyShowsThem() {
        StickTable t = table(KeyType.IP, 10, 0, false, DataType.SERVER_KEY, 1, 0L, DataType.GPC, 2, 0L, DataType.CONN_RATE, 1, 10_000L,
                DataType.BYTES_IN_CNT, 1, 0L, DataType.GPC_RATE, 2, 10_000L, DataType.GPT, 3, 0L);
        Entry e = t.getOrCreate(ip(t, "1.2.3.4"));
        t.add(e, DataType.CONN_RATE, 0, 3);
        t.set(e, DataType.GPC, 0, 3);
        t.set(e, DataType.BYTES_IN_CNT, 0, -1);
        StringBuilder b = new StringBuilder();
        EntryText.append(b, t, e);
        assertThat(b.toString().replaceFirst("^0x[0-9a-f]+", "0x")).isEqualTo("0x: key=1.2.3.4 use=0 exp=0 conn_rate(10000)=3 "
                + "bytes_in_cnt=18446744073709551615 server_key=- gpt0=0 gpt1=0 gpt2=0 gpc0=3 gpc1=0 gpc0_rate(10000)=0 gpc1_rate(10000)=0\n");
    }
}

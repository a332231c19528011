package io.fulcrum.peers;

import io.fulcrum.stick.DataType;
import io.fulcrum.stick.Entry;
import io.fulcrum.stick.KeyType;
import io.fulcrum.stick.StickTable;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * How one table's definition, keys and data travel in the peers protocol: the key type's code and size, the bitfield
 * of stored data types (their ids are DataType's ordinals, HAProxy's STKTABLE_DT_*), and each data type's encoding (an
 * integer; a rate as the time since its period started, its current and previous counts; a server key as a dictionary
 * entry).
 */
final class TableCodec {
    /** The data a peer's table sends: its bitfield and, for the array types, their element counts. */
    record Remote(long types, int[] elements) {
    }

    private static final DataType[] TYPES = DataType.values();

    final StickTable table;

    TableCodec(StickTable table) {
        this.table = table;
    }

    /** The key type's code on the wire (HAProxy's PEER_KT_*). */
    int keyCode() {
        return switch (table.type()) {
            case INTEGER -> 2;
            case IP -> 4;
            case IPV6 -> 5;
            case STRING -> 6;
            case BINARY -> 7;
        };
    }

    /** The key size HAProxy announces: a string's room includes its terminating zero, an integer key is 32 bits. */
    int keySize() {
        return switch (table.type()) {
            case INTEGER, IP -> 4;
            case IPV6 -> 16;
            case STRING -> table.keyLen() + 1;
            case BINARY -> table.keyLen();
        };
    }

    long types() {
        long bits = 0;
        for (DataType t : table.storedTypes()) {
            bits |= 1L << t.ordinal();
        }
        return bits;
    }

    /** The body of a definition: id, name, key type and size, data types, expiry, then the arrays' and rates' parameters. */
    void define(ByteBuf out, int id) {
        VarInt.write(out, id);
        byte[] name = table.wireName().getBytes(StandardCharsets.ISO_8859_1);
        VarInt.write(out, name.length);
        out.writeBytes(name);
        VarInt.write(out, keyCode());
        VarInt.write(out, keySize());
        VarInt.write(out, types());
        VarInt.write(out, table.expire());
        for (DataType t : table.storedTypes()) {
            boolean rate = t.kind() == DataType.Kind.RATE;
            if (t.isArray() || rate) {
                VarInt.write(out, t.ordinal());
                if (t.isArray()) {
                    VarInt.write(out, table.elements(t));
                }
                if (rate) {
                    VarInt.write(out, table.period(t));
                }
            }
        }
    }

    /**
     * Reads a definition's body after its id and name; null when it does not describe this table (another key type or
     * size, or arrays without their sizes): its updates are then ignored, as HAProxy does.
     */
    Remote remote(ByteBuf in) throws VarInt.Malformed {
        long keyCode = VarInt.read(in);
        long keySize = VarInt.read(in);
        long types = VarInt.read(in);
        if (keyCode != keyCode() || keySize != keySize()) {
            return null;
        }
        int[] elements = new int[64];
        boolean parameters = in.isReadable();
        if (parameters) {
            VarInt.read(in); // the peer's expiry: ours applies
        }
        for (int id = 0; id < 64; id++) {
            if ((types & 1L << id) == 0) {
                continue;
            }
            DataType t = id < TYPES.length ? TYPES[id] : null;
            boolean array = t != null && t.isArray();
            boolean rate = t != null && t.kind() == DataType.Kind.RATE;
            elements[id] = 1;
            if (!parameters || !array && !rate) {
                if (array) {
                    return null;
                }
                continue;
            }
            if (VarInt.read(in) != id) {
                return null;
            }
            if (array) {
                elements[id] = (int) Math.min(100, VarInt.read(in));
            }
            if (rate) {
                VarInt.read(in); // the period: ours applies
            }
        }
        return new Remote(types, elements);
    }

    void writeKey(ByteBuf out, Object key) {
        switch (table.type()) {
            case IP -> out.writeInt((Integer) key);
            case INTEGER -> out.writeInt((int) (long) (Long) key);
            case STRING -> {
                byte[] b = ((String) key).getBytes(StandardCharsets.ISO_8859_1);
                VarInt.write(out, b.length);
                out.writeBytes(b);
            }
            case IPV6, BINARY -> out.writeBytes(((KeyType.Bytes) key).b());
        }
    }

    /** A key read from {@code in}; a longer string than the table's keys is cut, as HAProxy stores it. */
    Object readKey(ByteBuf in) throws VarInt.Malformed {
        switch (table.type()) {
            case IP -> {
                need(in, 4);
                return in.readInt();
            }
            case INTEGER -> {
                need(in, 4);
                return (long) in.readInt();
            }
            case STRING -> {
                long len = VarInt.read(in);
                need(in, len);
                String s = in.toString(in.readerIndex(), (int) Math.min(len, table.keyLen()), StandardCharsets.ISO_8859_1);
                in.skipBytes((int) len);
                return s;
            }
            default -> {
                int size = keySize();
                need(in, size);
                byte[] b = new byte[size];
                in.readBytes(b);
                return new KeyType.Bytes(b);
            }
        }
    }

    private static void need(ByteBuf in, long n) throws VarInt.Malformed {
        if (in.readableBytes() < n) {
            throw new VarInt.Malformed();
        }
    }

    /** An entry's data, every stored type in order; {@code now} is StickTable.now(); server keys go through {@code dict}. */
    void writeData(ByteBuf out, Entry e, long now, TxDictionary dict) {
        for (DataType t : table.storedTypes()) {
            if (t.kind() == DataType.Kind.DICT) {
                writeServerKey(out, e.serverKey(), dict);
                continue;
            }
            for (int i = 0, n = table.elements(t); i < n; i++) {
                switch (t.kind()) {
                    case RATE -> {
                        VarInt.write(out, (now - table.raw(e, t, i, 2)) & 0xffffffffL);
                        VarInt.write(out, table.raw(e, t, i, 0) & 0xffffffffL);
                        VarInt.write(out, table.raw(e, t, i, 1) & 0xffffffffL);
                    }
                    case SINT -> VarInt.write(out, (int) table.raw(e, t, i, 0)); // sign-extended, as C converts an int
                    case UINT -> VarInt.write(out, table.raw(e, t, i, 0) & 0xffffffffL);
                    default -> VarInt.write(out, table.raw(e, t, i, 0));
                }
            }
        }
    }

    /**
     * A server key as HAProxy sends it: its length, then its cache id (slot + 1) alone when the peer has it, else the
     * id and the value, which the peer caches under that id.
     */
    private static void writeServerKey(ByteBuf out, String key, TxDictionary dict) {
        if (key == null) {
            VarInt.write(out, 0);
            return;
        }
        int cached = dict.slotOf(key);
        if (cached >= 0) {
            VarInt.write(out, VarInt.size(cached + 1));
            VarInt.write(out, cached + 1);
            return;
        }
        int id = dict.add(key) + 1;
        byte[] b = key.getBytes(StandardCharsets.ISO_8859_1);
        VarInt.write(out, VarInt.size(id) + VarInt.size(b.length) + b.length);
        VarInt.write(out, id);
        VarInt.write(out, b.length);
        out.writeBytes(b);
    }

    /**
     * Reads the data a peer sent with its definition {@code r} into {@code e} (null: read and dropped). What this table
     * does not store is skipped, and conn_cur is never learned (a count of local connections, as HAProxy). {@code dict}
     * is the session's cache of server keys by id.
     */
    void readData(ByteBuf in, Remote r, Entry e, long now, String[] dict) throws VarInt.Malformed {
        for (int id = 0; id < 64; id++) {
            if ((r.types() & 1L << id) == 0) {
                continue;
            }
            if (id >= TYPES.length) {
                in.skipBytes(in.readableBytes()); // an unknown type: what follows cannot be read
                return;
            }
            DataType t = TYPES[id];
            boolean keep = e != null && table.stores(t) && t != DataType.CONN_CUR;
            if (t.kind() == DataType.Kind.DICT) {
                String key = readServerKey(in, dict);
                if (keep && key != null) {
                    e.serverKey(key);
                }
                continue;
            }
            int local = keep ? table.elements(t) : 0;
            for (int i = 0; i < r.elements()[id]; i++) {
                long v = VarInt.read(in);
                if (t.kind() == DataType.Kind.RATE) {
                    long curr = VarInt.read(in);
                    long prev = VarInt.read(in);
                    if (i < local) {
                        table.learnRaw(e, t, i, 2, now - (v & 0xffffffffL));
                        table.learnRaw(e, t, i, 0, curr & 0xffffffffL);
                        table.learnRaw(e, t, i, 1, prev & 0xffffffffL);
                    }
                } else if (i < local) {
                    table.learnRaw(e, t, i, 0, switch (t.kind()) {
                        case SINT -> (int) v;
                        case UINT -> v & 0xffffffffL;
                        default -> v;
                    });
                }
            }
        }
    }

    /** A server key: a cache id alone (sent before), or an id and a value to cache; null for none. */
    private static String readServerKey(ByteBuf in, String[] dict) throws VarInt.Malformed {
        long len = VarInt.read(in);
        if (len == 0) {
            return null;
        }
        need(in, len);
        ByteBuf data = in.readSlice((int) len);
        long id = VarInt.read(data);
        if (id == 0 || id > dict.length) {
            throw new VarInt.Malformed();
        }
        if (data.isReadable()) {
            long vlen = VarInt.read(data);
            need(data, vlen);
            dict[(int) id - 1] = data.readCharSequence((int) vlen, StandardCharsets.ISO_8859_1).toString();
        }
        return dict[(int) id - 1];
    }
}

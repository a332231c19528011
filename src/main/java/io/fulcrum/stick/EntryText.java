package io.fulcrum.stick;

/** An entry as {@code show table} prints it: {@code 0x...: key=1.2.3.4 use=0 exp=29925 gpc0=0 conn_rate(10000)=3}. */
final class EntryText {
    private EntryText() {
    }

    static void append(StringBuilder b, StickTable t, Entry e) {
        long exp = t.expire() == 0 ? 0 : Math.max(0, e.expire - StickTable.now());
        b.append("0x").append(Integer.toHexString(System.identityHashCode(e))).append(": key=").append(t.format(e.key))
                .append(" use=").append(e.refs.get()).append(" exp=").append(exp);
        Layout layout = t.layout;
        for (DataType type : layout.stored()) {
            if (type == DataType.SERVER_KEY) {
                String k = e.serverKey;
                b.append(" server_key=").append(k == null ? "-" : k);
                continue;
            }
            int n = layout.count(type);
            for (int i = 0; i < n; i++) {
                // an array prints one field per element: gpc0, gpc1... (gpc_rate: gpc0_rate...)
                String name = !type.isArray() ? type.text() : type == DataType.GPC_RATE ? "gpc" + i + "_rate" : type.text() + i;
                b.append(' ').append(name);
                if (type.kind() == DataType.Kind.RATE) {
                    b.append('(').append(layout.period(type)).append(')');
                }
                long v = t.get(e, type, i);
                b.append('=').append(type.kind() == DataType.Kind.ULL ? Long.toUnsignedString(v) : Long.toString(v));
            }
        }
        b.append('\n');
    }
}

package io.fulcrum.stick;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.ProxySpec;

/**
 * {@code stick-table type <type> [len <n>] size <n> [expire <t>] [nopurge] [srvkey id|addr] [store <data>[,...]]}:
 * one table per proxy, named after it, with HAProxy's errors.
 */
final class TableParser {
    /** HAProxy's default key length for strings and binaries. */
    private static final int DEFAULT_LEN = 32;

    private TableParser() {
    }

    static void parse(ProxySpec p, ConfigLine l, StickTables tables) throws ConfigException {
        Source previous = tables.declared(p.name());
        if (previous != null) {
            throw new ConfigException("stick-table name '" + p.name() + "' conflicts with table declared in " + p.kind().typeName()
                    + " '" + p.name() + "' at " + previous.file() + ":" + previous.line() + ".");
        }
        KeyType type = null;
        int len = DEFAULT_LEN;
        long size = 0;
        long expire = 0;
        boolean nopurge = false;
        boolean srvAddr = false;
        Layout layout = new Layout();
        for (int i = 1; l.has(i); i++) {
            String w = l.arg(i);
            switch (w) {
                case "type" -> {
                    type = KeyType.named(l.arg(++i));
                    if (type == null) {
                        throw new ConfigException("stick-table: unknown type '" + l.arg(i) + "'.");
                    }
                    if (type.hasLength() && l.arg(i + 1).equals("len")) {
                        i += 2;
                        len = (int) Units.integer(l.arg(i), "len", 1, 65535);
                    }
                }
                case "size" -> size = size(l.arg(++i));
                case "expire" -> expire = expire(l.arg(++i));
                case "nopurge" -> nopurge = true;
                case "srvkey" -> {
                    String k = l.arg(++i);
                    if (!k.equals("id") && !k.equals("addr")) {
                        throw new ConfigException("stick-table : unknown server key type '" + k + "'.");
                    }
                    srvAddr = k.equals("addr");
                }
                case "store" -> store(l.arg(++i), layout);
                case "peers", "write-to" -> throw new ConfigException("stick-table: '" + w
                        + "' is an HAProxy option that Fulcrum does not support yet.");
                default -> throw new ConfigException("stick-table: unknown argument '" + w + "'.");
            }
        }
        if (type == null) {
            throw new ConfigException("stick-table: missing type.");
        }
        if (size == 0) {
            throw new ConfigException("stick-table: missing size.");
        }
        layout.done();
        tables.add(new StickTable(p.name(), type, len, (int) Math.min(size, Integer.MAX_VALUE), expire, nopurge, srvAddr, layout),
                l.source());
    }

    private static long size(String text) throws ConfigException {
        try {
            return Units.size(text, "size");
        } catch (ConfigException e) {
            throw wrapped(e);
        }
    }

    /** Units' message in HAProxy's words for stick-table arguments: "unexpected character 'x' in argument of 'size'." */
    private static ConfigException wrapped(ConfigException e) {
        return new ConfigException("stick-table: " + e.getMessage().replace(" in '", " in argument of '") + ".");
    }

    private static long expire(String text) throws ConfigException {
        try {
            return Units.time(text, "expire");
        } catch (ConfigException e) {
            throw wrapped(e);
        }
    }

    /** {@code store gpc0,conn_rate(10s),gpc(3),gpc_rate(3,10s)...} */
    private static void store(String list, Layout layout) throws ConfigException {
        for (String item : items(list)) {
            int paren = item.indexOf('(');
            String name = paren < 0 ? item : item.substring(0, paren);
            String arg = paren < 0 ? null : item.substring(paren + 1, item.endsWith(")") ? item.length() - 1 : item.length());
            DataType t = DataType.named(name);
            if (t == null) {
                throw new ConfigException("stick-table: unknown store option '" + name + "'.");
            }
            boolean rate = t.kind() == DataType.Kind.RATE;
            int wanted = (t.isArray() ? 1 : 0) + (rate ? 1 : 0);
            String[] args = arg == null ? new String[0] : arg.split(",", -1);
            if (args.length < wanted) {
                throw new ConfigException("stick-table: missing argument to store option '" + name + "'.");
            }
            if (args.length > wanted) {
                throw new ConfigException("stick-table: unexpected argument to store option '" + name + "'.");
            }
            int n = 1;
            if (t.isArray()) {
                n = (int) Math.max(0, Math.min(Integer.MAX_VALUE, parseLong(args[0])));
                if (n < 1 || n > 100) {
                    throw new ConfigException("stick-table: array size is out of allowed range (1-100) for store option '" + name + "'.");
                }
            }
            long period = rate ? Units.time(args[args.length - 1], name) : 0;
            if (layout.has(t)) {
                throw new ConfigException("stick-table: store option '" + name + "' declared twice.");
            }
            conflict(layout, t, DataType.GPT, "gpt0", DataType.GPT0);
            conflict(layout, t, DataType.GPC, "gpc[0/1]", DataType.GPC0, DataType.GPC1);
            conflict(layout, t, DataType.GPC_RATE, "gpc[0/1]_rate", DataType.GPC0_RATE, DataType.GPC1_RATE);
            layout.add(t, n, period);
        }
    }

    /** The comma-separated items of a store list; commas inside parentheses belong to the item ({@code gpc_rate(2,10s)}). */
    private static java.util.List<String> items(String list) {
        java.util.List<String> items = new java.util.ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                items.add(list.substring(start, i));
                start = i + 1;
            }
        }
        items.add(list.substring(start));
        return items;
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** HAProxy refuses an array type beside the legacy one it overrides. */
    private static void conflict(Layout layout, DataType t, DataType array, String legacyName, DataType... legacy) throws ConfigException {
        for (DataType old : legacy) {
            if (t == array && layout.has(old) || t == old && layout.has(array)) {
                throw new ConfigException("stick-table: simultaneous usage of '" + array.text() + "' and '" + legacyName
                        + "' in a same table is not permitted as '" + array.text() + "' overrides '" + legacyName + "'.");
            }
        }
    }
}

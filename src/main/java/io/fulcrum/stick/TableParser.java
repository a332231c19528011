package io.fulcrum.stick;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.ProxySpec;

/**
 * {@code stick-table type <type> [len <n>] size <n> [expire <t>] [nopurge] [peers <section>] [srvkey id|addr]
 * [store <data>[,...]]}: one table per proxy, named after it, with HAProxy's errors; also the {@code table <name> ...}
 * lines of a peers section, which take the same arguments but {@code peers}.
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
        tables.add(parse(p.name(), l, 1, null), l.source());
    }

    /**
     * The table {@code name} that the arguments of {@code l} from {@code first} describe; {@code section} is the peers
     * section of a {@code table} line (which shares it and refuses a {@code peers} argument), null for a proxy's.
     */
    static StickTable parse(String name, ConfigLine l, int first, String section) throws ConfigException {
        String kw = l.keyword();
        KeyType type = null;
        int len = DEFAULT_LEN;
        long size = 0;
        long expire = 0;
        boolean nopurge = false;
        boolean srvAddr = false;
        String peers = section;
        Layout layout = new Layout();
        for (int i = first; l.has(i); i++) {
            String w = l.arg(i);
            switch (w) {
                case "type" -> {
                    type = KeyType.named(l.arg(++i));
                    if (type == null) {
                        throw new ConfigException(kw + ": unknown type '" + l.arg(i) + "'.");
                    }
                    if (type.hasLength() && l.arg(i + 1).equals("len")) {
                        i += 2;
                        len = (int) Units.integer(l.arg(i), "len", 1, 65535);
                    }
                }
                case "size" -> size = size(kw, l.arg(++i));
                case "expire" -> expire = expire(kw, l.arg(++i));
                case "nopurge" -> nopurge = true;
                case "srvkey" -> {
                    String k = l.arg(++i);
                    if (!k.equals("id") && !k.equals("addr")) {
                        throw new ConfigException(kw + " : unknown server key type '" + k + "'.");
                    }
                    srvAddr = k.equals("addr");
                }
                case "store" -> store(kw, l.arg(++i), layout);
                case "peers" -> {
                    if (section != null) {
                        throw new ConfigException(kw + ": unknown argument '" + w + "'.");
                    }
                    if (l.arg(i + 1).isEmpty()) {
                        throw new ConfigException(kw + ": missing argument after 'peers'.");
                    }
                    peers = l.arg(++i);
                }
                default -> throw new ConfigException(kw + ": unknown argument '" + w + "'.");
            }
        }
        // HAProxy looks at the size first: a bare "table" line is missing its size.
        if (size == 0) {
            throw new ConfigException(kw + ": missing size.");
        }
        if (type == null) {
            throw new ConfigException(kw + ": missing type.");
        }
        layout.done();
        StickTable t = new StickTable(name, type, len, (int) Math.min(size, Integer.MAX_VALUE), expire, nopurge, srvAddr, layout);
        if (peers != null) {
            // A peers section's table is known to the other peers by its name after the section's ("/t1").
            t.share(peers, section != null ? name.substring(section.length()) : name);
        }
        return t;
    }

    private static long size(String kw, String text) throws ConfigException {
        try {
            return Units.size(text, "size");
        } catch (ConfigException e) {
            throw wrapped(kw, e);
        }
    }

    /** Units' message in HAProxy's words for stick-table arguments: "unexpected character 'x' in argument of 'size'." */
    private static ConfigException wrapped(String kw, ConfigException e) {
        return new ConfigException(kw + ": " + e.getMessage().replace(" in '", " in argument of '") + ".");
    }

    private static long expire(String kw, String text) throws ConfigException {
        try {
            return Units.time(text, "expire");
        } catch (ConfigException e) {
            throw wrapped(kw, e);
        }
    }

    /** {@code store gpc0,conn_rate(10s),gpc(3),gpc_rate(3,10s)...} */
    private static void store(String kw, String list, Layout layout) throws ConfigException {
        for (String item : items(list)) {
            int paren = item.indexOf('(');
            String name = paren < 0 ? item : item.substring(0, paren);
            String arg = paren < 0 ? null : item.substring(paren + 1, item.endsWith(")") ? item.length() - 1 : item.length());
            DataType t = DataType.named(name);
            if (t == null) {
                throw new ConfigException(kw + ": unknown store option '" + name + "'.");
            }
            boolean rate = t.kind() == DataType.Kind.RATE;
            int wanted = (t.isArray() ? 1 : 0) + (rate ? 1 : 0);
            String[] args = arg == null ? new String[0] : arg.split(",", -1);
            if (args.length < wanted) {
                throw new ConfigException(kw + ": missing argument to store option '" + name + "'.");
            }
            if (args.length > wanted) {
                throw new ConfigException(kw + ": unexpected argument to store option '" + name + "'.");
            }
            int n = 1;
            if (t.isArray()) {
                n = (int) Math.max(0, Math.min(Integer.MAX_VALUE, parseLong(args[0])));
                if (n < 1 || n > 100) {
                    throw new ConfigException(kw + ": array size is out of allowed range (1-100) for store option '" + name + "'.");
                }
            }
            long period = rate ? Units.time(args[args.length - 1], name) : 0;
            if (layout.has(t)) {
                throw new ConfigException(kw + ": store option '" + name + "' declared twice.");
            }
            conflict(kw, layout, t, DataType.GPT, "gpt0", DataType.GPT0);
            conflict(kw, layout, t, DataType.GPC, "gpc[0/1]", DataType.GPC0, DataType.GPC1);
            conflict(kw, layout, t, DataType.GPC_RATE, "gpc[0/1]_rate", DataType.GPC0_RATE, DataType.GPC1_RATE);
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
    private static void conflict(String kw, Layout layout, DataType t, DataType array, String legacyName, DataType... legacy) throws ConfigException {
        for (DataType old : legacy) {
            if (t == array && layout.has(old) || t == old && layout.has(array)) {
                throw new ConfigException(kw + ": simultaneous usage of '" + array.text() + "' and '" + legacyName
                        + "' in a same table is not permitted as '" + array.text() + "' overrides '" + legacyName + "'.");
            }
        }
    }
}

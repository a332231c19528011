package io.fulcrum.stick;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The table commands of the CLI, with HAProxy 2.6's output and messages: {@code show table [<t> [filters]]},
 * {@code clear table <t> [filters]} and {@code set table <t> key <k> [data.<type> <v>]...}; a filter is
 * {@code data.<type> <op> <value>} (at most 4, all must match) or {@code key <k>}.
 */
final class TableCommands {
    /** HAProxy's limit on data filters in one command. */
    private static final int MAX_FILTERS = 4;
    private static final List<String> OPERATORS = List.of("eq", "ne", "le", "ge", "lt", "gt");

    private final StickTables tables;

    private TableCommands(StickTables tables) {
        this.tables = tables;
    }

    static void register(CliCommands c, StickTables tables) {
        TableCommands t = new TableCommands(tables);
        c.add("show table", "show table <table> [<filter>]*", "report table usage stats or dump this table's contents (filter: data/key)",
                CliLevel.USER, t::show);
        c.add("clear table", "clear table <table> [<filter>]*", "remove an entry from a table (filter: data/key)", CliLevel.OPERATOR, t::clear);
        c.add("set table", "set table <table> key <k> [data.* <v>]*", "update or create a table entry's data", CliLevel.OPERATOR, t::set);
    }

    /** A data filter: element 0 of {@code type} compared with {@code value} by {@code op}. */
    private record Filter(DataType type, String op, long value) {
        boolean matches(StickTable t, Entry e) {
            long v = t.get(e, type, 0);
            return switch (op) {
                case "eq" -> v == value;
                case "ne" -> v != value;
                case "le" -> v <= value;
                case "ge" -> v >= value;
                case "lt" -> v < value;
                default -> v > value;
            };
        }
    }

    /** What the filters of a command select: a key (null when none), or data filters. */
    private record Selection(Object key, boolean invalidKey, List<Filter> filters) {
        List<Entry> entries(StickTable t) {
            if (invalidKey) {
                return List.of();
            }
            if (key != null) {
                Entry e = t.lookup(key);
                return e == null ? List.of() : List.of(e);
            }
            List<Entry> l = new ArrayList<>();
            for (Entry e : t.snapshot()) {
                if (filters.stream().allMatch(f -> f.matches(t, e))) {
                    l.add(e);
                }
            }
            // Sorted here rather than kept sorted: the data path's lookups stay hash lookups.
            l.sort(Comparator.comparing(Entry::key, t.type().order()));
            return l;
        }
    }

    private void show(CliRequest r) throws CliException {
        if (r.arg(2).isEmpty()) {
            StringBuilder b = new StringBuilder();
            tables.listed().forEach(t -> header(b, t));
            r.print(b);
            return;
        }
        StickTable t = table(r);
        Selection s = selection(r, t);
        List<Entry> entries = s.entries(t);
        if (s.key() != null && entries.isEmpty() || s.invalidKey()) {
            return; // HAProxy prints nothing, not even the header, for a key it does not find or that cannot be one
        }
        StringBuilder b = new StringBuilder();
        header(b, t);
        for (Entry e : entries) {
            EntryText.append(b, t, e);
        }
        r.print(b);
    }

    private void clear(CliRequest r) throws CliException {
        if (r.arg(2).isEmpty()) {
            throw new CliException("Required arguments: <table> \"data.<store_data_type>\" <operator> <value> or <table> key <key>\n");
        }
        StickTable t = table(r);
        Selection s = selection(r, t);
        if (s.invalidKey()) {
            throw new CliException("Invalid key\n");
        }
        s.entries(t).forEach(t::remove); // entries in use stay, as in HAProxy
    }

    private void set(CliRequest r) throws CliException {
        if (r.arg(2).isEmpty()) {
            throw new CliException("Required arguments: <table> key <key> [data.<store_data_type> <value>]*\n");
        }
        StickTable t = table(r);
        if (r.arg(3).isEmpty()) {
            return; // as HAProxy: nothing to do, nothing said
        }
        if (r.arg(3).startsWith("data.")) {
            throw new CliException("content-based lookup is only supported with the \"show\" and \"clear\" actions\n");
        }
        if (!r.arg(3).equals("key")) {
            throw new CliException("Required arguments: <table> key <key> [data.<store_data_type> <value>]*\n");
        }
        Object key = key(r, t, 4);
        if (key == null) {
            return;
        }
        // As HAProxy: the entry exists from here on, and the data before a wrong one are stored.
        Entry e = t.getOrCreate(key);
        if (e == null) {
            throw new CliException("Unable to allocate a new entry\n");
        }
        for (int i = 5; !r.arg(i).isEmpty(); i += 2) {
            if (!r.arg(i).startsWith("data.")) {
                throw new CliException("\"data.<type>\" followed by a value expected\n");
            }
            DataType type = DataType.named(r.arg(i).substring(5));
            if (type == null) {
                throw new CliException("Unknown data type\n");
            }
            if (!t.stores(type)) {
                throw new CliException("Data type not stored in this table\n");
            }
            Long v = parseLong(r.arg(i + 1));
            if (v == null || type == DataType.SERVER_KEY) {
                throw new CliException("Require a valid integer value to store\n");
            }
            t.set(e, type, 0, v);
        }
    }

    private StickTable table(CliRequest r) throws CliException {
        StickTable t = tables.get(r.arg(2));
        if (t == null) {
            throw new CliException("No such table\n");
        }
        return t;
    }

    /** The key at word {@code i} for set; an invalid one is refused. */
    private static Object key(CliRequest r, StickTable t, int i) throws CliException {
        if (r.arg(i).isEmpty()) {
            throw new CliException("Key value expected\n");
        }
        if (t.type() == KeyType.BINARY) {
            throw new CliException("Inserting keys into tables of type other than ip, ipv6, string and integer is not supported\n");
        }
        Object key = parseKey(t, r.arg(i));
        if (key == null) {
            throw new CliException("Invalid key\n");
        }
        return key;
    }

    /** A key as the CLI reads it: the table's own syntax, but an ip table's as {@link #inetaddrHost} reads it. */
    private static Object parseKey(StickTable t, String text) {
        return t.type() == KeyType.IP ? (Object) inetaddrHost(text) : t.parseKey(text);
    }

    /**
     * HAProxy's inetaddr_host(), with which its CLI reads an IPv4 key: up to four groups of digits separated by
     * dots, the last three digits of each group counted, never an error. So "nothex" or "::1" is 0.0.0.0, "1.2.3"
     * is 1.2.3.0 and "10.0.0.300" is 10.0.1.44 (the group's excess carries into the one before it).
     */
    static int inetaddrHost(String text) {
        int addr = 0;
        int p = 0;
        for (int shift = 24; ; shift -= 8) {
            int start = p;
            while (p < text.length() && text.charAt(p) >= '0' && text.charAt(p) <= '9') {
                p++;
            }
            int group = 0;
            for (int d = Math.max(start, p - 3); d < p; d++) {
                group = group * 10 + text.charAt(d) - '0';
            }
            addr += group << shift; // (a group above 255 carries into the one before it)
            if (shift == 0 || p >= text.length() || text.charAt(p) != '.') {
                return addr;
            }
            p++;
        }
    }

    private static Selection selection(CliRequest r, StickTable t) throws CliException {
        List<Filter> filters = new ArrayList<>();
        for (int i = 3; !r.arg(i).isEmpty(); i += 3) {
            String w = r.arg(i);
            if (w.equals("key")) {
                if (r.arg(i + 1).isEmpty()) {
                    throw new CliException("Key value expected\n");
                }
                Object key = t.type() == KeyType.BINARY ? null : parseKey(t, r.arg(i + 1));
                return new Selection(key, key == null, List.of());
            }
            if (!w.startsWith("data.")) {
                throw new CliException("Optional argument only supports \"data.<store_data_type>\" <operator> <value> and key <key>\n");
            }
            if (filters.size() == MAX_FILTERS) {
                throw new CliException("Detected extra data in filter, " + ordinal(i + 1) + " word of input, after '" + r.arg(i - 1) + "'\n");
            }
            String entry = "Filter entry #" + (filters.size() + 1) + ": ";
            DataType type = DataType.named(w.substring(5));
            if (type == null) {
                throw new CliException(entry + "Unknown data type\n");
            }
            if (!t.stores(type) || type == DataType.SERVER_KEY) {
                throw new CliException(entry + "Data type not stored in this table\n");
            }
            if (!OPERATORS.contains(r.arg(i + 1))) {
                throw new CliException(entry + "Require and operator among \"eq\", \"ne\", \"le\", \"ge\", \"lt\", \"gt\"\n");
            }
            Long v = parseLong(r.arg(i + 2));
            if (v == null) {
                throw new CliException(entry + "Require a valid integer value to compare against\n");
            }
            filters.add(new Filter(type, r.arg(i + 1), v));
        }
        return new Selection(null, false, filters);
    }

    private static Long parseLong(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** "1st", "2nd", "16th", as HAProxy numbers the words of a command. */
    private static String ordinal(int n) {
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }

    private static void header(StringBuilder b, StickTable t) {
        b.append("# table: ").append(t.name()).append(", type: ").append(t.type().text()).append(", size:").append(t.size())
                .append(", used:").append(t.used()).append('\n');
    }
}

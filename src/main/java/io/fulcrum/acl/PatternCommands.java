package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * The CLI's map and ACL commands (management.txt 9.3): show, get, add, del, set, clear, prepare and
 * commit, with HAProxy 2.6's outputs and messages. A set is named by "#<id>" or by its file. As in HAProxy,
 * every level may use them, and "add", "set" and "get" accept any set while the others want one that
 * the kind of the command (map or ACL) uses.
 */
final class PatternCommands {
    private final PatternFiles files;
    /** True for the map commands, false for the ACL ones. */
    private final boolean map;

    private PatternCommands(PatternFiles files, boolean map) {
        this.files = files;
        this.map = map;
    }

    static void register(CliCommands c, PatternFiles files) {
        PatternCommands maps = new PatternCommands(files, true);
        PatternCommands acls = new PatternCommands(files, false);
        c.add("show map", "show map [@ver] [map]", "report available maps or dump a map's contents", CliLevel.USER, maps::show);
        c.add("show acl", "show acl [@<ver>] <acl>]", "report available acls or dump an acl's contents", CliLevel.USER, acls::show);
        c.add("get map", "get map <acl> <value>", "report the keys and values matching a sample for a map", CliLevel.USER, maps::get);
        c.add("get acl", "get acl <acl> <value>", "report the patterns matching a sample for an ACL", CliLevel.USER, acls::get);
        c.add("add map", "add map [@<ver>] <map> <key> <val>", "add a map entry (payload supported instead of key/val)",
                CliLevel.USER, maps::add);
        c.add("add acl", "add acl [@<ver>] <acl> <pattern>", "add an acl entry", CliLevel.USER, acls::add);
        c.add("del map", "del map <map> [<key>|#<ref>]", "delete map entries matching <key>", CliLevel.USER, maps::del);
        c.add("del acl", "del acl <acl> [<key>|#<ref>]", "delete acl entries matching <key>", CliLevel.USER, acls::del);
        c.add("set map", "set map <map> [<key>|#<ref>] <value>", "modify a map entry", CliLevel.USER, maps::set);
        c.add("clear map", "clear map [@<ver>] <map>", "clear the contents of this map", CliLevel.USER, maps::clear);
        c.add("clear acl", "clear acl [@<ver>] <acl>", "clear the contents of this acl", CliLevel.USER, acls::clear);
        c.add("prepare map", "prepare map <acl>", "prepare a new version for atomic map replacement", CliLevel.USER, maps::prepare);
        c.add("prepare acl", "prepare acl <acl>", "prepare a new version for atomic ACL replacement", CliLevel.USER, acls::prepare);
        c.add("commit map", "commit map @<ver> <map>", "commit the map at this version", CliLevel.USER, maps::commit);
        c.add("commit acl", "commit acl @<ver> <acl>", "commit the ACL at this version", CliLevel.USER, acls::commit);
    }

    /** "map" or "ACL", as the messages name the kind. */
    private String kind() {
        return map ? "map" : "ACL";
    }

    private CliException unknown(boolean mapMessage) {
        return new CliException("Unknown " + (mapMessage ? "map" : "ACL") + " identifier. Please use #<id> or <file>.\n");
    }

    /** The set {@code ref} names, whatever uses it. */
    private PatternFile any(String ref) throws CliException {
        PatternFile f = files.find(ref);
        if (f == null) {
            throw unknown(map);
        }
        return f;
    }

    /** The set {@code ref} names, which this kind of command must use. */
    private PatternFile used(String ref) throws CliException {
        return used(ref, map);
    }

    private PatternFile used(String ref, boolean mapMessage) throws CliException {
        PatternFile f = files.find(ref);
        if (f == null || !(map ? f.usedByMap() : f.usedByAcl())) {
            throw unknown(mapMessage);
        }
        return f;
    }

    /**
     * The number after '@', read as HAProxy does: its leading digits (none is 0), as an unsigned 32-bit
     * value.
     */
    private static int version(String word) {
        long v = 0;
        for (int i = 1; i < word.length() && Character.isDigit(word.charAt(i)); i++) {
            v = v * 10 + (word.charAt(i) - '0') & 0xffffffffL;
        }
        return (int) v;
    }

    private void show(CliRequest r) throws CliException {
        boolean versioned = r.arg(2).startsWith("@");
        String ref = r.arg(versioned ? 3 : 2);
        if (!versioned && ref.isEmpty()) {
            StringBuilder b = new StringBuilder("# id (file) description\n");
            for (PatternFile f : files.all()) {
                if (map ? f.usedByMap() : f.usedByAcl()) {
                    b.append(f.describe()).append('\n');
                }
            }
            r.print(b);
            return;
        }
        PatternFile f = used(ref);
        StringBuilder b = new StringBuilder();
        for (PatternFile.Entry e : versioned ? f.entries(version(r.arg(2))) : f.entries()) {
            b.append("0x").append(Long.toHexString(e.ref())).append(' ').append(e.key());
            if (e.value() != null) {
                b.append(' ').append(e.value());
            }
            b.append('\n');
        }
        r.print(b);
    }

    /** One line per use of the set: what a lookup of the value finds, as HAProxy reports it. */
    private void get(CliRequest r) throws CliException {
        if (r.arg(2).isEmpty() || r.arg(3).isEmpty()) {
            throw new CliException("Missing " + kind() + " identifier and/or key.\n");
        }
        StringBuilder b = new StringBuilder();
        for (PatternFile.Match m : any(r.arg(2)).lookup(r.arg(3))) {
            PatternUse use = m.use();
            b.append("type=").append(use.matchName()).append(", case=").append(use.ignoreCase() ? "insensitive" : "sensitive");
            PatternFile.Entry e = m.entry();
            if (e == null) {
                b.append(map ? ", found=no" : ", match=no").append('\n');
                continue;
            }
            b.append(map ? ", found=yes" : ", match=yes").append(", idx=").append(use.index(e.key()));
            b.append(map ? ", key=\"" : ", pattern=\"").append(e.key()).append('"');
            if (map) {
                String type = e.value() == null ? null : use.valueType(e.value());
                b.append(type == null ? ", value=none" : ", value=\"" + e.value() + "\", type=\"" + type + "\"");
            }
            b.append('\n');
        }
        r.print(b);
    }

    private void add(CliRequest r) throws CliException {
        boolean versioned = r.arg(2).startsWith("@");
        int at = versioned ? 3 : 2;
        String payload = map ? r.payload() : null;
        if (r.arg(at).isEmpty() || payload == null && (r.arg(at + 1).isEmpty() || map && r.arg(at + 2).isEmpty())) {
            throw new CliException(map
                    ? "'add map' expects three parameters (map identifier, key and value) or one parameter (map identifier) and a payload\n"
                    : "'add acl' expects two parameters: ACL identifier and pattern.\n");
        }
        PatternFile f = any(r.arg(at));
        if (!map && f.isMap()) {
            throw new CliException("This ACL is shared with a map containing samples. You must use the command 'add map' to add values.\n");
        }
        int version = versioned ? version(r.arg(2)) : f.currentVersion();
        if (!f.accepts(version)) {
            throw new CliException("Version number in the future, please use 'prepare " + (map ? "map" : "acl") + "' before.\n");
        }
        List<String[]> pairs = new ArrayList<>();
        String missing = null;
        if (payload == null) {
            pairs.add(new String[] {r.arg(at + 1), map ? r.arg(at + 2) : null});
        } else {
            missing = pairs(payload, pairs);
        }
        change(() -> {
            f.add(version, pairs);
            return 0;
        });
        if (missing != null) {
            throw new CliException("Missing value for key '" + missing + "'.\n");
        }
    }

    /**
     * Reads the key/value lines of a payload into {@code pairs}: on each, the first word is the key and
     * the rest of the line, after blanks, the value. Stops at a line without value and returns its key
     * (the lines before it are added, as in HAProxy), else null.
     */
    private static String pairs(String payload, List<String[]> pairs) {
        if (payload.isEmpty()) {
            return "\n"; // what HAProxy reports for an empty payload
        }
        for (String line : payload.split("\n")) {
            int k = skipBlanks(line, 0);
            int end = k;
            while (end < line.length() && line.charAt(end) != ' ' && line.charAt(end) != '\t') {
                end++;
            }
            int v = skipBlanks(line, end);
            if (v == line.length()) {
                return line.substring(k, end);
            }
            pairs.add(new String[] {line.substring(k, end), line.substring(v)});
        }
        return null;
    }

    private static int skipBlanks(String line, int from) {
        while (from < line.length() && (line.charAt(from) == ' ' || line.charAt(from) == '\t')) {
            from++;
        }
        return from;
    }

    private void del(CliRequest r) throws CliException {
        if (r.arg(2).isEmpty() || r.arg(3).isEmpty()) {
            throw new CliException("This command expects two parameters: " + kind() + " identifier and key.\n");
        }
        PatternFile f = used(r.arg(2), true); // HAProxy names maps in this message for "del acl" too
        if (change(() -> f.remove(selector(r.arg(3)))) == 0) {
            throw new CliException("Key not found.\n");
        }
    }

    private void set(CliRequest r) throws CliException {
        if (r.arg(2).isEmpty() || r.arg(3).isEmpty() || r.arg(4).isEmpty()) {
            throw new CliException("'set map' expects three parameters: map identifier, key and value.\n");
        }
        PatternFile f = any(r.arg(2));
        if (change(() -> f.setValue(selector(r.arg(3)), r.arg(4))) == 0) {
            throw new CliException(r.arg(3).startsWith("#") ? "key or pattern not found.\n" : "entry not found.\n");
        }
    }

    /** The entries "<key>" or "#<ref>" designates (a reference that is not a number designates none). */
    private static PatternFile.Selector selector(String word) {
        if (!word.startsWith("#")) {
            return PatternFile.keyed(word);
        }
        String hex = word.startsWith("#0x") || word.startsWith("#0X") ? word.substring(3) : word.substring(1);
        try {
            return PatternFile.referenced(Long.parseUnsignedLong(hex, 16));
        } catch (NumberFormatException notHex) {
            return PatternFile.referenced(0); // no entry has reference 0
        }
    }

    private void clear(CliRequest r) throws CliException {
        boolean versioned = r.arg(2).startsWith("@");
        String ref = r.arg(versioned ? 3 : 2);
        if (ref.isEmpty()) {
            throw new CliException("Missing " + kind() + " identifier.\n");
        }
        PatternFile f = used(ref);
        int version = versioned ? version(r.arg(2)) : f.currentVersion();
        change(() -> {
            f.clear(version);
            return 0;
        });
    }

    private void prepare(CliRequest r) throws CliException {
        PatternFile f = used(r.arg(2));
        int v = change(f::prepare);
        r.feedback(Severity.INFO, "New version created: " + Integer.toUnsignedString(v) + "\n");
    }

    private void commit(CliRequest r) throws CliException {
        if (!r.arg(2).startsWith("@")) {
            throw new CliException("Missing version number.\n");
        }
        if (r.arg(3).isEmpty()) {
            throw new CliException("Missing " + kind() + " identifier.\n");
        }
        PatternFile f = used(r.arg(3));
        if (change(() -> f.commit(version(r.arg(2))) ? 1 : 0) == 0) {
            throw new CliException("Version number out of range.\n");
        }
    }

    @FunctionalInterface
    private interface Change {
        int run() throws ConfigException;
    }

    /** Runs a change of a set; an entry refused by one of its uses is reported as HAProxy does. */
    private static int change(Change c) throws CliException {
        try {
            return c.run();
        } catch (ConfigException e) {
            throw new CliException(e.getMessage() + ".\n");
        }
    }
}

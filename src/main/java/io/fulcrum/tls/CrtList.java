package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import io.fulcrum.listener.BindOptionException;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@code crt-list} file as loaded, and as the CLI's {@code add/del ssl crt-list} change it: its lines (a certificate,
 * options between brackets, SNI filters), numbered as in the file and then by the CLI, and the bind lines using it.
 */
final class CrtList {
    private final String name;
    private final List<Line> lines = new ArrayList<>();
    private final List<BindSite> sites = new ArrayList<>();
    private int lineCount;

    /**
     * One line for one certificate file.
     *
     * @param options what it sets between brackets: null without brackets
     */
    record Line(String cert, BindOptions options, List<String> filters, int number) {
    }

    /** A line as written: the certificate's name (not resolved yet), its options and filters. */
    record Parsed(String cert, BindOptions options, List<String> filters) {
    }

    CrtList(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    List<Line> lines() {
        return lines;
    }

    List<BindSite> sites() {
        return sites;
    }

    /** The number of the next line the CLI adds: after the file's last line and the CLI's earlier ones. */
    int nextNumber() {
        return lineCount + 1;
    }

    void lineCount(int n) {
        lineCount = Math.max(lineCount, n);
    }

    /** Where a line the CLI adds ({@code add ssl crt-list}) comes from: HAProxy's "[CLI:1]". */
    static final Source CLI = new Source("CLI", 1);

    /**
     * Reads a line ({@code <cert> [<options>] [<filters>...]}), or null for a blank line or a comment.
     *
     * @param where the prefix of an error ("'crt-list' : parsing [file:line]: ")
     */
    static Parsed parse(String text, String where, Source source, KeywordTable<BindOptions> optionTable) throws ConfigException {
        String line = text.strip();
        if (line.isEmpty() || line.startsWith("#")) {
            return null;
        }
        int open = line.indexOf('[');
        int close = line.indexOf(']');
        String head = open < 0 ? line : line.substring(0, open);
        if (open >= 0 && close < 0) {
            throw new ConfigException(where + "missing ']' in the options");
        }
        List<String> words = new ArrayList<>(List.of(head.strip().split("\\s+")));
        String tail = open < 0 ? "" : line.substring(close + 1).strip();
        if (!tail.isEmpty()) {
            words.addAll(List.of(tail.split("\\s+")));
        }
        BindOptions o = open < 0 ? null : options(line.substring(open + 1, close), where, source, optionTable);
        return new Parsed(words.get(0), o, List.copyOf(words.subList(1, words.size())));
    }

    /** The options between the brackets of a line (an empty set for "[]"). */
    private static BindOptions options(String text, String where, Source source, KeywordTable<BindOptions> optionTable)
            throws ConfigException {
        BindOptions o = new BindOptions();
        String[] words = text.isBlank() ? new String[0] : text.strip().split("\\s+");
        // An option's own error is told without the line's place, as HAProxy 2.6 tells it ("'crt-list' : " is kept)
        String option = where.replaceFirst("parsing \\[[^]]*]: $", "");
        for (int i = 0; i < words.length; ) {
            KeywordTable.Entry<BindOptions> e = optionTable.find(words[i]);
            if (e == null) {
                throw new ConfigException(where + "unknown ssl keyword " + words[i]);
            }
            if (i + e.flags() >= words.length) {
                throw new ConfigException(where + "ssl args out of '[]' for " + words[i]);
            }
            try {
                List<Token> tokens = Stream.of(words).skip(i).limit(1 + e.flags()).map(w -> new Token(w, 0)).toList();
                e.parser().parse(o, new ConfigLine(source, text, tokens, null));
            } catch (BindOptionException ex) {
                throw new ConfigException(option + ex.getMessage());
            } catch (ConfigException ex) {
                String m = ex.getMessage();
                throw new ConfigException(option + (m.startsWith("'" + words[i] + "'") ? m : "'" + words[i] + "' : " + m));
            }
            i += 1 + e.flags();
        }
        return o;
    }

    /**
     * A line as {@code show ssl crt-list} prints it: the options in HAProxy's order, then the filters. (HAProxy 2.6
     * writes a NUL byte after the ALPN list: not copied.)
     */
    static String describe(Line l, boolean numbered) {
        StringBuilder b = new StringBuilder(l.cert());
        if (numbered) {
            b.append(':').append(l.number());
        }
        BindOptions o = l.options();
        if (o != null) {
            List<String> parts = new ArrayList<>();
            if (o.alpn != null) {
                parts.add("alpn " + String.join(",", o.alpn));
            }
            add(parts, "verify", o.verify);
            if (o.allow0rtt) {
                parts.add("allow-0rtt");
            }
            add(parts, "ca-file", o.caFile);
            add(parts, "crl-file", o.crlFile);
            add(parts, "ciphers", o.ciphers);
            add(parts, "ciphersuites", o.ciphersuites);
            add(parts, "curves", o.curves);
            add(parts, "ecdhe", o.ecdhe);
            add(parts, "ssl-min-ver", o.minVersion == null ? null : o.minVersion.keyword);
            add(parts, "ssl-max-ver", o.maxVersion == null ? null : o.maxVersion.keyword);
            b.append(" [").append(String.join(" ", parts)).append(']');
        }
        for (String f : l.filters()) {
            b.append(' ').append(f);
        }
        return b.toString();
    }

    private static void add(List<String> parts, String keyword, String value) {
        if (value != null) {
            parts.add(keyword + " " + value);
        }
    }
}

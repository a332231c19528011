package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Stage;

import java.util.ArrayList;
import java.util.List;

/**
 * Compiles log-format strings with HAProxy's syntax: {@code %%}, {@code %var}, {@code %{flags}var},
 * {@code %[expr]} and {@code %{flags}[expr]}, flags being {@code +Q}, {@code +X}, {@code +E} (or
 * {@code -}), {@code %o} setting the flags of the variables after it.
 */
public final class LogFormatParser {
    private final ExprParser exprs;

    public LogFormatParser(ExprParser exprs) {
        this.exprs = exprs;
    }

    /**
     * @param stage       where the format is evaluated: an expression whose data does not exist there is an error
     * @param mergeSpaces runs of spaces are one delimiter ({@code log-format}, {@code unique-id-format})
     * @param mandatory   a missing sample is written "-" (log lines) instead of nothing (rule values)
     */
    public LogFormat parse(String text, Stage stage, boolean mergeSpaces, boolean mandatory) throws ConfigException {
        List<LogFormat.Node> nodes = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int defaultFlags = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' && mergeSpaces) {
                lit.append(' ');
                while (i < text.length() && text.charAt(i) == ' ') {
                    i++;
                }
                continue;
            }
            if (c != '%') {
                lit.append(c);
                i++;
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == '%') {
                lit.append('%');
                i += 2;
                continue;
            }
            i++;
            int flags = defaultFlags;
            if (i < text.length() && text.charAt(i) == '{') {
                int close = text.indexOf('}', i);
                if (close < 0) {
                    throw new ConfigException("missing '}' after '%{' in log-format '" + text + "'");
                }
                flags = flags(text.substring(i + 1, close), flags);
                i = close + 1;
            }
            if (lit.length() > 0) {
                nodes.add(new LogFormat.Literal(lit.toString()));
                lit.setLength(0);
            }
            if (i < text.length() && text.charAt(i) == '[') {
                ExprParser.Parsed p;
                try {
                    p = exprs.parse(text, i + 1, true);
                } catch (ConfigException e) {
                    throw new ConfigException("failed to parse sample expression <" + text.substring(i + 1) + "> : " + e.getMessage());
                }
                if (p.end() >= text.length() || text.charAt(p.end()) != ']') {
                    throw new ConfigException("missing ']' after sample expression <" + text.substring(i + 1) + ">");
                }
                if (stage != null && (p.expr().stages() & stage.bit()) == 0) {
                    throw new ConfigException("sample fetch <" + text.substring(i + 1) + "> may not be reliably used here because it needs '"
                            + p.expr().fetch().source() + "' which is not available here");
                }
                nodes.add(new LogFormat.SampleNode(p.expr(), mandatory));
                i = p.end() + 1;
                continue;
            }
            int start = i;
            while (i < text.length() && Character.isLetterOrDigit(text.charAt(i)) && text.charAt(i) < 128) {
                i++;
            }
            String name = text.substring(start, i);
            if (name.equals("o")) {
                defaultFlags = flags;
                continue;
            }
            LogVariable v = LogVariables.find(name);
            if (v == null) {
                if (LogVariables.HAPROXY.contains(name)) {
                    throw new ConfigException("format variable '%" + name + "' is not supported by Fulcrum yet");
                }
                throw new ConfigException("no such format variable '" + name + "'. If you wanted to emit the '%' character verbatim, you need to use '%%'");
            }
            nodes.add(new LogFormat.VariableNode(v, flags));
        }
        if (lit.length() > 0) {
            nodes.add(new LogFormat.Literal(lit.toString()));
        }
        return new LogFormat(text, nodes);
    }

    private static int flags(String spec, int flags) throws ConfigException {
        for (String f : spec.split(",")) {
            if (f.isEmpty()) {
                continue;
            }
            boolean add = f.charAt(0) != '-';
            String name = f.charAt(0) == '+' || f.charAt(0) == '-' ? f.substring(1) : f;
            int bit = switch (name) {
                case "Q" -> LogVariable.QUOTE;
                case "X" -> LogVariable.HEX;
                case "E" -> LogVariable.ESCAPE;
                default -> throw new ConfigException("unknown format flag '" + name + "'");
            };
            flags = add ? flags | bit : flags & ~bit;
        }
        return flags;
    }
}

package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.ArgResolution;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Source;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Compiles log-format strings with HAProxy's syntax: {@code %%}, {@code %var}, {@code %{flags}var},
 * {@code %[expr]} and {@code %{flags}[expr]}, flags being {@code +Q}, {@code +X}, {@code +E} (or
 * {@code -}; others are ignored, as HAProxy does), {@code %o} setting the flags of the variables after it.
 */
public final class LogFormatParser {
    private final ExprParser exprs;
    private final int ruleFlags;
    /** Receives the warnings of the formats of HTTP rules, for the line being parsed; null for the others. */
    private final Consumer<String> warnings;

    public LogFormatParser(ExprParser exprs) {
        this(exprs, 0, null);
    }

    private LogFormatParser(ExprParser exprs, int ruleFlags, Consumer<String> warnings) {
        this.exprs = exprs;
        this.ruleFlags = ruleFlags;
        this.warnings = warnings;
    }

    /**
     * A parser for the values of HTTP rules, whose samples are encoded as {@link LogVariable#HTTP} says, and whose
     * layer-6 fetches are reported to {@code warnings} as HAProxy warns about them.
     */
    public LogFormatParser forHttpRules(Consumer<String> warnings) {
        return new LogFormatParser(exprs, LogVariable.HTTP, warnings);
    }

    /**
     * Compiles a rule value (set-header, redirect location...).
     *
     * @param stage       where the format is evaluated: an expression whose data does not exist there is an error
     * @param mergeSpaces runs of spaces are field separators that merge ({@code log-format}, {@code unique-id-format})
     * @param mandatory   a missing sample is written "-" (log lines) instead of nothing (rule values)
     */
    public LogFormat parse(String text, Stage stage, boolean mergeSpaces, boolean mandatory) throws ConfigException {
        return parse(text, stage == null ? null : StageSet.of(stage), mergeSpaces, mandatory);
    }

    /** As {@link #parse(String, Stage, boolean, boolean)}, for a value evaluated at any of the stages {@code where}. */
    public LogFormat parse(String text, StageSet where, boolean mergeSpaces, boolean mandatory) throws ConfigException {
        return parse(text, where, mergeSpaces, mandatory, null, ruleFlags);
    }

    /** A rule value whose samples are never encoded for HTTP: HAProxy's {@code set-var-fmt}, in HTTP rules too. */
    public LogFormat parseUnencoded(String text, StageSet where) throws ConfigException {
        return parse(text, where, false, false, null, 0);
    }

    /**
     * Compiles a log line format ({@code log-format}, {@code error-log-format}, {@code unique-id-format}):
     * spaces separate fields, missing samples are "-", and variables of HTTP transactions are refused
     * unless {@code http}.
     */
    public LogFormat parseLogLine(String text, boolean http) throws ConfigException {
        return parseLogLine(text, http, StageSet.of(Stage.FE_LOG_END));
    }

    /** As {@link #parseLogLine(String, boolean)}, evaluated at {@code where} ({@code unique-id-format}: with the request's headers). */
    public LogFormat parseLogLine(String text, boolean http, StageSet where) throws ConfigException {
        return parse(text, where, true, true, http, 0);
    }

    private LogFormat parse(String text, StageSet where, boolean mergeSpaces, boolean mandatory, Boolean http, int sampleFlags)
            throws ConfigException {
        List<LogFormat.Node> nodes = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int defaultFlags = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' && mergeSpaces) {
                flush(lit, nodes);
                nodes.add(new LogFormat.Separator());
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
            if (i + 1 >= text.length()) {
                throw new ConfigException("truncated line after '%'");
            }
            if (text.charAt(i + 1) == '%') {
                lit.append('%');
                i += 2;
                continue;
            }
            int percent = i;
            i++;
            int flags = defaultFlags;
            boolean modified = false;
            if (text.charAt(i) == '{') {
                int close = text.indexOf('}', i);
                if (close < 0) {
                    throw new ConfigException("truncated line after '" + text.substring(i + 1) + "'");
                }
                flags = flags(text.substring(i + 1, close), flags);
                modified = true;
                i = close + 1;
            }
            if (i < text.length() && text.charAt(i) == '[') {
                flush(lit, nodes);
                // HAProxy's HTTP encoding (lf_encode_chunk) writes no quotes: +Q is dropped there, +E is kept
                i = sample(text, i, where, mandatory, sampleFlags != 0 ? flags & ~LogVariable.QUOTE | sampleFlags : flags, nodes);
                continue;
            }
            int start = i;
            while (i < text.length() && Character.isLetterOrDigit(text.charAt(i)) && text.charAt(i) < 128) {
                i++;
            }
            String name = text.substring(start, i);
            if (name.isEmpty()) {
                if (modified) {
                    throw new ConfigException("parse argument modifier without variable name near '" + text.substring(percent, i) + "'");
                }
                lit.append('%'); // '%' before a character that starts no variable stays as it is
                continue;
            }
            if (name.equals("o")) {
                defaultFlags = flags;
                continue;
            }
            LogVariables.Entry v = LogVariables.find(name);
            if (v == null) {
                if (LogVariables.HAPROXY.contains(name)) {
                    throw new ConfigException("format variable '" + name + "' is not supported by Fulcrum yet");
                }
                throw new ConfigException("no such format variable '" + name + "'. If you wanted to emit the '%' character verbatim, you need to use '%%'");
            }
            if (http != null && v.httpOnly() && !http) {
                throw new ConfigException("format variable '" + name + "' is reserved for HTTP mode");
            }
            flush(lit, nodes);
            nodes.add(new LogFormat.VariableNode(v.variable(), flags, LogVariables.AT_END.contains(name),
                    LogVariables.SILENT_WHEN_NONE.contains(name)));
        }
        flush(lit, nodes);
        return new LogFormat(text, nodes);
    }

    /** Parses {@code %[expr]} starting at the '[' at {@code open}; returns the index after the ']'. */
    private int sample(String text, int open, StageSet where, boolean mandatory, int flags, List<LogFormat.Node> nodes) throws ConfigException {
        ExprParser.Parsed p;
        try {
            p = exprs.parse(text, open + 1, true);
        } catch (ArgResolution.Unresolved e) {
            throw e; // HAProxy's whole message, said apart from the format's
        } catch (ConfigException e) {
            throw new ConfigException("failed to parse sample expression <" + text.substring(open + 1) + "> : " + e.getMessage());
        }
        if (p.end() >= text.length()) {
            throw new ConfigException("missing ']' after '" + text.substring(open + 1) + "'");
        }
        if (text.charAt(p.end()) != ']') {
            throw new ConfigException("expected ']' after '" + text.substring(open + 1, p.end()) + "', but found '" + text.charAt(p.end()) + "'");
        }
        if (where != null && !where.allows(p.expr().stages())) {
            throw new ConfigException("sample fetch <" + text.substring(open + 1) + "> may not be reliably used here because it needs '"
                    + p.expr().fetch().source() + "' which is not available here");
        }
        Source source = p.expr().fetch().source();
        if (warnings != null && (flags & LogVariable.HTTP) != 0 && (source == Source.L6REQ || source == Source.L6RES)) {
            // HAProxy's words; it still evaluates the fetch (req.len is then the size of the message in its HTX form).
            warnings.accept("L6 sample fetch <" + text.substring(open + 1) + "> ignored in HTTP log-format string.");
        }
        nodes.add(new LogFormat.SampleNode(p.expr(), mandatory, flags));
        return p.end() + 1;
    }

    private static void flush(StringBuilder lit, List<LogFormat.Node> nodes) {
        if (lit.length() > 0) {
            nodes.add(new LogFormat.Literal(lit.toString()));
            lit.setLength(0);
        }
    }

    private static int flags(String spec, int flags) {
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
                default -> 0;
            };
            flags = add ? flags | bit : flags & ~bit;
        }
        return flags;
    }
}

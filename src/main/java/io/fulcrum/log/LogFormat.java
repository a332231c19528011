package io.fulcrum.log;

import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;

import java.util.List;

/**
 * A compiled log-format string: literal text, {@code %var} variables and {@code %[expr]} sample
 * expressions. Used for log lines and for the values of rules ({@code set-header}, {@code lf-string},
 * {@code redirect location}...). Immutable and shared by every thread.
 */
public final class LogFormat {

    /** One piece of a format. */
    interface Node {
        void append(SampleContext ctx, StringBuilder out);
    }

    record Literal(String text) implements Node {
        @Override
        public void append(SampleContext ctx, StringBuilder out) {
            out.append(text);
        }
    }

    /**
     * A sample expression, quoted, escaped or encoded for HTTP as its flags say. A missing or empty sample
     * writes nothing in rule values, and "-" in log lines ({@code mandatory}); {@code ""} when quoted, as
     * HAProxy's lf_text_len.
     */
    record SampleNode(Expr expr, boolean mandatory, int flags) implements Node {
        @Override
        public void append(SampleContext ctx, StringBuilder out) {
            Sample s = new Sample();
            if (expr.eval(ctx, s, SampleType.STR) && (s.length() > 0 || !mandatory)) {
                if ((flags & ~LogVariable.HTTP) == 0) { // the usual case, written straight into the output
                    boolean[] encode = flags != 0 ? LogText.HTTP : null;
                    for (int i = 0; i < s.length(); i++) {
                        int b = s.byteAt(i) & 0xff;
                        if (encode != null && encode[b]) {
                            LogText.hexByte(out.append('%'), b);
                        } else {
                            out.append((char) b);
                        }
                    }
                    return;
                }
                StringBuilder text = new StringBuilder(s.length());
                for (int i = 0; i < s.length(); i++) {
                    text.append((char) (s.byteAt(i) & 0xff));
                }
                LogText.append(out, text, flags, (flags & LogVariable.HTTP) != 0 ? LogText.HTTP : null, '%');
            } else if (mandatory || (flags & LogVariable.QUOTE) != 0) { // (quoted: "" in rule values too)
                LogVariable.text(out, null, flags);
            }
        }
    }

    /**
     * A run of spaces in a log-format line: one space, written unless the line is empty or ends with a separator
     * already (HAProxy's last_isspace: a field written empty counts, except the captures when there are none).
     */
    record Separator() implements Node {
        @Override
        public void append(SampleContext ctx, StringBuilder out) {
            out.append(' ');
        }
    }

    /**
     * A {@code %var} variable with its flags.
     *
     * @param atEnd the variable is known only once the transaction ends ({@link LogVariables#AT_END})
     * @param silent writing nothing, it does not count as written for the separators ({@link LogVariables#SILENT_WHEN_NONE})
     */
    record VariableNode(LogVariable variable, int flags, boolean atEnd, boolean silent) implements Node {
        @Override
        public void append(SampleContext ctx, StringBuilder out) {
            variable.append(ctx, out, flags);
        }
    }

    private final String text;
    private final Node[] nodes;

    LogFormat(String text, List<Node> nodes) {
        this.text = text;
        this.nodes = nodes.toArray(new Node[0]);
    }

    public void append(SampleContext ctx, StringBuilder out) {
        boolean afterSpace = true;
        for (Node n : nodes) {
            if (n instanceof Separator) {
                if (!afterSpace) {
                    n.append(ctx, out);
                    afterSpace = true;
                }
            } else {
                int before = out.length();
                n.append(ctx, out);
                afterSpace &= out.length() == before && n instanceof VariableNode v && v.silent();
            }
        }
    }

    public String format(SampleContext ctx) {
        if (nodes.length == 1 && nodes[0] instanceof Literal l) {
            return l.text();
        }
        StringBuilder out = new StringBuilder(64);
        append(ctx, out);
        return out.toString();
    }

    /** True when the format is only text (it can be computed once). */
    public boolean isConstant() {
        for (Node n : nodes) {
            if (!(n instanceof Literal)) {
                return false;
            }
        }
        return true;
    }

    /** True when a variable of the format is known only at the transaction's end (HAProxy's LW_BYTES). */
    public boolean waitsForEnd() {
        for (Node n : nodes) {
            if (n instanceof VariableNode v && v.atEnd()) {
                return true;
            }
        }
        return false;
    }

    /** The format as written. */
    @Override
    public String toString() {
        return text;
    }
}

package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.log.LogFormat;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

/**
 * The words of a rule after its action keyword, read in order by the action's parser up to the
 * condition ({@code if}/{@code unless}) or the end of the line, with what parsing arguments needs.
 */
public final class ActionArgs {
    private final ConfigLine line;
    private final String parameter;
    private final HttpActions.Phase phase;
    private final ProxySpec proxy;
    private final StageSet where;
    private final ExprParser exprs;
    private final LogFormatParser formats;
    private int pos;

    ActionArgs(ConfigLine line, int pos, String parameter, HttpActions.Phase phase, ProxySpec proxy, StageSet where, ExprParser exprs,
               LogFormatParser formats) {
        this.line = line;
        this.pos = pos;
        this.parameter = parameter;
        this.phase = phase;
        this.proxy = proxy;
        this.where = where;
        this.exprs = exprs;
        this.formats = formats;
    }

    /** Where the rule's line is (and where its relative file names are found). */
    public Source source() {
        return line.source();
    }

    /** The word in the action's parentheses ({@code set-var(txn.x)}), or null. */
    public String parameter() {
        return parameter;
    }

    /** Whether the rule is an http-request, http-response or http-after-response rule; null for a tcp-request rule. */
    public HttpActions.Phase phase() {
        return phase;
    }

    public ProxySpec proxy() {
        return proxy;
    }

    /**
     * The rule set the rule is in, as the first stage where it runs ({@code FE_CON_ACC} for a tcp-request connection
     * rule...); null where nothing is checked ({@code http-error}).
     */
    public Stage stage() {
        return where == null ? null : where.first();
    }

    /** Where the rule runs: the frontend's stage, the backend's, or both in a listen or defaults section. */
    public StageSet where() {
        return where;
    }

    /** True while words remain before the condition. */
    public boolean more() {
        return line.has(pos) && !isCondition(line.arg(pos));
    }

    /** The number of words left before the condition. */
    public int remaining() {
        int n = 0;
        while (line.has(pos + n) && !isCondition(line.arg(pos + n))) {
            n++;
        }
        return n;
    }

    public String peek() {
        return more() ? line.arg(pos) : "";
    }

    /** The next word ("" at the end). */
    public String next() {
        if (!more()) {
            return "";
        }
        return line.arg(pos++);
    }

    /** The next word, even "if" or "unless" ("" at the end): for the arguments HAProxy takes whatever comes (hdr's). */
    public String nextWord() {
        return line.has(pos) ? line.arg(pos++) : "";
    }

    /** The next word, failing with {@code error} when there is none. */
    public String next(String error) throws ConfigException {
        if (!more()) {
            throw new ConfigException(error);
        }
        return line.arg(pos++);
    }

    /**
     * Marks the rule as one of an experimental action ({@code what}), which HAProxy 2.6 only accepts after a global
     * {@code expose-experimental-directives}: checked once the whole configuration is read.
     */
    public void experimental(String what) {
        proxy.part(HttpRules.class, HttpRules::new).experimental.add(new HttpRules.Experimental(line.source(), what));
    }

    /** Reports a warning on the rule's line; parsing goes on. */
    public void warn(String message) {
        line.warn(message);
    }

    /** Asks for {@code reply}'s {@code errorfiles} section to be looked up once every section is known. */
    void resolveLater(ReplyBuilder reply) {
        proxy.part(HttpRules.class, HttpRules::new).errorReplies.add(reply);
    }

    int position() {
        return pos;
    }

    public LogFormat format(String text) throws ConfigException {
        return formats.parse(text, where, false, false);
    }

    /** A format whose samples keep their control characters, whatever the rule ({@code set-var-fmt}). */
    public LogFormat unencodedFormat(String text) throws ConfigException {
        return formats.parseUnencoded(text, where);
    }

    /** A sample expression usable where the rule runs. */
    public Expr expr(String text) throws ConfigException {
        return expr(text, null);
    }

    /**
     * As {@link #expr(String)}, an expression unusable there being reported under {@code named} instead of the
     * expression as written (HAProxy's set-var names the action, "fetch method 'set-var(txn.x)' extracts...").
     */
    public Expr expr(String text, String named) throws ConfigException {
        return expr(text, named, where);
    }

    /** An expression usable at {@code at}, which is not where the rule runs (http-request capture: its frontend only). */
    public Expr expr(String text, String named, StageSet at) throws ConfigException {
        Expr e = exprs.parse(text);
        if (at != null && !at.allows(e.stages())) {
            throw new ConfigException("fetch method '" + (named != null ? named : text) + "' extracts information from '"
                    + e.fetch().source() + "', none of which is available here");
        }
        return e;
    }

    static boolean isCondition(String word) {
        return word.equals("if") || word.equals("unless");
    }
}

package io.fulcrum.check;

import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A proxy's check settings: which check its servers run ({@code option tcp-check}, {@code option httpchk},
 * a protocol check), its {@code tcp-check}/{@code http-check} rules, {@code timeout check} and the options
 * of the checks.
 * <p>
 * The rules are kept as HAProxy keeps them: a section's {@code tcp-check} lines and its {@code http-check} lines
 * each go to a rule set of the section's own, whatever its check option and wherever the lines stand; the option
 * chooses the rule set the checks run ({@link #rules}). So rules written before their option apply, rules of
 * the other kind are ignored (with a warning unless a later check option took the place), and a backend that
 * writes rules of its own runs them instead of its defaults section's, not after them.
 */
final class ProxyChecks implements ProxyPart {

    /** The kind of check, last option wins. */
    enum Type { TCP, HTTP, PROTOCOL, EXTERNAL }

    Type type = Type.TCP;
    /**
     * The rules the checks run (HAProxy's tcpcheck_rules.list): {@link #tcpRules} or {@link #httpRules} of this
     * section or of its defaults section (shared, never changed through this field), a protocol check's, or none.
     */
    List<CheckRule> rules = List.of();
    /** What {@link #rules} are: TCP, HTTP or PROTOCOL (HAProxy's TCPCHK_RULES_*_CHK, which an external check leaves), null for none. */
    Type ruleKind;
    /** This section's {@code tcp-check} lines, its {@code http-check} lines (HAProxy's "*tcp-check-NAME" and "*http-check-NAME"). */
    List<CheckRule> tcpRules = new ArrayList<>();
    HttpRuleSet httpRules = new HttpRuleSet();
    /** This section has tcp-check (http-check) rules its check option does not run: HAProxy warns that they are ignored. */
    boolean unusedTcp;
    boolean unusedHttp;
    /** {@code option tcp-check} was given: the type TCP of a backend without any check option takes no tcp-check rules. */
    boolean tcpCheckOption;
    boolean disableOn404;
    boolean sendState;
    boolean logHealthChecks;
    /** {@code timeout check}: 0 means {@code inter} bounds the whole check. */
    long timeout;
    /** {@code external-check command} and {@code external-check path}, null when not given (the path is then empty). */
    String externalCommand;
    String externalPath;

    /** Whether the checks run user-written tcp-check rules (messages then say at which step a rule failed). */
    boolean explicit() {
        return type == Type.TCP && tcpCheckOption;
    }

    /** The checks now run {@code list}, rules of {@code kind}: no rule set is left unused (HAProxy clears both marks). */
    void use(Type kind, List<CheckRule> list) {
        ruleKind = kind;
        rules = list;
        unusedTcp = false;
        unusedHttp = false;
    }

    /** What a section copies from its defaults: the rules in use, not the defaults' own rule sets nor their marks. */
    @Override
    public ProxyPart inherit() {
        ProxyChecks c = new ProxyChecks();
        c.type = type;
        c.rules = rules;
        c.ruleKind = ruleKind;
        c.tcpCheckOption = tcpCheckOption;
        c.disableOn404 = disableOn404;
        c.sendState = sendState;
        c.logHealthChecks = logHealthChecks;
        c.timeout = timeout;
        c.externalCommand = externalCommand;
        c.externalPath = externalPath;
        return c;
    }
}

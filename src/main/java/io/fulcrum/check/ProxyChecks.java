package io.fulcrum.check;

import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A proxy's check settings: which check its servers run ({@code option tcp-check}, {@code option httpchk},
 * a protocol check), its {@code tcp-check}/{@code http-check} rules, {@code timeout check} and the options
 * of the checks. Inherited from defaults sections, rules included, as in HAProxy.
 */
final class ProxyChecks implements ProxyPart {

    /** The kind of check, last option wins. */
    enum Type { TCP, HTTP, PROTOCOL, EXTERNAL }

    Type type = Type.TCP;
    /** Rules written as tcp-check or http-check lines; for a protocol check, the rules it implies. */
    List<CheckRule> rules = new ArrayList<>();
    /** Whether the rules were written by the user (messages then say at which step a rule failed). */
    boolean explicit;
    /** How many of the rules the check option put itself (a protocol check's); the user's rules follow them. */
    int ownRules;
    /** The keyword of the user's rule lines ({@code tcp-check} or {@code http-check}), null when none. */
    String ruleKeyword;
    /** {@code option tcp-check} was given: the type TCP of a backend without any check option takes no tcp-check rules. */
    boolean tcpCheckOption;
    /** The request of {@code option httpchk <method> <uri> <version>}, completed by {@code http-check send}. */
    CheckRule.HttpSend request = new CheckRule.HttpSend("OPTIONS", CheckRule.Text.fixed("/"), "HTTP/1.0", List.of(), null, null);
    boolean disableOn404;
    boolean sendState;
    boolean logHealthChecks;
    /** {@code timeout check}: 0 means {@code inter} bounds the whole check. */
    long timeout;
    /** {@code external-check command} and {@code external-check path}, null when not given (the path is then empty). */
    String externalCommand;
    String externalPath;

    @Override
    public ProxyPart inherit() {
        ProxyChecks c = new ProxyChecks();
        c.type = type;
        c.rules = new ArrayList<>(rules);
        c.explicit = explicit;
        c.ownRules = ownRules;
        c.ruleKeyword = ruleKeyword;
        c.tcpCheckOption = tcpCheckOption;
        c.request = request;
        c.disableOn404 = disableOn404;
        c.sendState = sendState;
        c.logHealthChecks = logHealthChecks;
        c.timeout = timeout;
        c.externalCommand = externalCommand;
        c.externalPath = externalPath;
        return c;
    }
}

package io.fulcrum.stats;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.Stage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A proxy's {@code stats} lines (HAProxy's uri_auth): the page's URI, its access rules and what it shows. A proxy
 * uses its defaults section's settings until its first {@code stats} line, which starts afresh, as in HAProxy.
 */
final class StatsPageSpec implements ProxyPart {
    static final String DEFAULT_URI = "/haproxy?stats";
    static final String DEFAULT_REALM = "HAProxy Statistics";
    private static final String EXPECTS = "expects 'admin', 'uri', 'realm', 'auth', 'scope', 'enable', 'hide-version', "
            + "'show-node', 'show-desc' or 'show-legends'.";

    /** {@code stats http-request allow|deny|auth [realm R]}: the realm is null for the default one. */
    record AccessRule(String action, String realm, Condition condition) {
    }

    String uri = DEFAULT_URI;
    /** {@code stats realm}, or null. */
    String realm;
    /** {@code stats auth}: "user:password" accounts (no colon: an empty password, as HAProxy reads it). */
    final List<String> accounts = new ArrayList<>();
    /** {@code stats refresh}, in seconds; 0: none. */
    long refreshSeconds;
    final List<Condition> adminRules = new ArrayList<>();
    final List<AccessRule> accessRules = new ArrayList<>();
    /** {@code stats scope}: the proxies shown ("." resolved to the declaring proxy); empty: all. */
    final List<String> scopes = new ArrayList<>();
    boolean hideVersion;
    boolean legends;
    /** {@code stats show-modules}: the extra modules' counters (ssl, h2, h1) in columns of their own. */
    boolean modules;
    /** {@code stats show-node}: null when not shown, "" for the process's node name. */
    String node;
    /** {@code stats show-desc}: null when not shown. */
    String description;
    /** The run-time page, built once for both halves of a listen section. */
    StatsPage built;
    /** Copied from a defaults section: the proxy's first {@code stats} line replaces it. */
    private boolean inherited;

    @Override
    public ProxyPart inherit() {
        StatsPageSpec copy = new StatsPageSpec();
        copy(this, copy);
        copy.inherited = true;
        return copy;
    }

    private static void copy(StatsPageSpec from, StatsPageSpec to) {
        to.uri = from.uri;
        to.realm = from.realm;
        to.accounts.clear();
        to.accounts.addAll(from.accounts);
        to.refreshSeconds = from.refreshSeconds;
        to.adminRules.clear();
        to.adminRules.addAll(from.adminRules);
        to.accessRules.clear();
        to.accessRules.addAll(from.accessRules);
        to.scopes.clear();
        to.scopes.addAll(from.scopes);
        to.hideVersion = from.hideVersion;
        to.legends = from.legends;
        to.modules = from.modules;
        to.node = from.node;
        to.description = from.description;
        to.inherited = from.inherited;
    }

    /** The settings of {@code p}, or null when its stats page is not enabled. */
    static StatsPageSpec of(ProxySpec p) {
        return p.partOrNull(StatsPageSpec.class);
    }

    /** A {@code stats} line of proxy {@code p} ({@code l.arg(0)} is "stats"). */
    static void parse(ProxySpec p, ConfigLine l, AclParser acls) throws ConfigException {
        boolean defaults = p.kind() == ProxyKind.DEFAULTS;
        StatsPageSpec s = p.part(StatsPageSpec.class, StatsPageSpec::new);
        if (s.inherited && !defaults) {
            copy(new StatsPageSpec(), s); // the proxy's own settings replace its defaults' (HAProxy detaches them)
        }
        String sub = l.arg(1);
        switch (sub) {
            case "admin" -> {
                if (defaults) {
                    throw ConfigException.unspaced("'stats admin' not allowed in 'defaults' section.");
                }
                if (!l.arg(2).equals("if") && !l.arg(2).equals("unless")) {
                    throw new ConfigException("'stats admin' requires either 'if' or 'unless' followed by a condition.");
                }
                try {
                    s.adminRules.add(acls.condition(l, 2, p.partOrNull(AclTable.class), stage(p)));
                } catch (ConfigException e) {
                    throw new ConfigException("error detected while parsing a 'stats admin' rule : " + e.getMessage() + ".");
                }
            }
            case "uri" -> s.uri = required(l, "'uri' needs an URI prefix.");
            case "realm" -> s.realm = required(l, "'realm' needs an realm name.");
            case "auth" -> s.accounts.add(required(l, "'auth' needs a user:password account."));
            case "scope" -> {
                String name = required(l, "'scope' needs a proxy name.");
                s.scopes.add(name.equals(".") ? p.name() : name);
            }
            case "refresh" -> s.refreshSeconds = refresh(l.arg(2));
            case "http-request" -> {
                if (defaults) {
                    throw ConfigException.unspaced("'stats' not allowed in 'defaults' section.");
                }
                if (!s.accessRules.isEmpty() && s.accessRules.getLast().condition() == null) {
                    l.warn("previous 'stats' action has no condition attached, further entries are NOOP.");
                }
                s.accessRules.add(accessRule(p, l, acls));
            }
            case "enable" -> {
            }
            case "hide-version" -> s.hideVersion = true;
            case "show-legends" -> s.legends = true;
            case "show-node" -> s.node = nodeName(l.arg(2));
            case "show-desc" -> s.description = l.has(2) ? l.join(2) : "";
            case "" -> throw ConfigException.unspaced("missing keyword in 'stats', " + EXPECTS);
            case "show-modules" -> s.modules = true;
            default -> throw ConfigException.unspaced("unknown stats parameter '" + sub + "', " + EXPECTS);
        }
    }

    private static Stage stage(ProxySpec p) {
        return p.kind().isFrontend() ? Stage.FE_HRQ_HDR : Stage.BE_HRQ_HDR;
    }

    private static String required(ConfigLine l, String message) throws ConfigException {
        if (l.arg(2).isEmpty()) {
            throw new ConfigException(message);
        }
        return l.arg(2);
    }

    /** Seconds by default, as HAProxy's parse_time_err(TIME_UNIT_S). */
    private static long refresh(String text) throws ConfigException {
        int i = 0;
        while (i < text.length() && Character.isDigit(text.charAt(i))) {
            i++;
        }
        String unit = text.substring(i);
        if (i == 0 || !List.of("", "us", "ms", "s", "m", "h", "d").contains(unit)) {
            String c = i < text.length() ? String.valueOf(text.charAt(i)) : "";
            throw ConfigException.unspaced("unexpected character '" + c + "' in argument to stats refresh interval.");
        }
        try {
            return Units.time(text, "stats refresh", TimeUnit.SECONDS);
        } catch (ConfigException e) {
            throw ConfigException.unspaced("timer overflow in argument <" + text
                    + "> to stats refresh interval (maximum value is 2147483647 s or ~68 years).");
        }
    }

    private static String nodeName(String name) throws ConfigException {
        if (!name.isEmpty() && !isNodeName(name)) {
            throw ConfigException.unspaced("'stats show-node' invalid node name - should be a string"
                    + "with digits(0-9), letters(A-Z, a-z), hyphen(-) or underscode(_).");
        }
        return name;
    }

    /** Letters, digits, '_', '-' and '.', at least one. */
    static boolean isNodeName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c < 128 && Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')) {
                return false;
            }
        }
        return !name.isEmpty();
    }

    /** {@code stats http-request allow|deny|auth [realm <realm>] [if|unless <cond>]}. */
    private static AccessRule accessRule(ProxySpec p, ConfigLine l, AclParser acls) throws ConfigException {
        String action = l.arg(2);
        int pos = 3;
        String realm = null;
        switch (action) {
            case "allow", "deny" -> {
            }
            case "auth" -> {
                if (l.arg(3).equals("realm")) {
                    if (!l.has(4)) {
                        throw new ConfigException("error detected in " + p.describe()
                                + " while parsing 'http-request auth' rule : missing realm value.");
                    }
                    realm = l.arg(4);
                    pos = 5;
                }
            }
            default -> throw ConfigException.unspaced("'stats http-request' expects 'allow', 'deny' or 'auth' but got '"
                    + action + "'" + (action.isEmpty() ? " (missing argument)." : ". Fulcrum supports no other action here."));
        }
        String rule = "http-request " + action;
        if (l.has(pos) && !l.arg(pos).equals("if") && !l.arg(pos).equals("unless")) {
            throw ConfigException.unspaced("'" + rule + "' expects either 'if' or 'unless' followed by a condition but found '"
                    + l.arg(pos) + "'.");
        }
        try {
            return new AccessRule(action, realm, acls.condition(l, pos, p.partOrNull(AclTable.class), stage(p)));
        } catch (ConfigException e) {
            throw new ConfigException("error detected while parsing an '" + rule + "' condition : " + e.getMessage() + ".");
        }
    }
}

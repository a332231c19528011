package io.fulcrum.persist;

import io.fulcrum.acl.Condition;
import io.fulcrum.log.LogFormat;
import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A backend's persistence settings: its {@code cookie} line, {@code dynamic-cookie-key}, {@code option persist}
 * (inherited from defaults) and its {@code force-persist} / {@code ignore-persist} rules (not inherited: they are
 * refused in defaults).
 */
public final class PersistSpec implements ProxyPart {
    /** The name of the persistence cookie, or null without a {@code cookie} line. */
    public String name;
    public boolean rewrite;
    public boolean insert;
    public boolean prefix;
    public boolean indirect;
    public boolean nocache;
    public boolean postonly;
    public boolean preserve;
    public boolean httponly;
    public boolean secure;
    public boolean dynamic;
    /** The domains joined as HAProxy emits them ("a; domain=b"), or null. */
    public String domain;
    /** The {@code attr} values joined by "; ", or null. */
    public String attrs;
    /** {@code maxidle} and {@code maxlife} in seconds, 0 when not set. */
    public long maxidle;
    public long maxlife;
    /** {@code dynamic-cookie-key}, or null. */
    public String dynamicKey;
    /** {@code option persist}: a cookie naming a server that is down still sends the request there. */
    public boolean persistDown;
    /** {@code persist rdp-cookie[(name)]}: the RDP cookie naming the server's address and port, or null. */
    public String rdpCookie;
    public final List<Rule> rules = new ArrayList<>();

    /** A {@code force-persist} ({@code force} true) or {@code ignore-persist} rule. */
    /** {@code use-server} rules, in order (not inherited). */
    public final List<UseServer> useServers = new ArrayList<>();

    /**
     * A {@code use-server} rule: a server named outright ({@code name}) or by a log-format ({@code format}).
     *
     * @param source where the rule is, for the check of its server's name
     */
    public record UseServer(String name, LogFormat format, Condition condition, io.fulcrum.cfg.Source source) {
    }

    public record Rule(boolean force, Condition condition) {
    }

    /** One of the modes that make HAProxy process the cookie and log its state (its PR_CK_ANY). */
    public boolean active() {
        return name != null && (rewrite || insert || prefix || indirect);
    }

    void resetCookie(String cookieName) {
        name = cookieName;
        rewrite = insert = prefix = indirect = nocache = postonly = preserve = httponly = secure = dynamic = false;
        domain = null;
        attrs = null;
        maxidle = 0;
        maxlife = 0;
    }

    @Override
    public ProxyPart inherit() {
        PersistSpec c = new PersistSpec();
        c.name = name;
        c.rewrite = rewrite;
        c.insert = insert;
        c.prefix = prefix;
        c.indirect = indirect;
        c.nocache = nocache;
        c.postonly = postonly;
        c.preserve = preserve;
        c.httponly = httponly;
        c.secure = secure;
        c.dynamic = dynamic;
        c.domain = domain;
        c.attrs = attrs;
        c.maxidle = maxidle;
        c.maxlife = maxlife;
        c.dynamicKey = dynamicKey;
        c.persistDown = persistDown;
        c.rdpCookie = rdpCookie;
        return c;
    }
}

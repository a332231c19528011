package io.fulcrum.backend;

import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.server.ServerSpec;

/**
 * A backend's {@code balance} algorithm with its arguments, {@code hash-type}, {@code hash-balance-factor},
 * {@code retries}, {@code fullconn} and the options of server choice; all are inherited from defaults.
 */
public final class BalanceSpec implements ProxyPart, Cloneable {
    /** The hash functions of {@code hash-type}. */
    public enum HashFunction { SDBM, DJB2, WT6, CRC32 }

    public Algorithm algorithm = Algorithm.ROUNDROBIN;
    /** A {@code balance} line chose the algorithm (here or in the defaults): a {@code dispatch} address is then ignored. */
    public boolean algorithmSet;
    /** {@code dispatch <address>:<port>}: where every transaction goes when no algorithm is set, or null. */
    public ServerSpec dispatch;
    /**
     * {@code option transparent}: without an algorithm nor a {@code dispatch} address, every transaction that no cookie or
     * rule sent to a server goes to the stream's destination.
     */
    public boolean transparent;
    /** The parameter of {@code url_param}, the header of {@code hdr(name)}, the cookie of {@code rdp-cookie(name)}. */
    public String param;
    /** {@code uri len}: the characters hashed at most (0: all). */
    public int uriLength;
    /** {@code uri depth}: the directory levels hashed at most (0: all). */
    public int uriDepth;
    /** {@code uri whole}: the query string is hashed too. */
    public boolean uriWhole;
    /** {@code uri path-only}: the scheme and authority of an absolute URI are left out. */
    public boolean uriPathOnly;
    /** The expression of {@code balance hash} as written: parsed once the configuration is read (HAProxy's order). */
    public String hashText;
    /** The expression of {@code balance hash} of a backend, or null. */
    public io.fulcrum.sample.Expr hashExpr;
    /** {@code url_param ... check_post}. */
    public boolean checkPost;
    /** {@code hdr(name) use_domain_only}. */
    public boolean domainOnly;
    /** {@code random(draws)}. */
    public int draws = 2;

    /** {@code hash-type consistent} rather than map-based. */
    public boolean consistent;
    public HashFunction function = HashFunction.SDBM;
    public boolean avalanche;
    /** {@code hash-balance-factor}, a percentage; 0 means none. */
    public int balanceFactor;

    /** Connection attempts after the first one fails (HAProxy's default is 3). */
    public int retries = 3;
    /** {@code retry-on}: the failures that are retried ({@link RetryOn} bits). */
    public int retryOn = RetryOn.CONN_FAILURE;
    /** {@code option redispatch [interval]}: 0 never; P > 0 every Pth retry; N < 0 the Nth retry before the last. */
    public int redispatch;
    /** {@code option allbackups}. */
    public boolean allBackups;
    /** {@code option prefer-last-server}. */
    public boolean preferLastServer;
    /** {@code max-keep-alive-queue}: the last server's queue length at which another server is chosen; -1: none. */
    public int maxKeepAliveQueue = -1;
    /** {@code fullconn}; 0 when not set (computed from the frontends, as HAProxy does). */
    public int fullconn;

    @Override
    public ProxyPart inherit() {
        try {
            return (ProxyPart) clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}

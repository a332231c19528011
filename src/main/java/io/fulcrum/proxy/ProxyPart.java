package io.fulcrum.proxy;

/**
 * What a subsystem keeps in a proxy section (the bind lines, the servers, the balance algorithm...), so
 * that the proxy model does not have to know every subsystem.
 */
public interface ProxyPart {

    /** The copy a proxy inherits from the defaults section it is declared after, or null when nothing is inherited. */
    ProxyPart inherit();

    /**
     * True when the part holds HAProxy's "TCP/HTTP rules" (tcp-request, tcp-response, http-request...): a named
     * defaults section holding some is inherited by frontends only or by backends only, never by a listen section or
     * another defaults section.
     */
    default boolean holdsRules() {
        return false;
    }

    /**
     * The rules of this part (of a defaults section) that a proxy of kind {@code kind} could not run, as HAProxy names
     * them ("'tcp-response content'"), or null when it can run them all.
     */
    default String rulesRefusedTo(ProxyKind kind) {
        return null;
    }

    /**
     * HAProxy's message (without the place) when a proxy of kind {@code kind} may not inherit this part of a defaults
     * section at all, or null.
     */
    default String inheritanceRefusedTo(ProxyKind kind) {
        return null;
    }
}

package io.fulcrum.proxy;

/**
 * What a subsystem keeps in a proxy section (the bind lines, the servers, the balance algorithm...), so
 * that the proxy model does not have to know every subsystem.
 */
public interface ProxyPart {

    /** The copy a proxy inherits from the defaults section it is declared after, or null when nothing is inherited. */
    ProxyPart inherit();
}

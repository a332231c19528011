package io.fulcrum.backend;

import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.server.Server;

/**
 * What keeps a client on a server across transactions other than cookies (persist.Persistence), kept in the backend's section by the subsystem that owns it
 * (the stick rules of stick.StickRules): asked before the algorithm, told of each transaction's server at its end.
 */
public interface Affinity extends ProxyPart {

    /** The server the transaction must go to, or null to let the algorithm choose. Runs on the stream's loop. */
    Server server(SampleContext ctx, Backend backend);

    /** The transaction ended on {@code server} (its response, if any, is in {@code ctx}). */
    void ended(SampleContext ctx, Server server);
}

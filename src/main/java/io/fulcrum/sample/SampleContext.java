package io.fulcrum.sample;

import io.fulcrum.backend.Backend;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.server.Server;
import io.netty.channel.Channel;

import java.net.SocketAddress;

/**
 * What a fetch can look at while a rule, a routing decision or a log line is evaluated: the
 * connection, the proxies and server in play, the HTTP messages, and the variables. A stream
 * implements it; parts that do not exist (yet) are null.
 */
public interface SampleContext {

    /** The client's address (as the PROXY protocol announced it, if it was used). */
    SocketAddress source();

    /** The address the client connected to (as the PROXY protocol announced it, if it was used). */
    SocketAddress destination();

    /** The client connection, or null. */
    Channel frontChannel();

    Frontend frontend();

    /** The backend, once chosen. */
    Backend backend();

    /** The server, once chosen. */
    Server server();

    /** The HTTP request, in mode http. */
    RequestHead request();

    /** The HTTP response, once its head arrived. */
    ResponseHead response();

    /** The variables of {@code scope} (proc variables are global). */
    Vars vars(VarScope scope);

    /** The status of the response sent or being sent (the server's or Fulcrum's own), or -1. */
    default int status() {
        ResponseHead r = response();
        return r == null ? -1 : r.status();
    }
}

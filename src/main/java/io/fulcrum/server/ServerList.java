package io.fulcrum.server;

import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/** A backend's servers and its {@code default-server} template; only the template is inherited from defaults. */
public final class ServerList implements ProxyPart {
    public final List<ServerSpec> servers = new ArrayList<>();
    public ServerSpec defaults = new ServerSpec();

    /** The server named {@code name} (names are unique in a backend), or null. */
    public ServerSpec named(String name) {
        for (ServerSpec s : servers) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    @Override
    public ProxyPart inherit() {
        ServerList copy = new ServerList();
        copy.defaults = defaults.copy();
        return copy;
    }
}

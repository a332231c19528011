package io.fulcrum.log;

import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.server.ServerEvents;

/**
 * A backend's server events as HAProxy reports them: on stderr as a warning (the last server gone as an
 * alert, the backend's name quoted there only), and to the proxy's log targets at notice, alert or emerg.
 */
final class ServerEventLog implements ServerEvents {
    private final FrontendLogger proxy;
    private final Diagnostics diag;

    ServerEventLog(FrontendLogger proxy, Diagnostics diag) {
        this.proxy = proxy;
        this.diag = diag;
    }

    @Override
    public void notice(String text) {
        diag.warning(text);
        proxy.event(Syslog.NOTICE, text);
    }

    @Override
    public void alert(String text) {
        diag.warning(text);
        proxy.event(Syslog.ALERT, text);
    }

    @Override
    public void responseAlert(String text) {
        diag.alert(text);
        proxy.event(Syslog.ALERT, text);
    }

    @Override
    public void noServerLeft(String backend) {
        diag.alert("backend '" + backend + "' has no server available!");
        proxy.event(Syslog.EMERG, "backend " + backend + " has no server available!");
    }
}

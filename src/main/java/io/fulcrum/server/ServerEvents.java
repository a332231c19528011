package io.fulcrum.server;

/**
 * Where a backend's server events go. HAProxy prints each on stderr (as a warning, the "no server" one as an
 * alert) and sends it to the proxy's log targets at the level given here.
 */
public interface ServerEvents {

    /** Sends nothing: a backend whose events are not wired (unit tests). */
    ServerEvents NONE = new ServerEvents() {
        @Override
        public void notice(String text) {
        }

        @Override
        public void alert(String text) {
        }

        @Override
        public void noServerLeft(String backend) {
        }

        @Override
        public void responseAlert(String text) {
        }
    };

    /** A change logged at level notice: a server up, draining, a health check's result. */
    void notice(String text);

    /** A change logged at level alert: a server going down. */
    void alert(String text);

    /** The backend's last usable server went away ("backend X has no server available!", level emerg). */
    void noServerLeft(String backend);

    /** A response the backend refused for the safety of its users ({@code option checkcache}): an alert on stderr too. */
    void responseAlert(String text);
}

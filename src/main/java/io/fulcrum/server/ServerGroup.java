package io.fulcrum.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A backend's servers as their state changes see them: the counts the log lines report, and the backend
 * going without any usable server. Changed only under {@link ServerState#LOCK}.
 */
public final class ServerGroup {
    private final String backend;
    /** Copied on write: servers come and go at run time ({@code add server}, {@code del server}) while others iterate. */
    private final List<Server> servers = new CopyOnWriteArrayList<>();
    private volatile ServerEvents events = ServerEvents.NONE;
    /** Usable servers after the last transition, to tell when the last one goes. */
    private volatile int lastUsable;
    /** The backend's own state (DOWN without a usable server): when it last changed, down time before that, times down. */
    private volatile long lastChange = System.currentTimeMillis();
    private volatile long downtime;
    private volatile long downTransitions;

    public ServerGroup(String backend) {
        this.backend = backend;
    }

    public String backend() {
        return backend;
    }

    /** A server joins, with its initial state (its constructor's last step). */
    void add(Server s) {
        synchronized (ServerState.LOCK) {
            servers.add(s);
            recount();
        }
    }

    /** A server deleted at run time leaves (in maintenance, so the usable counts do not change). */
    public void remove(Server s) {
        synchronized (ServerState.LOCK) {
            servers.remove(s);
            recount();
        }
    }

    /** Takes the current count as the reference, without logging. */
    void recount() {
        lastUsable = usableCount();
    }

    /** The backend's servers, in declaration order. */
    public List<Server> servers() {
        return java.util.Collections.unmodifiableList(servers);
    }

    /** Where this backend's server events go (set once the process's logging exists). */
    public void events(ServerEvents events) {
        this.events = events;
    }

    public ServerEvents events() {
        return events;
    }

    /** Servers usable for traffic now, active and backup ones together (whether the backend has any server left). */
    int usableCount() {
        return usableCount(false) + usableCount(true);
    }

    /** The usable servers among the backup ones ({@code backup}) or the active ones. */
    int usableCount(boolean backup) {
        int n = 0;
        for (Server s : servers) {
            if (s.usable() && s.spec().backup == backup) {
                n++;
            }
        }
        return n;
    }

    /** After a transition: "backend X has no server available!" when the last usable server went. */
    void settled() {
        int now = usableCount();
        if (now == 0 && lastUsable != 0) {
            downTransitions++;
            lastChange = System.currentTimeMillis();
            events.noServerLeft(backend);
        } else if (now != 0 && lastUsable == 0) {
            long t = System.currentTimeMillis();
            downtime += t - lastChange;
            lastChange = t;
        }
        lastUsable = now;
    }

    /** Times the backend lost its last usable server ({@code chkdown} of its stats row). */
    public long downTransitions() {
        return downTransitions;
    }

    /** Seconds since the backend went up or down ({@code lastchg}). */
    public long lastChangeSeconds() {
        return (System.currentTimeMillis() - lastChange) / 1000;
    }

    /** Seconds the backend spent without a usable server, the current period included ({@code downtime}). */
    public long downtimeSeconds() {
        long d = downtime;
        if (lastUsable == 0) {
            d += System.currentTimeMillis() - lastChange;
        }
        return d / 1000;
    }
}

package io.fulcrum.runtime;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.stats.InfoField;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What subsystems run beside the proxies (the peers sessions...): added by their configuration checks, started once
 * the listeners are bound, stopped when a soft stop begins (which waits for them) and again by the hard stop (stop() must bear a second call).
 */
public final class Services {
    /** One thing the process runs. */
    public interface Service {
        /** Starts; false when a socket it listens on could not be bound (alerted: the process does not start). */
        boolean start(Fulcrum process);

        void stop();

        /**
         * The start of a soft stop: stops, and completes once the service lets the process exit (the peers teach the
         * new process first), as HAProxy's jobs keep an old process alive.
         */
        default CompletableFuture<Void> softStop() {
            stop();
            return CompletableFuture.completedFuture(null);
        }

        /** Its share of a {@code show info} gauge (ActivePeers, Listeners...); none by default. */
        default long info(InfoField field) {
            return 0;
        }

        /**
         * The descriptors it sets aside beyond its listeners, counted in the process's maxsock as HAProxy counts them
         * before it derives the automatic maxconn; none by default.
         */
        default int reservedSockets() {
            return 0;
        }

        /** {@code clear counters}: forgets the highest rates it reports in {@code show info}. */
        default void clearMax() {
        }

        /** {@code clear counters all}: zeroes the counters it reports (besides {@link #clearMax}). */
        default void clearAll() {
        }
    }

    private final List<Service> services = new ArrayList<>();

    public static Services of(ConfigModel model) {
        return model.part(Services.class, Services::new);
    }

    public void add(Service s) {
        services.add(s);
    }

    /** Starts every service; false when one could not bind its sockets (each one is tried). */
    boolean start(Fulcrum process) {
        boolean all = true;
        for (Service s : services) {
            all &= s.start(process);
        }
        return all;
    }

    /** The descriptors the services set aside beyond their listeners, summed. */
    public int reservedSockets() {
        return services.stream().mapToInt(Service::reservedSockets).sum();
    }

    /** The services' shares of a {@code show info} gauge, summed. */
    public long info(InfoField field) {
        long sum = 0;
        for (Service s : services) {
            sum += s.info(field);
        }
        return sum;
    }

    /** {@code clear counters}: the services' highest rates. */
    public void clearMax() {
        services.forEach(Service::clearMax);
    }

    /** {@code clear counters all}: the services' counters. */
    public void clearAll() {
        services.forEach(Service::clearAll);
    }

    /** Completes when every service lets the soft-stopping process exit. */
    CompletableFuture<Void> softStop() {
        return CompletableFuture.allOf(services.stream().map(Service::softStop).toArray(CompletableFuture[]::new));
    }

    void stop() {
        services.forEach(Service::stop);
    }
}

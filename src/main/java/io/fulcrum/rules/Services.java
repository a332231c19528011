package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.log.LogContext;

import java.util.Map;
import java.util.TreeMap;

/**
 * The services {@code http-request use-service} can hand a request to (HAProxy's applets:
 * prometheus-exporter...), by name; each registered by the subsystem that provides it.
 */
public final class Services {

    /** Answers a request itself. Runs on the transaction's event loop: it must not block. */
    @FunctionalInterface
    public interface Service {
        Reply serve(HttpTxn txn);
    }

    /** A service and the name the log shows in place of a server's (%s), as HAProxy's applets ({@code <PROMEX>}). */
    private record Named(Service service, String applet) {
    }

    private final Map<String, Named> services = new TreeMap<>();

    public static Services of(Registry registry) {
        return registry.component(Services.class, Services::new);
    }

    public void add(String name, String applet, Service service) {
        if (services.putIfAbsent(name, new Named(service, applet)) != null) {
            throw new IllegalStateException("service '" + name + "' registered twice");
        }
    }

    /** The services' names, sorted. */
    public java.util.Set<String> names() {
        return java.util.Collections.unmodifiableSet(services.keySet());
    }

    /** {@code use-service <name>}: the request is answered by the service, no backend is used. */
    static void register(HttpActions actions, Services services) {
        actions.add("use-service", a -> {
            if (!a.more()) {
                throw new ConfigException("'use-service' expects a service name.");
            }
            String name = a.next();
            Named s = services.services.get(name);
            if (s == null) {
                throw new ConfigException("'" + name + "' unknown service name.");
            }
            return (txn, msg) -> {
                if (txn instanceof LogContext l && l.streamLog() != null) {
                    l.streamLog().applet(s.applet());
                    l.streamLog().error('L', 'R'); // answered by the proxy itself, as it read the request
                    // (counted by the frontend when its own or a listen's rules chose the service: HAProxy's fe == be)
                    var fe = txn.frontend();
                    boolean frontends = fe != null && (txn.backend() == null || txn.backend().name().equals(fe.name()));
                    l.streamLog().interceptedNow(frontends ? fe.counters() : null);
                }
                txn.reply(s.service().serve(txn));
                return Verdict.DONE;
            };
        }, HttpActions.Phase.REQUEST);
    }
}

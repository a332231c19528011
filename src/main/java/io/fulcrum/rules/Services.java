package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;

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

    private final Map<String, Service> services = new TreeMap<>();

    public static Services of(Registry registry) {
        return registry.component(Services.class, Services::new);
    }

    public void add(String name, Service service) {
        if (services.putIfAbsent(name, service) != null) {
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
            Service s = services.services.get(name);
            if (s == null) {
                throw new ConfigException("'" + name + "' unknown service name.");
            }
            return (txn, msg) -> {
                txn.reply(s.serve(txn));
                return Verdict.DONE;
            };
        }, HttpActions.Phase.REQUEST);
    }
}

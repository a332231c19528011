package io.fulcrum.runtime;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.stats.InfoField;

import java.util.ArrayList;
import java.util.List;

/**
 * What subsystems run beside the proxies (the peers sessions...): added by their configuration checks, started once
 * the listeners are bound, stopped when a soft stop begins and again by the hard stop (stop() must bear a second call).
 */
public final class Services {
    /** One thing the process runs. */
    public interface Service {
        void start(Fulcrum process);

        void stop();

        /** Its share of a {@code show info} gauge (ActivePeers, Listeners...); none by default. */
        default long info(InfoField field) {
            return 0;
        }
    }

    private final List<Service> services = new ArrayList<>();

    public static Services of(ConfigModel model) {
        return model.part(Services.class, Services::new);
    }

    public void add(Service s) {
        services.add(s);
    }

    void start(Fulcrum process) {
        services.forEach(s -> s.start(process));
    }

    /** The services' shares of a {@code show info} gauge, summed. */
    public long info(InfoField field) {
        long sum = 0;
        for (Service s : services) {
            sum += s.info(field);
        }
        return sum;
    }

    void stop() {
        services.forEach(Service::stop);
    }
}

package io.fulcrum.runtime;

import io.fulcrum.cfg.ConfigModel;

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

    void stop() {
        services.forEach(Service::stop);
    }
}

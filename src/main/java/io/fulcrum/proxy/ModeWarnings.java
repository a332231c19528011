package io.fulcrum.proxy;

import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Registry;

import java.util.EnumMap;
import java.util.Map;

/**
 * HAProxy's warnings about the settings a proxy has but its mode cannot use (and the fallbacks they announce), which
 * several subsystems own: printed proxy after proxy, each proxy's in HAProxy's order (check_config_validity()'s loop:
 * proxy_cfg_ensure_no_http(), then the log format's target, the HTTP options, the servers' cookies), as
 * {@code haproxy -c} prints them. Each subsystem adds its {@link Step}; the subsystem that needs the fallbacks applied
 * before its own check registers {@link #run} ahead of it.
 */
public final class ModeWarnings {
    /** The steps, in HAProxy's order. */
    public enum Step {
        /** {@code cookie} in a TCP backend. */
        COOKIE,
        /** {@code monitor-uri} in a TCP frontend. */
        MONITOR_URI,
        /** {@code balance} on an HTTP request's part in a TCP backend: roundrobin. */
        LAYER7_HASH,
        /** An HTTP log format in a TCP frontend (tcplog instead), a log format without a log target. */
        LOG_FORMAT,
        /** The HTTP {@code option}s of a TCP proxy. */
        HTTP_OPTIONS,
        /** The servers' {@code cookie} in a TCP backend. */
        SERVER_COOKIES
    }

    /** One step's check of one proxy of {@code model}. */
    @FunctionalInterface
    public interface ProxyCheck {
        void check(ProxySpec proxy, ConfigModel model, Diagnostics diag);
    }

    private final Map<Step, ProxyCheck> steps = new EnumMap<>(Step.class);

    public static ModeWarnings of(Registry registry) {
        return registry.component(ModeWarnings.class, ModeWarnings::new);
    }

    public void add(Step step, ProxyCheck check) {
        steps.put(step, check);
    }

    /** The steps of each proxy, proxy after proxy. */
    public void run(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            for (ProxyCheck c : steps.values()) {
                c.check(p, model, diag);
            }
        }
    }
}

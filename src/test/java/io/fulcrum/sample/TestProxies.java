package io.fulcrum.sample;

import io.fulcrum.Modules;
import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.ConfigLoader;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.log.ProcessLog;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Environment;
import io.fulcrum.cfg.Registry;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.listener.BindList;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.listener.Listener;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.ConnLimit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The run-time proxies, servers and listening sockets of a configuration, built as the process builds them, for tests. */
public final class TestProxies {
    /**
     * Proxies, servers and sockets of every kind; the proxy fetch tests expect, in a stream of frontend f that
     * went to backend c, what HAProxy 2.6 returned with this configuration.
     */
    public static final String SAMPLE = """
            defaults
              mode http
              timeout client 5s
              timeout server 5s
              timeout connect 5s
            backend early
              disabled
              server z 127.0.0.1:1
            frontend f
              bind 127.0.0.1:18921
              bind 127.0.0.1:18922,127.0.0.1:18923 name second
              default_backend c
            backend b
              server s1 127.0.0.1:1
            backend c
              timeout tunnel 3s
              server s0 127.0.0.1:1 weight 0
              server s1 127.0.0.1:1 weight 3
              server s2 127.0.0.1:1 disabled weight 7
            backend down
              server d1 127.0.0.1:1 disabled
            backend empty
            listen l
              bind 127.0.0.1:18924
            """;

    public final Map<String, Backend> backends = new LinkedHashMap<>();
    public final Map<String, Frontend> frontends = new LinkedHashMap<>();
    /** Per frontend, its listening sockets (not bound). */
    public final Map<String, List<Listener>> listeners = new LinkedHashMap<>();

    /** Loads {@code text} (which must be valid) with every module. */
    public static TestProxies load(String text) {
        ConfigModel model = model(text);
        return new TestProxies(ProxyTable.of(model).proxies(), new ProcessLog(model, new ConnLimit(0)));
    }

    /** The configuration model of {@code text}, which must be valid, read by the real loader with every module. */
    public static ConfigModel model(String text) {
        try {
            Path dir = Files.createTempDirectory("fetch");
            Path file = dir.resolve("t.cfg");
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
            ByteArrayOutputStream messages = new ByteArrayOutputStream();
            Diagnostics diag = new Diagnostics(new PrintStream(messages, true, StandardCharsets.ISO_8859_1), 1);
            ConfigModel model = new ConfigLoader(Registry.of(Modules.ALL), diag, new Environment(Map.of()))
                    .load(List.of(new ConfigLoader.ConfigFile(file, "t.cfg")));
            Files.delete(file);
            Files.delete(dir);
            if (diag.alerts() > 0) {
                throw new IllegalArgumentException(messages.toString(StandardCharsets.ISO_8859_1));
            }
            return model;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TestProxies(List<ProxySpec> proxies, ProcessLog logging) {
        for (ProxySpec p : proxies) {
            if (p.kind().isBackend() && !p.disabled) {
                backends.put(p.name(), new Backend(p));
            }
        }
        for (ProxySpec p : proxies) {
            if (!p.kind().isFrontend() || p.disabled) {
                continue;
            }
            Backend route = p.defaultBackend != null ? backends.get(p.defaultBackend.name()) : backends.get(p.name());
            Frontend fe = new Frontend(p, 0, List.of(), route, logging);
            frontends.put(p.name(), fe);
            List<Listener> sockets = new ArrayList<>();
            BindList binds = p.partOrNull(BindList.class);
            for (BindSpec b : binds == null ? List.<BindSpec>of() : binds.binds) {
                for (Endpoint e : b.endpoints()) {
                    sockets.add(new Listener(b, e, fe.name(), "frontend", fe.limit(), null, new ConnLimit(0), ch -> { }));
                }
            }
            listeners.put(p.name(), sockets);
        }
    }

    /** A stream of {@code frontend} (and its first socket) that chose {@code backend} (null: none yet), knowing every proxy by name. */
    public TestContext stream(String frontend, String backend) {
        TestContext ctx = new TestContext();
        ctx.frontend = frontends.get(frontend);
        ctx.backend = backend == null ? null : backends.get(backend);
        List<Listener> sockets = listeners.getOrDefault(frontend, List.of());
        ctx.listener = sockets.isEmpty() ? null : sockets.get(0);
        ctx.backends.putAll(backends);
        ctx.frontends.putAll(frontends);
        return ctx;
    }
}

package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * HAProxy's warning about rule conditions on the raw request or response buffer (its L6 fetches: {@code req.len},
 * {@code req.payload}, {@code req.ssl_sni}...) in an HTTP proxy, where the buffer holds no raw bytes: "Proxy 'p': L6
 * sample fetches ignored on HTTP proxies (declared at file:line)." The conditions are noted as they are parsed, and
 * warned about once every proxy's mode is known, rule list by rule list in HAProxy's order.
 */
final class BufferConditions {
    /** The rules HAProxy looks at, in its order; other conditions (redirect, monitor fail...) are not checked. */
    private static final List<String> RULES = List.of("use_backend", "use-server", "stick", "tcp-request connection",
            "tcp-request session", "tcp-request content", "tcp-response content", "http-request", "http-response",
            "http-after-response");

    private record Use(Source section, Source line, int rule) {
    }

    private final Registry registry;
    private final List<Use> uses = new ArrayList<>();

    private BufferConditions(Registry registry) {
        this.registry = registry;
    }

    static BufferConditions of(Registry registry) {
        return registry.component(BufferConditions.class, () -> {
            BufferConditions b = new BufferConditions(registry);
            registry.check(b::warn);
            return b;
        });
    }

    /** Notes {@code c}, parsed on the line being read, when it looks at the raw buffers. */
    void parsed(Condition c) {
        ConfigLine line = registry.parsingLine();
        if (line == null || registry.parsingSection() == null || !c.usesBufferContents()) {
            return;
        }
        int rule = rule(line);
        if (rule >= 0) {
            uses.add(new Use(registry.parsingSection(), line.source(), rule));
        }
    }

    private static int rule(ConfigLine line) {
        String kw = line.keyword();
        if (kw.equals("stick") && line.arg(1).equals("store-response")) {
            return -1; // (a list of its own, which HAProxy does not look at)
        }
        int i = RULES.indexOf(kw);
        return i >= 0 ? i : RULES.indexOf(kw + " " + line.arg(1));
    }

    private void warn(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            if (p.mode != Mode.HTTP) {
                continue;
            }
            uses.stream().filter(u -> u.section().equals(p.source())).sorted(Comparator.comparingInt(Use::rule))
                    .forEach(u -> diag.configWarning("Proxy '" + p.name() + "': L6 sample fetches ignored on HTTP proxies (declared at "
                            + u.line() + ")."));
        }
    }
}

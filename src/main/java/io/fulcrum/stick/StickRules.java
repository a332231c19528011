package io.fulcrum.stick;

import io.fulcrum.acl.Condition;
import io.fulcrum.backend.Backend;
import io.fulcrum.backend.Affinity;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.server.Server;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code stick match|on|store-request|store-response} rules of a backend: server persistence through a table.
 * Before the algorithm, the first match rule whose key has an entry naming a server of the backend that is in use
 * sends the transaction there; at its end, the store rules record its server ({@code server_id} and
 * {@code server_key}) under their keys. Not inherited from defaults sections.
 */
final class StickRules implements Affinity {
    enum Kind {
        MATCH, ON, STORE_REQUEST, STORE_RESPONSE;

        boolean matches() {
            return this == MATCH || this == ON;
        }

        boolean stores() {
            return this != MATCH;
        }
    }

    /** A rule: its key expression (evaluated on the request, or on the response for store-response) and table. */
    record Rule(Kind kind, Expr key, TableRef table, Condition condition) {
        /** The rule's key in its table, or null when the sample or condition says no. */
        Object key(SampleContext ctx) {
            StickTable t = table.get();
            Sample s = new Sample();
            if (!Condition.passes(condition, ctx) || !key.eval(ctx, s, t.type().sampleType())) {
                return null;
            }
            return t.key(s);
        }
    }

    final List<Rule> rules = new ArrayList<>();

    @Override
    public ProxyPart inherit() {
        return null;
    }

    @Override
    public Server server(SampleContext ctx, Backend backend) {
        for (Rule r : rules) {
            if (!r.kind().matches()) {
                continue;
            }
            Object key = r.key(ctx);
            Entry e = key == null ? null : r.table().get().lookup(key);
            Server s = e == null ? null : find(backend, r.table().get(), e);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /** The server an entry names: by its key (name, or address with srvkey addr) when set, else by its id. */
    private static Server find(Backend backend, StickTable t, Entry e) {
        String key = e.serverKey;
        long id = t.get(e, DataType.SERVER_ID, 0);
        for (Server s : backend.servers()) {
            if (key != null ? key.equals(serverKey(t, s)) : s.numericId() == id) {
                return s;
            }
        }
        return null;
    }

    private static String serverKey(StickTable t, Server s) {
        if (t.serverKeyAddr() && s.endpoint() instanceof Endpoint.Inet inet) {
            return inet.host().getHostAddress() + ":" + s.address().port();
        }
        return s.name();
    }

    @Override
    public void ended(SampleContext ctx, Server server) {
        for (Rule r : rules) {
            if (r.kind().stores()) {
                Object key = r.key(ctx);
                StickTable t = r.table().get();
                Entry e = key == null ? null : t.getOrCreate(key);
                if (e != null) {
                    e.serverKey = serverKey(t, server);
                    t.set(e, DataType.SERVER_ID, 0, server.numericId());
                }
            }
        }
    }
}

package io.fulcrum.sample;

import io.netty.channel.Channel;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The variables of one scope. Each value is a copy of the sample that was stored. */
public final class Vars {
    /** The process-wide scope, shared by every thread. */
    public static final Vars PROC = new Vars(new ConcurrentHashMap<>());

    private final Map<String, Sample> values;

    private Vars(Map<String, Sample> values) {
        this.values = values;
    }

    public Vars() {
        this(new HashMap<>(4));
    }

    private static final AttributeKey<Vars> SESSION = AttributeKey.valueOf(Vars.class, "session");

    /** The session variables of a client connection: they live as long as the connection. */
    public static Vars session(Channel client) {
        Attribute<Vars> a = client.attr(SESSION);
        Vars v = a.get();
        if (v == null) {
            v = new Vars();
            a.set(v);
        }
        return v;
    }

    public Sample get(String name) {
        return values.get(name);
    }

    public void set(String name, Sample value) {
        values.put(name, value.copy());
    }

    public void unset(String name) {
        values.remove(name);
    }

    public void clear() {
        values.clear();
    }
}

package io.fulcrum.listener;

import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The {@code bind} lines of a frontend or listen section. Not inherited from defaults. */
public final class BindList implements ProxyPart {
    public final List<BindSpec> binds = new ArrayList<>();

    /**
     * Gives every socket its numeric id as HAProxy does once the section is read: a line's {@code id}, else the
     * first id not taken at or after the socket's place (counted from 1).
     */
    void number() {
        Set<Integer> taken = new HashSet<>();
        binds.stream().filter(b -> b.id > 0).forEach(b -> taken.add(b.id));
        int next = 1;
        for (BindSpec b : binds) {
            int[] ids = new int[b.endpoints().size()];
            for (int i = 0; i < ids.length; i++) {
                if (b.id > 0) {
                    ids[i] = b.id;
                } else {
                    while (taken.contains(next)) {
                        next++;
                    }
                    ids[i] = next;
                    taken.add(next);
                }
                next++;
            }
            b.ids(ids);
        }
    }

    @Override
    public ProxyPart inherit() {
        return null;
    }
}

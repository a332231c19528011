package io.fulcrum.listener;

import io.fulcrum.proxy.ProxyPart;

import java.util.ArrayList;
import java.util.List;

/** The {@code bind} lines of a frontend or listen section. Not inherited from defaults. */
public final class BindList implements ProxyPart {
    public final List<BindSpec> binds = new ArrayList<>();

    @Override
    public ProxyPart inherit() {
        return null;
    }
}

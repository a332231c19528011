package io.fulcrum.acl;

import io.fulcrum.proxy.ProxyPart;

import java.util.LinkedHashMap;
import java.util.Map;

/** The named ACLs of one proxy section, in declaration order; a rule can only use those declared before it. */
public final class AclTable implements ProxyPart {
    private final Map<String, Acl> acls = new LinkedHashMap<>();

    /** ACLs are not inherited from defaults sections. */
    @Override
    public ProxyPart inherit() {
        return null;
    }

    public Acl get(String name) {
        return acls.get(name);
    }

    /** The ACL named {@code name}, created empty on its first line. */
    Acl declare(String name) {
        return acls.computeIfAbsent(name, Acl::new);
    }
}

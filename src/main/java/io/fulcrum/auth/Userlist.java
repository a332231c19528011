package io.fulcrum.auth;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A {@code userlist} section: users with their passwords, and groups. */
public final class Userlist {

    /** A user: a crypt(3) hash or a clear password ({@code insecure-password}), and its groups. */
    record User(String name, String password, boolean insecure, Set<String> groups) {
    }

    /** How many verified credentials are remembered, so that a hash is not recomputed on every request. */
    private static final int CACHE_MAX = 1024;

    private final String name;
    final Map<String, User> users = new LinkedHashMap<>();
    /** Group name to the users named on its {@code group ... users} line. */
    final Map<String, Set<String>> groups = new LinkedHashMap<>();
    private final Map<String, Boolean> verified = new ConcurrentHashMap<>();

    Userlist(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** True when {@code user} exists and {@code password} is its password. */
    public boolean check(String user, String password) {
        User u = users.get(user);
        if (u == null) {
            return false;
        }
        if (u.insecure()) {
            return u.password().equals(password);
        }
        String key = user + '\0' + password;
        Boolean ok = verified.get(key);
        if (ok == null) {
            ok = Crypt.matches(password, u.password());
            if (verified.size() >= CACHE_MAX) {
                verified.clear();
            }
            verified.put(key, ok);
        }
        return ok;
    }

    /** The groups of {@code user}: those its line names and those naming it. */
    public Set<String> groupsOf(String user) {
        Set<String> out = new LinkedHashSet<>();
        User u = users.get(user);
        if (u != null) {
            out.addAll(u.groups());
        }
        groups.forEach((g, members) -> {
            if (members.contains(user)) {
                out.add(g);
            }
        });
        return out;
    }

    public boolean hasGroup(String group) {
        return groups.containsKey(group);
    }
}

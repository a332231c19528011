package io.fulcrum.listener;

import io.fulcrum.cfg.ConfigException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/** Looks up user and group names in /etc/passwd and /etc/group: unix socket ownership, the process's identity. */
public final class Accounts {
    private Accounts() {
    }

    /** The id of user {@code name}, if it exists (an unreadable file: none). */
    public static OptionalInt user(String name) {
        return lookup(Path.of("/etc/passwd"), name);
    }

    /** The id of group {@code name}, if it exists (an unreadable file: none). */
    public static OptionalInt group(String name) {
        return lookup(Path.of("/etc/group"), name);
    }

    static int uid(String name) throws ConfigException {
        return user(name).orElseThrow(() -> new ConfigException("unknown user name '" + name + "'"));
    }

    static int gid(String name) throws ConfigException {
        return group(name).orElseThrow(() -> new ConfigException("unknown group name '" + name + "'"));
    }

    private static OptionalInt lookup(Path file, String name) {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split(":");
                if (f.length > 2 && f[0].equals(name)) {
                    return OptionalInt.of(Integer.parseInt(f[2]));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unreadable or malformed: the name is not found
        }
        return OptionalInt.empty();
    }
}

package io.fulcrum.listener;

import io.fulcrum.cfg.ConfigException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Looks up user and group names in /etc/passwd and /etc/group, for unix socket ownership. */
final class Accounts {
    private Accounts() {
    }

    static int uid(String name) throws ConfigException {
        return lookup(Path.of("/etc/passwd"), name, "unknown user '" + name + "'");
    }

    static int gid(String name) throws ConfigException {
        return lookup(Path.of("/etc/group"), name, "unknown group '" + name + "'");
    }

    private static int lookup(Path file, String name, String error) throws ConfigException {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split(":");
                if (f.length > 2 && f[0].equals(name)) {
                    return Integer.parseInt(f[2]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new ConfigException(error + " (" + file + " unreadable)");
        }
        throw new ConfigException(error);
    }
}

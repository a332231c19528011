package io.fulcrum.server;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliException;
import io.fulcrum.runtime.Fulcrum;

/** Finds what a CLI argument names, with HAProxy's answers when it names nothing. */
public final class ServerLookup {
    private ServerLookup() {
    }

    /** A server and its backend. */
    public record Target(Backend backend, Server server) {
    }

    /**
     * The server {@code arg} names: "backend/server", where either part may be "#&lt;numeric id&gt;"
     * (HAProxy's cli_find_server()).
     */
    public static Target server(Fulcrum process, String arg) throws CliException {
        String[] names = names(arg, "\n");
        Backend b = backend(process, names[0], "\n");
        Server s = server(b, names[1]);
        if (s == null) {
            throw new CliException("No such server.\n");
        }
        return new Target(b, s);
    }

    /**
     * The backend and server parts of "backend/server", else HAProxy's answer ending with {@code end} (the commands
     * differ in the blank line after it: {@code add server} and {@code del server} have none).
     */
    static String[] names(String arg, String end) throws CliException {
        int slash = arg.indexOf('/');
        if (slash <= 0 || slash == arg.length() - 1) {
            throw new CliException("Require 'backend/server'." + end);
        }
        return new String[] {arg.substring(0, slash), arg.substring(slash + 1)};
    }

    /** The backend named {@code name} or "#&lt;id&gt;", else HAProxy's answer ending with {@code end}. */
    static Backend backend(Fulcrum process, String name, String end) throws CliException {
        Backend b = backend(process, name);
        if (b == null) {
            throw new CliException("No such backend." + end);
        }
        return b;
    }

    /** The server of {@code b} named {@code name} or "#&lt;numeric id&gt;", or null. */
    public static Server server(Backend b, String name) {
        for (Server s : b.servers()) {
            if (name.equals(s.name()) || name.equals("#" + s.numericId())) {
                return s;
            }
        }
        return null;
    }

    /** The backend named {@code name} or "#&lt;id&gt;", or null. */
    public static Backend backend(Fulcrum process, String name) {
        Backend b = process.backends().get(name);
        if (b != null || !name.startsWith("#")) {
            return b;
        }
        return process.backends().values().stream().filter(x -> name.equals("#" + x.numericId())).findFirst().orElse(null);
    }
}

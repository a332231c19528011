package io.fulcrum.tls;

import io.fulcrum.cfg.Registry;
import io.fulcrum.listener.BindOptionException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code tls-ticket-keys} files of the configuration, each read once (a registry component), and their ids for
 * the CLI. As in HAProxy, the ids count from the last file named: the last one is {@code #0}.
 */
final class TicketKeyFiles {
    /** In the order the configuration names them. */
    private final List<TicketKeys> files = new ArrayList<>();

    static TicketKeyFiles of(Registry registry) {
        return registry.component(TicketKeyFiles.class, TicketKeyFiles::new);
    }

    /** The keys of {@code file} (found at {@code path}), read at its first mention. */
    synchronized TicketKeys load(String file, Path path) throws BindOptionException {
        for (TicketKeys k : files) {
            if (k.file.equals(file)) {
                return k;
            }
        }
        TicketKeys k = TicketKeys.load(file, path);
        files.add(k);
        return k;
    }

    /** The files by id: #0 first. */
    synchronized List<TicketKeys> byId() {
        return List.copyOf(files.reversed());
    }

    synchronized int id(TicketKeys keys) {
        return files.size() - 1 - files.indexOf(keys);
    }

    /** A file by {@code #id} or by name, as the CLI designates it; null when none. */
    synchronized TicketKeys find(String ref) {
        List<TicketKeys> all = byId();
        if (ref.startsWith("#")) {
            try {
                int id = Integer.parseInt(ref.substring(1));
                return id >= 0 && id < all.size() ? all.get(id) : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return all.stream().filter(k -> k.file.equals(ref)).findFirst().orElse(null);
    }
}

package io.fulcrum.tls;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

import java.util.List;

/**
 * {@code show tls-keys} and {@code set ssl tls-key} (management.txt 9.3) with HAProxy 2.6's outputs. Admin level:
 * HAProxy lets any level read and set the keys, which gives away every ticket's secrecy.
 */
final class TicketCommands {
    private final TicketKeyFiles files;

    private TicketCommands(TicketKeyFiles files) {
        this.files = files;
    }

    static void register(CliCommands c, TicketKeyFiles files) {
        TicketCommands x = new TicketCommands(files);
        c.add("show tls-keys", "show tls-keys [id|*]", "show tls keys references or dump tls ticket keys when id specified",
                CliLevel.ADMIN, x::show);
        c.add("set ssl tls-key", "set ssl tls-key [id|file] <key>", "set the next TLS key for the <id> or <file> listener to <key>",
                CliLevel.ADMIN, x::set);
    }

    private void show(CliRequest r) throws CliException {
        String ref = r.arg(2);
        StringBuilder b = new StringBuilder();
        if (ref.isEmpty()) {
            b.append("# id (file)\n");
            files.byId().forEach(k -> b.append(files.id(k)).append(" (").append(k.file).append(")\n"));
            r.print(b);
            return;
        }
        List<TicketKeys> shown = ref.equals("*") ? files.byId() : single(files.find(ref), "show tls-keys");
        b.append("# id secret\n");
        for (TicketKeys k : shown) {
            int id = files.id(k);
            b.append("# ").append(id).append(" (").append(k.file).append(")\n");
            List<String> keys = k.base64();
            for (int i = 0; i < keys.size(); i++) {
                b.append(id).append('.').append(i).append(' ').append(keys.get(i)).append('\n');
            }
        }
        r.print(b);
    }

    private void set(CliRequest r) throws CliException {
        if (r.arg(3).isEmpty() || r.arg(4).isEmpty()) {
            throw new CliException("'set ssl tls-key' expects a filename and the new TLS key in base64 encoding.\n");
        }
        TicketKeys keys = single(files.find(r.arg(3)), "set ssl tls-key").get(0);
        byte[] key = TicketKeys.decode(r.arg(4));
        if (key == null) {
            throw new CliException("'set ssl tls-key' received invalid base64 encoded TLS key.\n");
        }
        if (key.length != keys.size()) { // HAProxy: of the size of the file's keys
            throw new CliException("'set ssl tls-key' received a key of wrong size.\n");
        }
        keys.add(key);
        r.print("TLS ticket key updated!\n");
    }

    private static List<TicketKeys> single(TicketKeys keys, String command) throws CliException {
        if (keys == null) {
            throw new CliException("'" + command + "' unable to locate referenced filename\n");
        }
        return List.of(keys);
    }
}

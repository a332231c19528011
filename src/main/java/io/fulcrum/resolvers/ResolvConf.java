package io.fulcrum.resolvers;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Source;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code parse-resolv-conf}: the {@code nameserver} lines of /etc/resolv.conf, each named by its address and queried on
 * port 53, in the section at the place of the keyword; and the "default" section HAProxy makes from them.
 */
final class ResolvConf {
    static final Path FILE = Path.of("/etc/resolv.conf");

    private ResolvConf() {
    }

    static void read(ResolversSpec r, Source at) throws ConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(FILE);
        } catch (IOException e) {
            throw new ConfigException("failed to open '" + FILE + "': " + e.getMessage() + ".");
        }
        for (String line : lines) {
            String[] w = line.trim().split("\\s+");
            // Only literal addresses (a scope id or a name is skipped): getByName() then looks nothing up.
            if (w.length < 2 || !w[0].equals("nameserver") || r.nameserver(w[1]) != null || !w[1].matches("[0-9a-fA-F:.]+")) {
                continue;
            }
            try {
                r.nameservers.add(new ResolversSpec.Nameserver(w[1], new InetSocketAddress(InetAddress.getByName(w[1]), 53), at));
            } catch (UnknownHostException e) {
                // not a valid address after all: skipped
            }
        }
    }

    /** The section HAProxy adds when none is named "default", or null when /etc/resolv.conf gives no name server. */
    static ResolversSpec defaultSection() {
        ResolversSpec d = new ResolversSpec("default", new Source(FILE.toString(), 0));
        try {
            read(d, d.source);
        } catch (ConfigException e) {
            return null;
        }
        return d.nameservers.isEmpty() ? null : d;
    }
}

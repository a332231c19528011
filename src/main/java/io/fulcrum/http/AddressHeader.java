package io.fulcrum.http;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.conn.IpNetwork;

import java.net.InetAddress;
import java.util.Locale;

/**
 * What {@code option forwardfor} or {@code option originalto} asks: the name of the header to add (lower case, as
 * HAProxy writes every name), the network whose addresses get none ({@code except}, or null), and for forwardfor
 * whether a header already there is enough ({@code if-none}). Each option line sets all three afresh.
 */
public record AddressHeader(String name, IpNetwork except, boolean ifNone) {

    /** Whether {@code except} leaves out {@code address}. */
    boolean excepts(InetAddress address) {
        return except != null && except.contains(address);
    }

    /**
     * Parses the words after {@code option <option>}; {@code ifNoneAllowed} for forwardfor. The words may repeat,
     * the last one wins.
     */
    static AddressHeader parse(ConfigLine l, String defaultName, boolean ifNoneAllowed) throws ConfigException {
        String option = "option " + l.arg(0);
        String name = defaultName;
        IpNetwork except = null;
        boolean ifNone = false;
        for (int i = 1; !l.arg(i).isEmpty(); ) {
            switch (l.arg(i)) {
                case "except" -> {
                    except = l.arg(i + 1).isEmpty() ? null : IpNetwork.parse(l.arg(i + 1));
                    if (except == null) {
                        throw new ConfigException("'" + option + " except' expects <address>[/mask] as argument.");
                    }
                    i += 2;
                }
                case "header" -> {
                    if (l.arg(i + 1).isEmpty()) {
                        throw new ConfigException("'" + option + " header' expects <header_name> as argument.");
                    }
                    name = l.arg(i + 1);
                    i += 2;
                }
                case "if-none" -> {
                    if (!ifNoneAllowed) {
                        throw unsupported(option, false);
                    }
                    ifNone = true;
                    i++;
                }
                default -> throw unsupported(option, ifNoneAllowed);
            }
        }
        return new AddressHeader(name.toLowerCase(Locale.ROOT), except, ifNone);
    }

    private static ConfigException unsupported(String option, boolean ifNoneAllowed) {
        return new ConfigException("'" + option + "' only supports optional values: "
                + (ifNoneAllowed ? "'except', 'header' and 'if-none'." : "'except' and 'header'."));
    }
}

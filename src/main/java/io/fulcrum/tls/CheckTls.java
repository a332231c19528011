package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.ServerTransport;

import java.util.List;

/**
 * TLS for health checks ({@code check-ssl}, {@code http-check connect ssl}...): a server line's TLS settings
 * (verify, ca-file, crt, versions, ciphers), with the check's own SNI name and ALPN, as HAProxy shares them.
 */
public final class CheckTls {
    private CheckTls() {
    }

    /** Whether the line has {@code ssl}: checks without a port or address of their own then use TLS too. */
    public static boolean serverUsesTls(ServerSpec s) {
        ServerTls tls = s.partOrNull(ServerTls.class);
        return tls != null && tls.ssl;
    }

    /**
     * The TLS layer of a check's connections to {@code s}.
     *
     * @param sni  the name to send, or null for none
     * @param alpn the protocols to offer, or null for the line's {@code alpn}
     * @throws ConfigException as for the line's own {@code ssl} (a verify without CA file...)
     */
    public static ServerTransport transport(ConfigModel model, ProxySpec p, ServerSpec s, String sni, List<String> alpn) throws ConfigException {
        ServerTls tls = s.partOrNull(ServerTls.class);
        return ServerSetup.transport(p, tls != null ? tls : new ServerTls(), TlsGlobals.of(model), true, sni, alpn);
    }
}

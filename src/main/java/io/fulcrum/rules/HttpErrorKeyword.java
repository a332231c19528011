package io.fulcrum.rules;

import io.fulcrum.acl.AclParser;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.http.ErrorPages;
import io.fulcrum.http.ErrorSet;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.rules.HttpActions.Phase;

import java.util.Set;
import java.util.TreeSet;

/**
 * {@code http-error status <code> [content-type ...] [string|file|errorfile|default-errorfiles ...] [hdr ...]}: the
 * proxy's error message for a status, written as a {@code return} reply (HAProxy parses both with one function) and
 * kept with the proxy's errorfiles, later lines overriding earlier ones. The message is built once, unless its body or
 * header values are log-formats: it is then made for each transaction that fails. {@code errorfiles <name>} imports
 * the section's message for the status, as the proxy keyword {@code errorfiles <name> <status>} does.
 */
final class HttpErrorKeyword {
    private HttpErrorKeyword() {
    }

    static void parse(ProxySpec p, ConfigLine l, AclParser acls, LogFormatParser formats) throws ConfigException {
        if (!l.arg(1).equals("status")) {
            throw new ConfigException("http-error : expects at least a <status> as arguments.");
        }
        if (!l.has(2)) {
            throw new ConfigException("http-error : 'status' expects <status_code> as argument");
        }
        String code = l.arg(2);
        if (code.length() > 9 || !code.chars().allMatch(c -> c >= '0' && c <= '9') || !ErrorPages.hasBuiltin(Integer.parseInt(code))) {
            throw new ConfigException("http-error: status code '" + code + "' not handled.");
        }
        int status = Integer.parseInt(code);
        // No stage: HAProxy checks no fetch of an http-error's log-formats (what is missing when it fails gives nothing).
        ActionArgs a = new ActionArgs(l, 3, null, Phase.AFTER_RESPONSE, p, null, acls.exprs(), formats);
        try {
            ReplyBuilder reply = ReplyBuilder.forHttpError(status).parse(a);
            if (a.more()) {
                throw new ConfigException("unknown keyword '" + a.peek() + "'.");
            }
            if (reply.section() != null) { // as HAProxy: the section's message for that status, looked up as "errorfiles"
                ErrorSet.own(p).importSection(reply.section(), new TreeSet<>(Set.of(status)), l.source());
            } else if (reply.fixed()) {
                ErrorSet.own(p).add(status, reply.fixedMessage());
            } else {
                ErrorSet.own(p).addLive(status, reply.live());
            }
        } catch (ConfigException e) {
            throw new ConfigException("http-error : " + e.getMessage());
        }
    }
}

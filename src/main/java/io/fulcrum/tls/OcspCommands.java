package io.fulcrum.tls;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

import java.util.Base64;

/**
 * The CLI's commands on stapled OCSP responses (management.txt 9.3), with HAProxy 2.6's outputs and messages:
 * {@code set ssl ocsp-response} replaces the response of the certificate it is about (for the next handshakes),
 * {@code show ssl ocsp-response} lists the certificate IDs or prints one response. Admin level, as in HAProxy.
 */
final class OcspCommands {
    private final CertStore store;

    private OcspCommands(CertStore store) {
        this.store = store;
    }

    static void register(CliCommands c, CertStore store) {
        OcspCommands x = new OcspCommands(store);
        c.add("set ssl ocsp-response", "set ssl ocsp-response <resp|payload>", "update a certificate's OCSP Response from a base64-encode DER",
                CliLevel.ADMIN, x::set);
        c.add("show ssl ocsp-response", "show ssl ocsp-response [id]", "display the IDs of the OCSP responses used in memory, or the details of a"
                + " single OCSP response", CliLevel.ADMIN, x::show);
    }

    /** What {@code show ssl ocsp-response <id>} prints: OpenSSL's text, an empty line written " " (it would end the answer). */
    static String text(OcspStaple staple) {
        return staple.response().describe().replace("\n\n", "\n \n");
    }

    private void set(CliRequest r) throws CliException {
        String b64 = r.payload() != null ? r.payload().replaceAll("\\s", "") : r.arg(3);
        if (b64.isEmpty()) {
            throw new CliException("'set ssl ocsp-response' expects response in base64 encoding.\n");
        }
        byte[] der;
        try {
            der = Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw new CliException("'set ssl ocsp-response' received invalid base64 encoded response.\n");
        }
        try {
            store.staple(OcspResponse.parse(der));
        } catch (OcspResponse.Refused e) {
            throw new CliException(e.getMessage() + ".\n");
        }
        r.print("OCSP Response updated!\n");
    }

    private void show(CliRequest r) throws CliException {
        String key = r.arg(3);
        if (!key.isEmpty()) {
            OcspStaple s = store.staple(key);
            if (s == null) {
                throw new CliException("Certificate ID does not match any certificate.\n");
            }
            r.print(text(s));
            return;
        }
        StringBuilder b = new StringBuilder();
        for (OcspStaple s : store.staples()) {
            b.append(b.isEmpty() ? "# Certificate IDs\n" : "").append("Certificate ID key : ").append(s.key).append('\n');
            try {
                b.append(OcspResponse.certificateId(Der.parse(s.id), " ", "   ", false));
            } catch (Der.Malformed e) {
                throw new CliException("Can't display the certificate ID.\n"); // never: Fulcrum made it
            }
        }
        r.print(b);
    }
}

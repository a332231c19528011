package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The CLI's commands on certificates and crt-lists (management.txt 9.3), with HAProxy 2.6's outputs and messages:
 * {@code show/new/set/commit/abort/del ssl cert} and {@code show/add/del ssl crt-list}. Admin level, as in HAProxy.
 */
final class CertCommands {
    /** As OpenSSL's ASN1_TIME_print writes a time: the day padded with a space. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss yyyy 'GMT'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);
    private static final String NOT_FOUND = "Can't display the certificate: Not found or the certificate is a bundle!\n";

    private final CertStore store;
    private final KeywordTable<BindOptions> lineOptions;

    private CertCommands(CertStore store, KeywordTable<BindOptions> lineOptions) {
        this.store = store;
        this.lineOptions = lineOptions;
    }

    /** @param lineOptions what a crt-list line may set between brackets */
    static void register(CliCommands c, CertStore store, KeywordTable<BindOptions> lineOptions) {
        CertCommands x = new CertCommands(store, lineOptions);
        c.add("show ssl cert", "show ssl cert [<certfile>]", "display the SSL certificates used in memory, or the details of a file",
                CliLevel.ADMIN, x::show);
        c.add("new ssl cert", "new ssl cert <certfile>", "create a new certificate file to be used in a crt-list or a directory",
                CliLevel.ADMIN, x::create);
        c.add("set ssl cert", "set ssl cert <certfile> <payload>", "replace a certificate file", CliLevel.ADMIN, x::set);
        c.add("commit ssl cert", "commit ssl cert <certfile>", "commit a certificate file", CliLevel.ADMIN, x::commit);
        c.add("abort ssl cert", "abort ssl cert <certfile>", "abort a transaction for a certificate file", CliLevel.ADMIN, x::abort);
        c.add("del ssl cert", "del ssl cert <certfile>", "delete an unused certificate file", CliLevel.ADMIN, x::delete);
        c.add("show ssl crt-list", "show ssl crt-list [-n] [<list>]", "show the list of crt-lists or the content of a crt-list file <list>",
                CliLevel.ADMIN, x::showList);
        c.add("add ssl crt-list", "add ssl crt-list <list> <cert> [opts]*", "add to crt-list file <list> a line <cert> or a payload",
                CliLevel.ADMIN, x::addLine);
        c.add("del ssl crt-list", "del ssl crt-list <list> <cert[:line]>", "delete a line <cert> from crt-list file <list>",
                CliLevel.ADMIN, x::deleteLine);
    }

    private void show(CliRequest r) throws CliException {
        String name = r.arg(3);
        if (name.isEmpty()) {
            List<String> files = store.files();
            if (files.isEmpty()) {
                return; // HAProxy 2.6 sends its lines with the first file's: without any, nothing (no "# filename")
            }
            StringBuilder b = new StringBuilder();
            String tx = store.transaction();
            if (tx != null) {
                b.append("# transaction\n*").append(tx).append('\n');
            }
            b.append("# filename\n");
            files.forEach(f -> b.append(f).append('\n'));
            r.print(b);
            return;
        }
        if (name.startsWith("*")) {
            String file = name.substring(1);
            if (!file.equals(store.transaction())) {
                throw new CliException(NOT_FOUND);
            }
            r.print(detail(name, store.transactionCertificate(), "Unused"));
            return;
        }
        CertKey stapled = name.endsWith(".ocsp") ? store.certificate(name.substring(0, name.length() - 5)) : null;
        if (stapled != null && stapled.staple() != null) {
            r.print(OcspCommands.text(stapled.staple()));
            return;
        }
        if (!store.exists(name)) {
            throw new CliException(NOT_FOUND);
        }
        CertKey cert = store.certificate(name);
        r.print(detail(name, cert, cert == null ? "Empty" : store.uses(name) > 0 ? "Used" : "Unused"));
    }

    /** What {@code show ssl cert <file>} prints of a certificate (null: an empty one). */
    static String detail(String name, CertKey cert, String status) throws CliException {
        StringBuilder b = new StringBuilder("Filename: ").append(name).append("\nStatus: ").append(status).append('\n');
        if (cert != null) {
            certificate(b, cert.leaf());
            for (int i = 1; i < cert.chain().length; i++) {
                b.append("Chain Subject: ").append(CertFetches.oneLine(cert.chain()[i].getSubjectX500Principal())).append('\n');
                b.append("Chain Issuer: ").append(CertFetches.oneLine(cert.chain()[i].getIssuerX500Principal())).append('\n');
            }
        }
        return b.append("OCSP Response Key: ").append(cert == null || cert.staple() == null ? "" : cert.staple().key).append('\n').toString();
    }

    /** The lines HAProxy shows of one certificate, from {@code Serial} to {@code Issuer} (also for CA files). */
    static void certificate(StringBuilder b, X509Certificate x) throws CliException {
        HexFormat hex = HexFormat.of().withUpperCase();
        b.append("Serial: ").append(hex.formatHex(CertFetches.unsigned(x.getSerialNumber()))).append('\n');
        b.append("notBefore: ").append(time(x.getNotBefore())).append('\n');
        b.append("notAfter: ").append(time(x.getNotAfter())).append('\n');
        b.append("Subject Alternative Name: ").append(alternativeNames(x)).append('\n');
        b.append("Algorithm: ").append(algorithm(x.getPublicKey())).append('\n');
        try {
            b.append("SHA1 FingerPrint: ").append(hex.formatHex(MessageDigest.getInstance("SHA-1").digest(x.getEncoded()))).append('\n');
        } catch (NoSuchAlgorithmException | java.security.cert.CertificateEncodingException e) {
            throw new CliException("Can't display the certificate: " + e.getMessage() + "\n");
        }
        b.append("Subject: ").append(CertFetches.oneLine(x.getSubjectX500Principal())).append('\n');
        b.append("Issuer: ").append(CertFetches.oneLine(x.getIssuerX500Principal())).append('\n');
    }

    /** A time as OpenSSL's ASN1_TIME_print writes it. */
    static String time(java.util.Date d) {
        return TIME.format(d.toInstant());
    }

    /** As HAProxy lists them: every name separated by ", ", the DNS ones written "DNS:name", the others left empty. */
    private static String alternativeNames(X509Certificate x) {
        Collection<List<?>> names;
        try {
            names = x.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return "";
        }
        List<String> out = new ArrayList<>();
        if (names != null) {
            names.forEach(n -> out.add((Integer) n.get(0) == 2 ? "DNS:" + n.get(1) : ""));
        }
        return String.join(", ", out);
    }

    /** The key's type and size as OpenSSL counts it (an EC key by its curve's order). */
    private static String algorithm(PublicKey key) {
        if (key instanceof RSAPublicKey rsa) {
            return "RSA" + rsa.getModulus().bitLength();
        }
        if (key instanceof ECPublicKey ec) {
            return "EC" + ec.getParams().getOrder().bitLength();
        }
        if (key instanceof java.security.interfaces.DSAPublicKey dsa) {
            return "DSA" + dsa.getParams().getP().bitLength();
        }
        return "Unknown";
    }

    private void create(CliRequest r) throws CliException {
        String file = r.arg(3);
        if (file.isEmpty()) {
            throw new CliException("'new ssl cert' expects a filename\n");
        }
        store.create(file);
        r.print("New empty certificate store '" + file + "'!\n");
    }

    private void set(CliRequest r) throws CliException {
        String file = r.arg(3);
        String pem = r.payload() != null ? r.payload() : r.arg(4);
        if (file.isEmpty() || pem.isEmpty()) {
            throw new CliException("'set ssl cert expects a filename and a certificate as a payload\n");
        }
        boolean created = store.set(file, pem);
        r.print("Transaction " + (created ? "created" : "updated") + " for certificate " + store.transaction() + "!\n");
    }

    private void commit(CliRequest r) throws CliException {
        String file = r.arg(3);
        if (file.isEmpty()) {
            throw new CliException("'commit ssl cert expects a filename\n");
        }
        int uses = store.commit(file);
        r.print("Committing " + file + ".".repeat(uses) + "\nSuccess!\n");
    }

    private void abort(CliRequest r) throws CliException {
        String file = r.arg(3);
        if (file.isEmpty()) {
            throw new CliException("'abort ssl cert' expects a filename\n");
        }
        store.abort(file);
        r.print("Transaction aborted for certificate '" + file + "'!\n");
    }

    private void delete(CliRequest r) throws CliException {
        String file = r.arg(3);
        if (file.isEmpty()) {
            throw new CliException("'del ssl cert' expects a certificate name\n");
        }
        store.delete(file);
        r.print("Certificate '" + file + "' deleted!\n");
    }

    private void showList(CliRequest r) throws CliException {
        boolean numbered = r.arg(3).equals("-n");
        String name = r.arg(numbered ? 4 : 3);
        if (name.isEmpty()) {
            if (numbered) {
                throw new CliException("'show ssl crt-list -n' expects a filename or a directory\n");
            }
            StringBuilder b = new StringBuilder();
            store.listNames().forEach(n -> b.append(n).append('\n'));
            r.print(b);
            return;
        }
        CrtList list = store.list(name);
        if (list == null) {
            throw new CliException("didn't find the specified filename\n");
        }
        StringBuilder b = new StringBuilder("# ").append(name).append('\n');
        store.lines(list).forEach(l -> b.append(CrtList.describe(l, numbered)).append('\n'));
        r.print(b);
    }

    private void addLine(CliRequest r) throws CliException {
        String list = r.arg(3);
        String text = r.payload() != null ? r.payload().replaceFirst("\n$", "") : r.arg(4);
        String usage = "'add ssl crtlist' expects a filename and a certificate name\n";
        if (list.isEmpty() || text.isBlank()) {
            throw new CliException(usage);
        }
        if (text.indexOf('\n') >= 0) {
            throw new CliException("Can't edit the crt-list: only one line of payload is supported!\n");
        }
        CrtList.Parsed line;
        try {
            // Without a payload the line is the certificate alone: HAProxy 2.6 ignores the words after it (its
            // options and filters come only in a payload)
            line = r.payload() == null ? new CrtList.Parsed(text, null, List.of())
                    : CrtList.parse(text, "parsing [CLI:1]: ", CrtList.CLI, lineOptions);
        } catch (ConfigException e) {
            throw new CliException("Can't edit the crt-list: " + e.getMessage() + "\n");
        }
        if (line == null) {
            throw new CliException(usage); // a comment names no certificate
        }
        int binds = store.addLine(list, line);
        r.print("Inserting certificate '" + line.cert() + "' in crt-list '" + list + "'" + ".".repeat(Math.max(1, binds)) + "\nSuccess!\n");
    }

    private void deleteLine(CliRequest r) throws CliException {
        if (r.arg(3).isEmpty() || r.arg(4).isEmpty()) {
            throw new CliException("'del ssl crtlist' expects a filename and a certificate name\n");
        }
        store.deleteLine(r.arg(3), r.arg(4));
        r.print("Entry '" + r.arg(4).replaceAll(":\\d+$", "") + "' deleted in crtlist '" + r.arg(3) + "'!\n");
    }
}

package io.fulcrum.tls;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

import java.nio.charset.StandardCharsets;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;

/**
 * The CLI's commands on CA files and CRL files (management.txt 9.3), with HAProxy 2.6's outputs and messages:
 * {@code show/new/set/commit/abort/del ssl ca-file} and the same for {@code crl-file}. Admin level, as in HAProxy.
 */
final class AuthorityCommands<T> {
    private final CertStore store;
    private final AuthorityFiles<T> files;
    private final AuthorityFiles.Kind kind;

    private AuthorityCommands(CertStore store, AuthorityFiles<T> files) {
        this.store = store;
        this.files = files;
        this.kind = files.kind;
    }

    static void register(CliCommands c, CertStore store) {
        new AuthorityCommands<>(store, store.authorities).register(c, "[<cafile>[:<index>]]",
                "display the SSL CA files used in memory, or the details of a <cafile>, or a single certificate of index <index> of a CA file <cafile>");
        new AuthorityCommands<>(store, store.revocations).register(c, "[<crlfile[:<index>>]]",
                "display the SSL CRL files used in memory, or the details of a <crlfile>, or a single CRL of index <index> of CRL file <crlfile>");
    }

    /** The six commands of the kind, with HAProxy's synopses ({@code show}'s differ). */
    private void register(CliCommands c, String showArgs, String showHelp) {
        String k = kind.keyword;
        String what = kind.file();
        String name = "<" + k.replace("-", "") + ">";
        c.add("show ssl " + k, "show ssl " + k + " " + showArgs, showHelp, CliLevel.ADMIN, this::show);
        // HAProxy 2.6's synopsis of "new ssl crl-file" says "crlfile"
        c.add("new ssl " + k, "new ssl " + k.replace("crl-", "crl") + " " + name, "create a new " + what + " to be used in a crt-list",
                CliLevel.ADMIN, this::create);
        c.add("set ssl " + k, "set ssl " + k + " " + name + " <payload>", "replace a " + what, CliLevel.ADMIN, this::set);
        c.add("commit ssl " + k, "commit ssl " + k + " " + name, "commit a " + what, CliLevel.ADMIN, this::commit);
        c.add("abort ssl " + k, "abort ssl " + k + " " + name, "abort a transaction for a " + what, CliLevel.ADMIN, this::abort);
        c.add("del ssl " + k, "del ssl " + k + " " + name, "delete an unused " + what, CliLevel.ADMIN, this::delete);
    }

    private void show(CliRequest r) throws CliException {
        String arg = r.arg(3);
        if (arg.isEmpty()) {
            StringBuilder b = new StringBuilder();
            String tx = files.transaction();
            if (tx != null) {
                b.append("# transaction\n*").append(tx).append(count(files.transactionItems())).append('\n');
            }
            b.append("# filename\n");
            for (String n : files.names()) {
                b.append(n).append(count(files.items(n))).append('\n');
            }
            r.print(b);
            return;
        }
        int colon = arg.indexOf(':');
        int index = 0; // all of them
        if (colon >= 0) {
            try {
                index = Integer.parseInt(arg.substring(colon + 1));
            } catch (NumberFormatException e) {
                index = -1;
            }
            if (index <= 0) {
                // (no line end: HAProxy 2.6 leaves it to the answer's final one)
                throw new CliException("wrong " + kind.word + " index after colons in '" + arg + "'!");
            }
        }
        String name = colon < 0 ? arg : arg.substring(0, colon);
        boolean tx = name.startsWith("*");
        String file = tx ? name.substring(1) : name;
        if (tx ? !file.equals(files.transaction()) : !files.exists(file)) {
            throw new CliException("Can't display the " + kind.file() + " : Not found!\n");
        }
        List<T> items = tx ? files.transactionItems() : files.items(file);
        if (kind == AuthorityFiles.Kind.CA && (items == null || index > items.size())) {
            return; // HAProxy shows nothing of an empty CA file, nor of a certificate past its last
        }
        String head = "Filename: " + name + "\nStatus: " + (items == null ? "Empty" : !tx && store.uses(files, file) > 0 ? "Used" : "Unused") + "\n";
        StringBuilder b = new StringBuilder(head);
        int buffered = length(head); // what HAProxy's answer buffer holds
        for (int i = 1; items != null && i <= items.size(); i++) {
            if (index == 0 || index == i) {
                StringBuilder one = new StringBuilder(" \n"); // (an empty line would end the answer)
                describe(one, items.get(i - 1), i);
                int size = length(one);
                if (kind == AuthorityFiles.Kind.CA && buffered + size > r.bufsize() && i > 1) {
                    // HAProxy 2.6 puts a CA file's certificates in its buffer one by one; when the next one does not
                    // fit it waits for the buffer to be sent, and starts again with the head
                    b.append(head);
                    buffered = length(head);
                }
                b.append(one);
                buffered += size;
            }
        }
        r.print(b);
    }

    private static int length(CharSequence text) {
        return text.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    /** " - N certificate(s)" after a CA file's name; nothing after a CRL file's. */
    private String count(List<T> items) {
        return kind == AuthorityFiles.Kind.CA ? " - " + (items == null ? 0 : items.size()) + " certificate(s)" : "";
    }

    private static void describe(StringBuilder b, Object item, int number) throws CliException {
        if (item instanceof X509Certificate x) {
            b.append("Certificate #").append(number).append(":\n");
            CertCommands.certificate(b, x);
            return;
        }
        X509CRL crl = (X509CRL) item;
        b.append("Certificate Revocation List #").append(number).append(":\n");
        b.append("Version ").append(crl.getVersion()).append('\n');
        b.append("Signature Algorithm: ").append(OpenSslText.signatureAlgorithm(crl.getSigAlgOID())).append('\n');
        b.append("Issuer: ").append(CertFetches.oneLine(crl.getIssuerX500Principal())).append('\n');
        b.append("Last Update: ").append(CertCommands.time(crl.getThisUpdate())).append('\n');
        b.append("Next Update: ").append(crl.getNextUpdate() == null ? "NONE" : CertCommands.time(crl.getNextUpdate())).append('\n');
        if (crl.getRevokedCertificates() == null || crl.getRevokedCertificates().isEmpty()) {
            b.append("No Revoked Certificates.\n");
            return;
        }
        b.append("Revoked Certificates:\n");
        HexFormat hex = HexFormat.of().withUpperCase();
        for (X509CRLEntry e : crl.getRevokedCertificates()) {
            b.append("    Serial Number: ").append(hex.formatHex(CertFetches.unsigned(e.getSerialNumber()))).append('\n');
            b.append("        Revocation Date: ").append(CertCommands.time(e.getRevocationDate())).append('\n');
        }
    }

    private void create(CliRequest r) throws CliException {
        String name = r.arg(3);
        if (name.isEmpty()) {
            throw new CliException("'new ssl " + kind.keyword + "' expects a filename\n");
        }
        files.create(name);
        r.print("New " + kind.file() + " created '" + name + "'!\n");
    }

    private void set(CliRequest r) throws CliException {
        String name = r.arg(3);
        String pem = r.payload() != null ? r.payload() : r.arg(4);
        if (name.isEmpty() || pem.isEmpty()) {
            throw new CliException("'set ssl " + kind.keyword + " expects a filename and " + kind.plural + " as a payload\n");
        }
        boolean created = files.set(name, pem);
        r.print("transaction " + (created ? "created" : "updated") + " for " + kind.word + " " + name + "!\n");
    }

    private void commit(CliRequest r) throws CliException {
        String name = r.arg(3);
        if (name.isEmpty()) {
            throw new CliException("'commit ssl ca-file expects a filename\n"); // (HAProxy 2.6 says ca-file for both)
        }
        int uses = store.commit(files, name);
        r.print("Committing " + name + ".".repeat(uses) + "\nSuccess!\n");
    }

    private void abort(CliRequest r) throws CliException {
        String name = r.arg(3);
        if (name.isEmpty()) {
            throw new CliException("'abort ssl " + kind.keyword + "' expects a filename\n");
        }
        files.abort(name);
        r.print("Transaction aborted for certificate '" + name + "'!\n");
    }

    private void delete(CliRequest r) throws CliException {
        String name = r.arg(3);
        if (name.isEmpty()) {
            throw new CliException("'del ssl " + kind.keyword + "' expects a " + kind.file() + " name\n");
        }
        store.delete(files, name);
        r.print(kind.file() + " '" + name + "' deleted!\n");
    }
}

package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliException;
import io.netty.handler.ssl.SslContext;

import javax.net.ssl.X509ExtendedTrustManager;
import java.security.GeneralSecurityException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The certificates of the bind lines and of the server lines ({@code crt}, the client certificate), by file, and the
 * crt-lists, shared by the bind lines (a registry component), and what the CLI changes in them (management.txt 9.3): a
 * certificate is replaced through one transaction at a time ({@code set ssl cert} then {@code commit ssl cert}); a
 * commit makes new contexts with each bind line's and server line's options and publishes them at once, so new
 * handshakes use them while open connections keep theirs. The CA and CRL files of the server lines are here too: a
 * commit gives their verifiers the new content.
 */
final class CertStore {
    /** The side files of a certificate HAProxy's {@code set ssl cert} takes by their extension. */
    private static final Pattern SIDE_FILE = Pattern.compile("\\.(key|issuer|ocsp|sctl)$");

    /** The certificates by file name, in the configuration's order; a null value: an empty one ({@code new ssl cert}). */
    private final Map<String, CertKey> certs = new LinkedHashMap<>();
    private final Map<String, CrtList> lists = new LinkedHashMap<>();
    private final List<BindSite> sites = new ArrayList<>();
    /** The TLS layers of the server lines (and of their checks) presenting a client certificate. */
    private final List<ServerCert> servers = new ArrayList<>();
    /** The CA files and the CRL files of the bind lines (and of the CLI). */
    final AuthorityFiles<X509Certificate> authorities = AuthorityFiles.authorities();
    final AuthorityFiles<X509CRL> revocations = AuthorityFiles.revocations();
    /** The OCSP responses stapled, by the key of their certificate's ID. */
    private final Map<String, OcspStaple> staples = new TreeMap<>();
    /** The verifiers of the server lines (and of their checks), which a commit of their CA or CRL file updates. */
    private final List<HostVerifier> verifiers = new ArrayList<>();
    /** The ongoing transaction: its file and its certificate. */
    private final Transaction<CertKey> tx = new Transaction<>();

    static CertStore of(Registry registry) {
        return registry.component(CertStore.class, CertStore::new);
    }

    synchronized void loaded(CertKey cert) {
        certs.putIfAbsent(cert.file(), cert);
    }

    synchronized void site(BindSite site) {
        sites.add(site);
    }

    synchronized void list(CrtList list) {
        lists.putIfAbsent(list.name(), list);
    }

    /** The server line's (or its checks') TLS layer presenting {@code cert}'s file; the file joins the store. */
    synchronized void server(ServerCert server, CertKey cert) {
        certs.putIfAbsent(cert.file(), cert);
        servers.add(server);
    }

    /** The certificate a server line loads: the store's when a line already loaded the file, so that all share it. */
    synchronized CertKey known(String file) {
        return certs.get(file);
    }

    /** The file names in HAProxy's order (its tree of certificates: by name). */
    synchronized List<String> files() {
        return List.copyOf(new TreeMap<>(certs).keySet());
    }

    synchronized List<String> listNames() {
        return List.copyOf(lists.keySet());
    }

    synchronized CrtList list(String name) {
        return lists.get(name);
    }

    /** The lines of a crt-list, as they are now. */
    synchronized List<CrtList.Line> lines(CrtList list) {
        return List.copyOf(list.lines());
    }

    synchronized boolean exists(String file) {
        return certs.containsKey(file);
    }

    /** The certificate of {@code file}, null when it is empty or unknown. */
    synchronized CertKey certificate(String file) {
        return certs.get(file);
    }

    /** The file of the ongoing transaction, or null. */
    synchronized String transaction() {
        return tx.file();
    }

    synchronized CertKey transactionCertificate() {
        return tx.content();
    }

    /**
     * How many certificate entries of the bind lines and server lines present {@code file} (HAProxy's instances: one
     * per server line, whose checks share its context).
     */
    synchronized int uses(String file) {
        return sites.stream().mapToInt(s -> s.map().uses(file)).sum() + (int) servers(file).filter(ServerCert::line).count();
    }

    private java.util.stream.Stream<ServerCert> servers(String file) {
        return servers.stream().filter(s -> s.file().equals(file));
    }

    /** {@code new ssl cert}: an empty certificate to fill with a transaction. */
    synchronized void create(String file) throws CliException {
        if (certs.containsKey(file)) {
            throw new CliException("Certificate '" + file + "' already exists!\n");
        }
        certs.put(file, null);
    }

    /**
     * {@code set ssl cert}: starts or updates the transaction of {@code name} with a PEM text, which replaces the
     * certificate, its chain and its key (one it lacks is then missing: the commit refuses, as HAProxy's); as HAProxy,
     * {@code <file>.key} replaces the key of {@code <file>} alone.
     *
     * @return true when this created the transaction
     */
    synchronized boolean set(String name, String pem) throws CliException {
        String cant = "Can't update " + name + "!\n";
        String side = SIDE_FILE.matcher(name).find() ? name.substring(name.lastIndexOf('.') + 1) : null;
        if (side != null && !side.equals("key")) {
            throw new CliException("Fulcrum keeps no ." + side + " file of a certificate to replace (only the certificate and its .key)\n" + cant);
        }
        String file = side == null ? name : name.substring(0, name.length() - ".key".length());
        tx.checkSet(file);
        if (!certs.containsKey(file)) {
            throw new CliException("Can't replace a certificate which is not referenced by the configuration!\n" + cant);
        }
        CertKey base = tx.file() != null ? tx.content() : certs.get(file);
        CertKey cert;
        try {
            if (side != null) {
                if (base == null) {
                    throw new ConfigException("unable to load private key from file '" + name + "': the certificate is empty.");
                }
                cert = base.withKey(PemFiles.keyPayload(name, pem));
            } else {
                cert = PemFiles.payload(file, pem);
                if (base != null && base.staple() != null && sameId(base.leaf(), cert.leaf())) {
                    cert = cert.stapling(base.staple()); // the same certificate ID: its OCSP response still holds
                }
            }
        } catch (ConfigException e) {
            throw new CliException(e.getMessage() + "\nCan't load the payload\n" + cant);
        }
        return tx.set(file, cert);
    }

    /** Same serial, same issuer: the OCSP certificate ID is the same (the issuer's key aside). */
    private static boolean sameId(X509Certificate a, X509Certificate b) {
        return a.getSerialNumber().equals(b.getSerialNumber()) && a.getIssuerX500Principal().equals(b.getIssuerX500Principal());
    }

    /**
     * {@code commit ssl cert}: the transaction's certificate replaces the file's in every bind line using it.
     *
     * @return how many entries now present it
     */
    synchronized int commit(String file) throws CliException {
        tx.checkCommit(file);
        CertKey txCert = tx.content();
        if (txCert.key() == null) {
            throw new CliException("The transaction must contain at least a certificate and a private key!\nCan't commit " + file + "!\n");
        }
        if (!PemFiles.consistent(txCert)) {
            throw new CliException("inconsistencies between private key and certificate loaded '" + file + "'.\nCan't commit " + file + "!\n");
        }
        int uses = uses(file);
        Map<ServerCert, SslContext> prepared = new LinkedHashMap<>();
        try {
            for (ServerCert s : servers(file).toList()) {
                prepared.put(s, s.prepare(txCert));
            }
        } catch (ContextBuilder.OptionError e) {
            throw new CliException("Committing " + file + "\n" + e.getMessage() + "\nFailed!\n");
        }
        remake(file, s -> s.map().prepare(txCert));
        prepared.forEach(ServerCert::publish);
        certs.put(file, txCert);
        tx.close();
        return uses;
    }

    /** How a commit makes a bind line's new index (null: nothing changes in it). */
    private interface Remake {
        Object prepare(BindSite site) throws ConfigException, ContextBuilder.OptionError;
    }

    /** Prepares the new index of every bind line, then publishes them all at once; none on a failure. */
    private void remake(String file, Remake remake) throws CliException {
        Map<SniMap, Object> prepared = new HashMap<>();
        try {
            for (BindSite s : sites) {
                Object index = remake.prepare(s);
                if (index != null) {
                    prepared.put(s.map(), index);
                }
            }
        } catch (ContextBuilder.OptionError | ConfigException e) {
            throw new CliException("Committing " + file + "\n" + e.getMessage() + "\nFailed!\n");
        }
        prepared.forEach(SniMap::publish);
    }

    /** The staple of the certificate {@code id} (one per ID, however many files hold the certificate), now with {@code r}. */
    synchronized OcspStaple staple(byte[] id, OcspResponse r) {
        OcspStaple s = staples.computeIfAbsent(HexFormat.of().formatHex(id), k -> new OcspStaple(id, r));
        s.response(r);
        return s;
    }

    synchronized List<OcspStaple> staples() {
        return List.copyOf(staples.values());
    }

    /** The staple of a certificate ID's key, or null. */
    synchronized OcspStaple staple(String key) {
        return staples.get(key);
    }

    /** {@code set ssl ocsp-response}: a checked response replaces its certificate's; the next handshakes staple it. */
    synchronized void staple(OcspResponse r) throws OcspResponse.Refused {
        OcspStaple s = staples.get(HexFormat.of().formatHex(r.check(Instant.now())));
        if (s == null) {
            throw new OcspResponse.Refused("OCSP single response: Certificate ID does not match any certificate or issuer");
        }
        s.response(r);
    }

    /**
     * The verifier of a server line (or of its checks) with a {@code ca-file} and maybe a {@code crl-file}, loaded
     * as the bind lines' are (so that the CLI shows them and a commit reaches them).
     */
    synchronized HostVerifier verifier(TlsGlobals globals, String caFile, String crlFile, String host, boolean line)
            throws AuthorityFiles.Unloadable, GeneralSecurityException {
        List<X509Certificate> cas = authorities.load(globals, caFile);
        List<X509CRL> crls = crlFile == null ? null : revocations.load(globals, crlFile);
        HostVerifier v = new HostVerifier(name(globals, caFile), crlFile == null ? null : globals.ca(crlFile).toString(), host, line,
                HostVerifier.pkix(cas, crls));
        verifiers.add(v);
        return v;
    }

    /** The name a CA file goes by. */
    private static String name(TlsGlobals globals, String caFile) {
        return caFile.equals(SystemStore.NAME) ? caFile : globals.ca(caFile).toString();
    }

    /** The server verifiers using the CA or CRL file {@code name}. */
    private List<HostVerifier> verifiers(AuthorityFiles<?> files, String name) {
        return verifiers.stream().filter(v -> name.equals(files.kind == AuthorityFiles.Kind.CA ? v.caFile : v.crlFile)).toList();
    }

    /**
     * How many certificate entries of the bind lines verify client certificates with the CA or CRL file {@code name},
     * and server lines their servers' certificates.
     */
    synchronized int uses(AuthorityFiles<?> files, String name) {
        return (int) sites.stream().flatMap(s -> s.map().entries().stream()).filter(e -> e.recipe().uses(files.kind, name)).count()
                + (int) verifiers(files, name).stream().filter(v -> v.line).count();
    }

    /**
     * {@code commit ssl ca-file} or {@code crl-file}: every entry verifying with the file gets a context made with the
     * transaction's content; all of them are published at once (open connections keep their context), or none.
     *
     * @return how many entries use the file
     */
    synchronized <T> int commit(AuthorityFiles<T> files, String name) throws CliException {
        List<T> previous = files.commit(name);
        int uses = uses(files, name);
        Map<HostVerifier, X509ExtendedTrustManager> servers = new HashMap<>();
        try {
            for (HostVerifier v : verifiers(files, name)) {
                servers.put(v, HostVerifier.pkix(Objects.requireNonNullElse(authorities.items(v.caFile), List.of()),
                        v.crlFile == null ? null : Objects.requireNonNullElse(revocations.items(v.crlFile), List.of())));
            }
            remake(name, s -> s.map().prepare(e -> e.recipe().uses(files.kind, name) ? s.rebuild(e) : null));
        } catch (GeneralSecurityException e) {
            files.restore(name, previous);
            throw new CliException("Committing " + name + "\n" + e.getMessage() + "\nFailed!\n");
        } catch (CliException e) {
            files.restore(name, previous);
            throw e;
        }
        servers.forEach(HostVerifier::authorities);
        files.committed();
        return uses;
    }

    /** {@code del ssl ca-file} or {@code crl-file}: only a file no bind line uses. */
    synchronized void delete(AuthorityFiles<?> files, String name) throws CliException {
        files.delete(name, uses(files, name) > 0);
    }

    /** {@code abort ssl cert}. */
    synchronized void abort(String file) throws CliException {
        tx.abort(file);
    }

    /** {@code del ssl cert}: forgets a certificate no bind line nor crt-list uses. */
    synchronized void delete(String file) throws CliException {
        String cant = "Can't remove the certificate: ";
        if (file.equals(tx.file())) {
            throw new CliException(cant + "certificate '" + file + "' in a transaction, can't be deleted!\n\n");
        }
        if (!certs.containsKey(file)) {
            throw new CliException(cant + "certificate '" + file + "' doesn't exist!\n\n");
        }
        boolean listed = lists.values().stream().anyMatch(l -> l.lines().stream().anyMatch(x -> x.cert().equals(file)));
        if (listed || uses(file) > 0) {
            throw new CliException(cant + "certificate '" + file + "' in use, can't be deleted!\n\n");
        }
        certs.remove(file);
    }

    /**
     * {@code add ssl crt-list}: a line for a known certificate, in every bind line using the list.
     *
     * @return how many bind lines use the list
     */
    synchronized int addLine(String list, CrtList.Parsed line) throws CliException {
        String cant = "Can't edit the crt-list: ";
        CrtList l = lists.get(list);
        if (l == null) {
            throw new CliException(cant + "crt-list '" + list + "' does not exist!\n");
        }
        if (!certs.containsKey(line.cert())) {
            throw new CliException(cant + "certificate '" + line.cert() + "' does not exist!\n");
        }
        CertKey cert = certs.get(line.cert());
        if (cert == null) {
            throw new CliException(cant + "certificate '" + line.cert() + "' is empty!\n");
        }
        CrtList.Line added = new CrtList.Line(line.cert(), line.options(), line.filters(), l.nextNumber());
        Map<SniMap, SniMap.Entry> entries = new LinkedHashMap<>();
        try {
            for (BindSite s : l.sites()) {
                entries.put(s.map(), s.entry(cert, line.options(), line.filters(), added));
            }
        } catch (ConfigException | ContextBuilder.OptionError e) {
            throw new CliException(cant + e.getMessage() + "\n");
        }
        l.lines().add(added);
        l.lineCount(added.number());
        entries.forEach((map, e) -> map.add(e));
        return l.sites().size();
    }

    /**
     * {@code del ssl crt-list}: removes the line of {@code cert} ({@code <cert>:<number>} when it has several) from the
     * list and its certificate from the bind lines using it; refused when a bind line uses it by default (its first).
     */
    synchronized void deleteLine(String list, String cert) throws CliException {
        String cant = "Can't delete the entry: ";
        CrtList l = lists.get(list);
        if (l == null) {
            throw new CliException(cant + "crt-list '" + list + "' does not exist!\n");
        }
        int colon = cert.lastIndexOf(':');
        String file = colon < 0 ? cert : cert.substring(0, colon);
        String number = colon < 0 ? null : cert.substring(colon + 1);
        if (!certs.containsKey(file)) {
            throw new CliException(cant + "certificate '" + file + "' does not exist!\n");
        }
        List<CrtList.Line> found = l.lines().stream().filter(x -> x.cert().equals(file)).toList();
        if (found.isEmpty()) {
            throw new CliException(cant + "certificate '" + file + "' can't be found in crt-list '" + list + "'!\n");
        }
        String numbers = String.join(", ", found.stream().map(x -> String.valueOf(x.number())).toList());
        List<CrtList.Line> chosen = number == null ? found : found.stream().filter(x -> String.valueOf(x.number()).equals(number)).toList();
        if (number == null && found.size() > 1) {
            throw new CliException(cant + "found the certificate '" + file + "' in several entries, please specify a line number preceded by colons ("
                    + numbers + ")!\n");
        }
        if (chosen.isEmpty()) {
            throw new CliException(cant + "found a certificate '" + file + "' but the line number is incorrect, please specify a correct line number"
                    + " preceded by colons (" + numbers + ")!\n");
        }
        CrtList.Line gone = chosen.get(0);
        List<BindSite> defaults = l.sites().stream().filter(s -> s.map().isDefault(gone)).toList();
        if (!defaults.isEmpty()) {
            throw new CliException(cant + "certificate '" + file + "' cannot be deleted, it is used as default certificate by the following frontends:\n"
                    + String.join("", defaults.stream().map(s -> "\t- " + s.source + "\n").toList()) + "\n");
        }
        l.lines().remove(gone);
        l.sites().forEach(s -> s.map().remove(gone));
    }
}

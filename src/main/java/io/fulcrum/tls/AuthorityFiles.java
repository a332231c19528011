package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.cli.CliException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CA files or the CRL files the bind lines verify client certificates with, by name (the file name under
 * {@code ca-base}, each file read once), and the CLI's one transaction on them (management.txt 9.3): {@code set}
 * puts a new content aside, {@code commit} makes it the file's ({@link CertStore} then rebuilds the contexts
 * using it). Names sort as HAProxy's tree does.
 *
 * @param <T> X509Certificate or X509CRL
 */
final class AuthorityFiles<T> {
    /** What differs between the two kinds: their words in messages and how a PEM text gives their items. */
    enum Kind {
        CA("CA", "ca-file", "CAs"), CRL("CRL", "crl-file", "CRLs");

        final String word;
        final String keyword;
        final String plural;

        Kind(String word, String keyword, String plural) {
            this.word = word;
            this.keyword = keyword;
            this.plural = plural;
        }

        /** "CA file", "CRL file". */
        String file() {
            return word + " file";
        }
    }

    final Kind kind;
    /** The contents by name; null for an empty file ({@code new ssl ca-file}). */
    private final Map<String, List<T>> files = new TreeMap<>();
    private final Transaction<List<T>> tx = new Transaction<>();
    /** The line that first named each file: HAProxy reads it while it reads that line, from its default-path. */
    private final Map<String, Source> namedAt = new HashMap<>();

    private AuthorityFiles(Kind kind) {
        this.kind = kind;
    }

    static AuthorityFiles<X509Certificate> authorities() {
        return new AuthorityFiles<>(Kind.CA);
    }

    static AuthorityFiles<X509CRL> revocations() {
        return new AuthorityFiles<>(Kind.CRL);
    }

    /**
     * The file name of option line {@code l} ({@code ca-file <name>}), remembering where the line was. A crt-list line
     * the CLI adds reads no file, as HAProxy's (it opens files only while it reads its configuration): it may name
     * one the configuration loaded or {@code new ssl ca-file} made, no other.
     *
     * @throws Unloadable for a CLI line naming a file the store does not hold
     */
    synchronized String named(ConfigLine l) throws Unloadable {
        String given = l.arg(1);
        if (l.source() == CrtList.CLI) {
            if (!namedAt.containsKey(given) && !files.containsKey(given)) {
                throw new Unloadable(kind.keyword, given, "not loaded");
            }
            return given;
        }
        namedAt.putIfAbsent(given, l.source());
        return given;
    }

    /**
     * The items of the file a {@code ca-file} or {@code crl-file} names (read the first time); null for an empty one.
     * A directory gives its {@code .pem}, {@code .crt}, {@code .cer} and {@code .crl} files (not those starting with a
     * dot), and {@code @system-ca} the system's trust store directory, as HAProxy loads them.
     *
     * @throws Unloadable when it cannot be read or holds none ({@code '<keyword>' : unable to load <file>})
     */
    List<T> load(TlsGlobals globals, String given) throws Unloadable {
        return load(globals, given, kind.keyword);
    }

    /** As {@link #load(TlsGlobals, String)}, for the option {@code keyword} ({@code ca-verify-file}) in errors. */
    synchronized List<T> load(TlsGlobals globals, String given, String keyword) throws Unloadable {
        boolean system = kind == Kind.CA && given.equals(SystemStore.NAME);
        String name = system ? given : globals.ca(given).toString();
        Source at = namedAt.get(given);
        Path path = system ? SystemStore.directory() : at == null ? Path.of(name) : at.path(name);
        if (files.containsKey(name)) {
            return files.get(name);
        }
        List<T> items;
        try {
            items = Files.isDirectory(path) ? SystemStore.read(path, this::parse) : parse(Files.readString(path, StandardCharsets.ISO_8859_1));
        } catch (NoSuchFileException e) {
            throw new Unloadable(keyword, name, "No such file or directory");
        } catch (IOException e) {
            throw new Unloadable(keyword, name, e.getMessage() == null ? "unreadable" : e.getMessage());
        }
        if (items == null || items.isEmpty()) {
            throw new Unloadable(keyword, name, system ? "0 CA were loaded" : "no certificate or crl found");
        }
        items = stored(items);
        files.put(name, items);
        return items;
    }

    /** The items of a file or payload, in the order they were read, as HAProxy's store holds them. */
    @SuppressWarnings("unchecked")
    private List<T> stored(List<T> read) {
        return kind == Kind.CA ? (List<T>) StoreOrder.of((List<X509Certificate>) read) : read;
    }

    /** A CA or CRL file that cannot be used: HAProxy's message, and why (for the server lines' longer one). */
    static final class Unloadable extends ConfigException {
        private static final long serialVersionUID = 1L;
        final String name;
        final String reason;

        Unloadable(String keyword, String name, String reason) {
            super("'" + keyword + "' : unable to load " + name);
            this.name = name;
            this.reason = reason;
        }
    }

    /** The certificates or CRLs of a PEM text, null when it is not one. */
    @SuppressWarnings("unchecked")
    List<T> parse(String pem) {
        try {
            List<?> items = kind == Kind.CA ? PemFiles.certificates(pem)
                    : new ArrayList<>(ClientVerifier.crls(pem.getBytes(StandardCharsets.ISO_8859_1)));
            return items.isEmpty() && !pem.contains("-----BEGIN ") ? null : (List<T>) items;
        } catch (ConfigException | GeneralSecurityException e) {
            return null;
        }
    }

    synchronized List<String> names() {
        return List.copyOf(files.keySet());
    }

    synchronized boolean exists(String name) {
        return files.containsKey(name);
    }

    /** The items of {@code name}: null when it is empty or unknown. */
    synchronized List<T> items(String name) {
        return files.get(name);
    }

    synchronized String transaction() {
        return tx.file();
    }

    synchronized List<T> transactionItems() {
        return tx.content();
    }

    /** {@code new ssl <kind>-file}. */
    synchronized void create(String name) throws CliException {
        if (files.containsKey(name)) {
            throw new CliException(kind.file() + " '" + name + "' already exists!\n");
        }
        files.put(name, null);
    }

    /**
     * {@code set ssl <kind>-file}: opens or replaces the transaction's content.
     *
     * @return true when this opened the transaction
     */
    synchronized boolean set(String name, String pem) throws CliException {
        tx.checkSet(name);
        String cant = "Can't update " + name + "!\n";
        if (!files.containsKey(name)) {
            throw new CliException("Can't replace a " + kind.file() + " which is not referenced by the configuration!\n" + cant);
        }
        List<T> items = parse(pem);
        if (items == null) {
            throw new CliException("Invalid payload\n" + cant);
        }
        return tx.set(name, stored(items));
    }

    /**
     * The first step of {@code commit ssl <kind>-file}: the transaction's content becomes the file's (so that the
     * contexts made next read it); the transaction stays until {@link #committed} or {@link #restore}.
     *
     * @return the file's previous content
     */
    synchronized List<T> commit(String name) throws CliException {
        tx.checkCommit(name);
        return files.put(name, tx.content());
    }

    /** The commit failed: the file keeps {@code previous}, the transaction stays open. */
    synchronized void restore(String name, List<T> previous) {
        files.put(name, previous);
    }

    synchronized void committed() {
        tx.close();
    }

    /** {@code abort ssl <kind>-file}. */
    synchronized void abort(String name) throws CliException {
        tx.abort(name);
    }

    /** {@code del ssl <kind>-file}, once the caller checked that no bind line uses it. */
    synchronized void delete(String name, boolean used) throws CliException {
        String cant = "Can't remove the " + kind.file() + ": ";
        if (name.equals(tx.file())) {
            throw new CliException(cant + "ongoing transaction for the " + kind.file() + " '" + name + "'\n");
        }
        if (!files.containsKey(name)) {
            throw new CliException(cant + kind.file() + " '" + name + "' doesn't exist!\n\n");
        }
        if (used) {
            throw new CliException(cant + kind.file() + " '" + name + "' in use, can't be deleted!\n\n");
        }
        files.remove(name);
    }
}

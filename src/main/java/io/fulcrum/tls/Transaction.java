package io.fulcrum.tls;

import io.fulcrum.cli.CliException;

/**
 * The CLI's one open transaction on a kind of file (certificates, CA files, CRL files: management.txt 9.3): the
 * file it is about and its new content, and HAProxy's refusals when a command names another file.
 *
 * @param <T> the content
 */
final class Transaction<T> {
    private String file;
    private T content;

    /** The file of the open transaction, or null. */
    String file() {
        return file;
    }

    T content() {
        return content;
    }

    /** Refuses a {@code set} on another file than the open transaction's. */
    void checkSet(String name) throws CliException {
        if (file != null && !file.equals(name)) {
            throw new CliException(other(name) + "Can't update " + name + "!\n");
        }
    }

    /**
     * Opens the transaction of {@code name} or replaces its content.
     *
     * @return true when this opened it
     */
    boolean set(String name, T c) {
        boolean created = file == null;
        file = name;
        content = c;
        return created;
    }

    /** Refuses a {@code commit} without a transaction, or of another file. */
    void checkCommit(String name) throws CliException {
        if (file == null) {
            throw new CliException("No ongoing transaction! !\nCan't commit " + name + "!\n");
        }
        if (!file.equals(name)) {
            throw new CliException(other(name) + "Can't commit " + name + "!\n");
        }
    }

    /** {@code abort}: closes the transaction of {@code name}. */
    void abort(String name) throws CliException {
        if (file == null) {
            throw new CliException("No ongoing transaction!\n");
        }
        if (!file.equals(name)) {
            throw new CliException("The ongoing transaction is about '" + file + "' but you are trying to abort a transaction for '" + name + "'\n");
        }
        close();
    }

    void close() {
        file = null;
        content = null;
    }

    private String other(String name) {
        return "The ongoing transaction is about '" + file + "' but you are trying to set '" + name + "'\n";
    }
}

package io.fulcrum.tls;

import io.fulcrum.listener.BindOptionException;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SslContext;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The keys of a {@code tls-ticket-keys} file (configuration.txt 5.1), shared by the bind lines naming it: a ring of
 * HAProxy's three keys (TLS_TICKETS_NO) where the penultimate encrypts and all three decrypt, so appending a key
 * (a reload, or {@code set ssl tls-key}) rotates them without breaking the tickets of the last two. Each key is
 * HAProxy's 48 bytes: a 16-byte name, the AES-128 key, the HMAC key. Every context of the bind lines gets the keys;
 * a change is pushed to all of them, and new handshakes use it at once. HAProxy's 80-byte keys (a 16-byte name, a
 * 32-byte AES-256 key, a 32-byte HMAC key) are accepted too, all the keys of a file of one size; BoringSSL's ticket
 * callback in tcnative only encrypts with AES-128 and a 16-byte HMAC key, so those two are derived from the 32-byte
 * ones with SHA-256 (differences.md).
 */
final class TicketKeys {
    /** HAProxy's TLS_TICKETS_NO. */
    static final int COUNT = 3;
    /** HAProxy's AES-128 keys. */
    static final int SIZE = 48;
    /** HAProxy's AES-256 keys. */
    static final int SIZE_256 = 80;

    final String file;
    /** The size of every key of the file: its first key's. */
    private int size;
    private final byte[][] ring = new byte[COUNT][];
    /** Where the encrypting key is in the ring; the oldest is before it, the newest after it. */
    private int encrypting;
    /** The contexts using the keys; those dropped (a replaced certificate) are forgotten. */
    private final List<WeakReference<SslContext>> contexts = new ArrayList<>();

    private TicketKeys(String file) {
        this.file = file;
    }

    /** Reads the keys file {@code file} (found at {@code path}) as HAProxy does: one base64 key a line, blank lines included, the last three kept. */
    static TicketKeys load(String file, Path path) throws BindOptionException {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new BindOptionException("'" + file + "' : unable to load ssl tickets keys file");
        }
        TicketKeys keys = new TicketKeys(file);
        for (int i = 0; i < lines.size(); i++) {
            byte[] key = decode(lines.get(i));
            if (key == null) {
                throw new BindOptionException("'" + file + "' : unable to decode base64 key on line " + (i + 1));
            }
            if (i == 0 && (key.length == SIZE || key.length == SIZE_256)) {
                keys.size = key.length; // HAProxy: the first key sets the size of all
            }
            if (key.length != keys.size) {
                throw new BindOptionException("'" + file + "' : wrong sized key on line " + (i + 1));
            }
            keys.ring[i % COUNT] = key;
        }
        if (lines.size() < COUNT) {
            throw new BindOptionException("'" + file + "' : please supply at least " + COUNT + " keys in the tls-tickets-file");
        }
        keys.encrypting = (lines.size() - 2) % COUNT;
        return keys;
    }

    /** A key in base64, or null when it is not base64 (padded to 4 characters, as HAProxy wants it). */
    static byte[] decode(String text) {
        if (text.length() % 4 != 0) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Gives a new context the keys; false on the JDK's engine, which takes none. */
    synchronized boolean attach(SslContext context) {
        if (!(context.sessionContext() instanceof OpenSslSessionContext)) {
            return false;
        }
        contexts.removeIf(r -> r.get() == null);
        contexts.add(new WeakReference<>(context));
        push(context);
        return true;
    }

    /** The size of the file's keys: {@code set ssl tls-key} takes no other. */
    int size() {
        return size;
    }

    /** {@code set ssl tls-key}: the key replaces the oldest and becomes the newest; the one before it now encrypts. */
    synchronized void add(byte[] key) {
        ring[(encrypting + 2) % COUNT] = key.clone();
        encrypting = (encrypting + 1) % COUNT;
        contexts.removeIf(r -> r.get() == null);
        contexts.forEach(r -> {
            SslContext c = r.get();
            if (c != null) {
                push(c);
            }
        });
    }

    /** The keys in base64, oldest first (the second one encrypts), as {@code show tls-keys} lists them. */
    synchronized List<String> base64() {
        List<String> out = new ArrayList<>(COUNT);
        for (int i = 0; i < COUNT; i++) {
            out.add(Base64.getEncoder().encodeToString(ring[(encrypting + 2 + i) % COUNT]));
        }
        return out;
    }

    /** A 16-byte key from {@code length} bytes of {@code k}: themselves, or the head of their SHA-256 when longer. */
    private static byte[] key128(byte[] k, int from, int length) {
        byte[] part = Arrays.copyOfRange(k, from, from + length);
        if (length == 16) {
            return part;
        }
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(part), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /** The engine encrypts with the first key and decrypts with any (asking the client to renew the others). */
    private void push(SslContext context) {
        OpenSslSessionTicketKey[] keys = new OpenSslSessionTicketKey[COUNT];
        for (int i = 0; i < COUNT; i++) {
            byte[] k = ring[(encrypting + i) % COUNT];
            // HAProxy's layout: name, AES key, HMAC key; the engine's constructor takes name, HMAC key, AES key.
            int half = (k.length - 16) / 2;
            keys[i] = new OpenSslSessionTicketKey(Arrays.copyOfRange(k, 0, 16), key128(k, 16 + half, half), key128(k, 16, half));
        }
        ((OpenSslSessionContext) context.sessionContext()).setTicketKeys(keys);
    }
}

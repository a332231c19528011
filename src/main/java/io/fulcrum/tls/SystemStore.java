package io.fulcrum.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A CA directory, and {@code ca-file @system-ca}: the system's trust store, read as HAProxy 2.6 reads one (each
 * {@code .pem}, {@code .crt}, {@code .cer} or {@code .crl} file not starting with a dot, in name order, gives its first
 * certificate; duplicates count once). The system's is OpenSSL's default directory, Debian's {@code /etc/ssl/certs},
 * or {@code SSL_CERT_DIR} when set (configuration.txt says so; HAProxy 2.6 itself ignores it).
 */
final class SystemStore {
    static final String NAME = "@system-ca";

    private SystemStore() {
    }

    static Path directory() {
        String dir = System.getenv("SSL_CERT_DIR");
        return Path.of(dir == null || dir.isEmpty() ? "/etc/ssl/certs" : dir);
    }

    /** The first item of each file of {@code dir} as {@code parse} reads it (unreadable files give none). */
    static <T> List<T> read(Path dir, Function<String, List<T>> parse) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(SystemStore::loaded).sorted().toList();
        }
        List<T> items = new ArrayList<>();
        for (Path f : files) {
            List<T> in;
            try {
                in = parse.apply(Files.readString(f, StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                continue; // (HAProxy warns and goes on)
            }
            if (in != null && !in.isEmpty() && !items.contains(in.get(0))) {
                items.add(in.get(0));
            }
        }
        return items;
    }

    private static boolean loaded(Path f) {
        String n = f.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return !n.startsWith(".") && dot > 0 && List.of(".pem", ".crt", ".cer", ".crl").contains(n.substring(dot)) && !Files.isDirectory(f);
    }
}

package io.fulcrum.it;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A TLS server that answers each connection with its name and closes. */
final class TlsOrigin implements AutoCloseable {
    private final SSLServerSocket socket;
    private final Thread thread;
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();

    /** A server for a new self-signed certificate of {@code name}, answering {@code name}. */
    static TlsOrigin selfSigned(Path dir, String name) throws Exception {
        TlsKit.selfSigned(dir, name, name);
        return new TlsOrigin(dir, name, name);
    }

    /** A server presenting {@code <file>.pem} (certificate and key), answering {@code name}. */
    TlsOrigin(Path dir, String file, String name) throws Exception {
        TlsKit.run(dir, "", "openssl", "pkcs12", "-export", "-in", file + ".pem", "-out", file + ".p12", "-passout", "pass:x");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(dir.resolve(file + ".p12").toFile())) {
            ks.load(in, "x".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "x".toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        socket = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = Thread.ofVirtual().start(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket c = socket.accept();
                    Thread.ofVirtual().start(() -> answer(c, name));
                } catch (IOException e) {
                    // closed
                }
            }
        });
    }

    private void answer(Socket c, String name) {
        try (Socket s = c) {
            s.setSoTimeout(5000);
            s.getOutputStream().write((name + "\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        } catch (IOException e) {
            failures.add(e.getMessage());
        }
    }

    /** Why connections failed (a refused handshake: the alert the client sent, "Received fatal alert: unknown_ca"). */
    List<String> failures() {
        return List.copyOf(failures);
    }

    int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        socket.close();
        thread.join(5000);
    }
}

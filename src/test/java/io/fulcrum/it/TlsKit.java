package io.fulcrum.it;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the TLS tests share: certificates made by the openssl CLI in the test's temporary directory (no key is
 * committed), JDK clients that trust anything (the tests look at what the server presents), and runs of the curl
 * and openssl clients, bounded in time.
 */
final class TlsKit {
    private TlsKit() {
    }

    /** The CLI's answer to {@code line}, without the entry of the system's CAs HAProxy always lists (its httpclient's). */
    static String cli(Path admin, String line) throws IOException {
        return CliClient.send(admin, line).replaceAll("@system-ca - \\d+ certificate\\(s\\)\n", "");
    }

    /** Runs a command with {@code input} on stdin; its stdout and stderr together. Fails after 30 s. */
    static String run(Path dir, String input, String... cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "run", ".out");
        Path in = Files.createTempFile(dir, "run", ".in");
        Files.writeString(in, input);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).redirectInput(in.toFile()).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in 30 s");
        }
        return Files.readString(out, StandardCharsets.ISO_8859_1);
    }

    /** A self-signed certificate for {@code cn} (also its first SAN) and {@code sans}: {@code name.pem} holds it and its key. */
    static Path selfSigned(Path dir, String name, String cn, String... sans) throws IOException, InterruptedException {
        return certificate(dir, name, "rsa:2048", cn, null, sans);
    }

    /** A certificate for {@code cn} signed by the CA of {@link #authority} ({@code ca.pem}, {@code ca.key}). */
    static Path signed(Path dir, String name, String cn, String... sans) throws IOException, InterruptedException {
        return certificate(dir, name, "rsa:2048", cn, "ca", sans);
    }

    /** A CA: {@code <name>.pem} (its certificate) and {@code <name>.key}. */
    static Path authority(Path dir, String name) throws IOException, InterruptedException {
        String r = run(dir, "", "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key",
                "-out", name + ".pem", "-days", "30", "-subj", "/CN=" + name + " test CA");
        if (!Files.exists(dir.resolve(name + ".pem"))) {
            throw new AssertionError("openssl failed: " + r);
        }
        return dir.resolve(name + ".pem");
    }

    /** {@code ca}'s CRL ({@code crl.pem}) revoking the certificates {@code <name>.crt} of {@code revoked}. */
    static Path crl(Path dir, String... revoked) throws IOException, InterruptedException {
        return crlOf(dir, "ca", revoked);
    }

    /**
     * The CRL of the CA {@code ca} ({@code <ca>.pem}, {@code <ca>.key}) revoking {@code revoked}: {@code crl.pem} for
     * "ca", else {@code <ca>-crl.pem}, each CA with its own database.
     */
    static Path crlOf(Path dir, String ca, String... revoked) throws IOException, InterruptedException {
        String p = ca.equals("ca") ? "" : ca + "-";
        Files.writeString(dir.resolve(p + "index.txt"), "");
        Files.writeString(dir.resolve(p + "crlnumber"), "01\n");
        Files.writeString(dir.resolve(p + "ca.cnf"), """
                [ca]
                default_ca = test
                [test]
                database = %1$sindex.txt
                crlnumber = %1$scrlnumber
                default_md = sha256
                default_crl_days = 30
                """.formatted(p));
        String r = "";
        for (String name : revoked) {
            r += run(dir, "", "openssl", "ca", "-config", p + "ca.cnf", "-keyfile", ca + ".key", "-cert", ca + ".pem", "-revoke", name + ".crt");
        }
        r += run(dir, "", "openssl", "ca", "-config", p + "ca.cnf", "-keyfile", ca + ".key", "-cert", ca + ".pem", "-gencrl", "-out", p + "crl.pem");
        if (!Files.exists(dir.resolve(p + "crl.pem"))) {
            throw new AssertionError("openssl failed: " + r);
        }
        return dir.resolve(p + "crl.pem");
    }

    /** Runs {@code openssl ca} on the CA of {@link #crl} (its database) with {@code args} ({@code -valid server.crt}...). */
    static void ca(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl", "ca", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem"));
        cmd.addAll(List.of(args));
        run(dir, "", cmd.toArray(String[]::new));
    }

    /** The CA's OCSP answer about {@code cert} from its database (see {@link #ca}), written to {@code out} (DER). */
    static Path ocsp(Path dir, String cert, String out, String... more) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl", "ocsp", "-index", "index.txt", "-CA", "ca.pem", "-rsigner", "ca.pem",
                "-rkey", "ca.key", "-issuer", "ca.pem", "-cert", cert, "-respout", out, "-no_nonce", "-resp_no_certs"));
        cmd.addAll(List.of(more));
        String r = run(dir, "", cmd.toArray(String[]::new));
        if (!Files.exists(dir.resolve(out))) {
            throw new AssertionError("openssl ocsp failed: " + r);
        }
        return dir.resolve(out);
    }

    /** A certificate and its key in {@code name.pem} (key algorithm as openssl's -newkey takes it), self-signed or by {@code ca}. */
    static Path certificate(Path dir, String name, String keyAlg, String cn, String ca, String... sans)
            throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        names.add("DNS:" + cn);
        for (String s : sans) {
            names.add("DNS:" + s);
        }
        return issue(dir, name, keyAlg, cn, ca, "subjectAltName=" + String.join(",", names) + "\n");
    }

    /** An intermediate CA "{@code <name>} test CA" signed by {@code ca}: {@code name.pem} (with its key) and {@code name.key}. */
    static Path intermediate(Path dir, String name, String ca) throws IOException, InterruptedException {
        return issue(dir, name, "rsa:2048", name + " test CA", ca, "basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign,cRLSign\n");
    }

    /** A certificate for {@code cn} with the extensions {@code extensions}, self-signed or by {@code ca} (see {@link #certificate}). */
    private static Path issue(Path dir, String name, String keyAlg, String cn, String ca, String extensions)
            throws IOException, InterruptedException {
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extensions);
        List<String> cmd = new ArrayList<>(List.of("openssl", "req", "-newkey", keyAlg, "-nodes", "-keyout", name + ".key",
                "-subj", "/CN=" + cn, "-out", name + ".csr"));
        String r = run(dir, "", cmd.toArray(String[]::new));
        List<String> sign = new ArrayList<>(List.of("openssl", "x509", "-req", "-in", name + ".csr", "-days", "30",
                "-extfile", ext.toString(), "-out", name + ".crt"));
        if (ca == null) {
            sign.addAll(List.of("-signkey", name + ".key"));
        } else {
            sign.addAll(List.of("-CA", ca + ".pem", "-CAkey", ca + ".key", "-CAcreateserial"));
        }
        r += run(dir, "", sign.toArray(String[]::new));
        Path pem = dir.resolve(name + ".pem");
        if (!Files.exists(dir.resolve(name + ".crt"))) {
            throw new AssertionError("openssl failed: " + r);
        }
        Files.writeString(pem, Files.readString(dir.resolve(name + ".crt")) + Files.readString(dir.resolve(name + ".key")));
        return pem;
    }

    /**
     * A client context that trusts every server and checks no name: the tests check what the server presents
     * themselves. (An X509ExtendedTrustManager, or the JDK's clients still match the host name.)
     *
     * @param keys the client's certificate, or none
     */
    static SSLContext trustAll(KeyManager... keys) throws GeneralSecurityException {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(keys.length == 0 ? null : keys, new TrustManager[] {new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return ctx;
    }

    /**
     * A TLS connection to 127.0.0.1:{@code port}, handshake done, without resuming an earlier session (a new
     * client context each time).
     *
     * @param sni       the name to send, or null for none
     * @param protocols the versions to offer ("TLSv1.3"), or none for the JDK's
     * @param alpn      the protocols to offer, or none
     */
    static SSLSocket connect(int port, String sni, String[] protocols, String... alpn) throws IOException {
        SSLContext ctx;
        try {
            ctx = trustAll();
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        SSLParameters p = s.getSSLParameters();
        p.setServerNames(sni == null ? List.of() : List.of(new SNIHostName(sni)));
        if (protocols != null && protocols.length > 0) {
            p.setProtocols(protocols);
        }
        if (alpn.length > 0) {
            p.setApplicationProtocols(alpn);
        }
        s.setSSLParameters(p);
        s.startHandshake();
        return s;
    }

    /** openssl s_client sending {@code request} to 127.0.0.1:{@code port} and reading until the server closes. */
    static String sClient(Path dir, int port, String request, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl", "s_client", "-ign_eof", "-connect", "127.0.0.1:" + port));
        cmd.addAll(List.of(args));
        return run(dir, request, cmd.toArray(String[]::new));
    }

    /** The subject's CN of the certificate the server presented. */
    static String serverName(SSLSocket s) throws IOException {
        X509Certificate c = (X509Certificate) s.getSession().getPeerCertificates()[0];
        String dn = c.getSubjectX500Principal().getName();
        return dn.replaceAll(".*CN=([^,]*).*", "$1");
    }

    /** Sends a GET on the connection and reads the whole answer (the request asks for the connection to close). */
    static String get(SSLSocket s, String path) throws IOException {
        s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
}

package io.fulcrum.tls;

import io.fulcrum.cfg.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Certificate files in the forms openssl writes them: keys in PKCS#8, PKCS#1 and SEC1, in the PEM or beside it. */
class PemFilesTest {
    @TempDir
    Path dir;

    private void openssl(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "openssl";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("openssl.log"))).isZero();
    }

    /** A certificate for {@code cn} with SANs, its key written by {@code keyArgs} (an openssl command making key.pem). */
    private Path bundle(String name, String... keyArgs) throws Exception {
        openssl(keyArgs);
        openssl("req", "-x509", "-key", "key.pem", "-out", "crt.pem", "-days", "2", "-subj", "/CN=Main.Test",
                "-addext", "subjectAltName=DNS:main.test,DNS:*.alt.test");
        Path pem = dir.resolve(name);
        Files.writeString(pem, Files.readString(dir.resolve("crt.pem")) + Files.readString(dir.resolve("key.pem")));
        return pem;
    }

    @Test
    void pkcs8Rsa() throws Exception {
        CertKey ck = PemFiles.load(new TlsGlobals(), bundle("p8.pem", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"));
        assertThat(ck.key().getAlgorithm()).isEqualTo("RSA");
        assertThat(ck.names()).containsExactly("main.test", "*.alt.test");
    }

    @Test
    void pkcs1Rsa() throws Exception {
        bundle("p8.pem", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem");
        openssl("rsa", "-in", "key.pem", "-traditional", "-out", "rsa.pem");
        Path pem = dir.resolve("p1.pem");
        Files.writeString(pem, Files.readString(dir.resolve("crt.pem")) + Files.readString(dir.resolve("rsa.pem")));
        assertThat(Files.readString(pem)).contains("BEGIN RSA PRIVATE KEY");
        assertThat(PemFiles.load(new TlsGlobals(), pem).key().getAlgorithm()).isEqualTo("RSA");
    }

    @Test
    void sec1Ec() throws Exception {
        Path pem = bundle("ec.pem", "ecparam", "-genkey", "-name", "prime256v1", "-out", "key.pem");
        assertThat(Files.readString(pem)).contains("BEGIN EC PRIVATE KEY");
        assertThat(PemFiles.load(new TlsGlobals(), pem).key().getAlgorithm()).isEqualTo("EC");
    }

    /**
     * {@code ca-sign-pass}: a key under a pass phrase, in PKCS#8 (PBES2 with AES-256 and PBES1 with 3DES) and OpenSSL's
     * traditional form (AES and 3DES DEK-Info), also in the side file; no or a wrong pass phrase is refused.
     */
    @Test
    void encryptedKeys() throws Exception {
        bundle("plain.pem", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem");
        PrivateKey plain = PemFiles.load(new TlsGlobals(), dir.resolve("plain.pem")).key();
        openssl("pkcs8", "-topk8", "-in", "key.pem", "-v2", "aes256", "-passout", "pass:s3cret", "-out", "pbes2.key");
        openssl("pkcs8", "-topk8", "-in", "key.pem", "-v1", "PBE-SHA1-3DES", "-passout", "pass:s3cret", "-out", "pbes1.key");
        openssl("rsa", "-in", "key.pem", "-aes128", "-traditional", "-passout", "pass:s3cret", "-out", "aes.key");
        openssl("rsa", "-in", "key.pem", "-des3", "-traditional", "-passout", "pass:s3cret", "-out", "des3.key");
        for (String k : new String[] {"pbes2.key", "pbes1.key", "aes.key", "des3.key"}) {
            Path pem = dir.resolve(k + ".pem");
            Files.writeString(pem, Files.readString(dir.resolve("crt.pem")) + Files.readString(dir.resolve(k)));
            assertThat(PemFiles.load(new TlsGlobals(), pem, "s3cret").key()).as(k).isEqualTo(plain);
            assertThatThrownBy(() -> PemFiles.load(new TlsGlobals(), pem, "wrong")).as(k).isInstanceOf(ConfigException.class)
                    .hasMessage("unable to load SSL private key from PEM file '" + pem + "' (wrong pass phrase?).");
            assertThatThrownBy(() -> PemFiles.load(new TlsGlobals(), pem)).as(k).isInstanceOf(ConfigException.class)
                    .hasMessage("unable to load SSL private key from PEM file '" + pem + "'.");
        }
        assertThat(Files.readString(dir.resolve("aes.key"))).contains("Proc-Type: 4,ENCRYPTED").contains("DEK-Info: AES-128-CBC,");
        Path crt = Files.copy(dir.resolve("crt.pem"), dir.resolve("side.pem"));
        Files.copy(dir.resolve("pbes2.key"), dir.resolve("side.pem.key"));
        assertThat(PemFiles.load(new TlsGlobals(), crt, "s3cret").key()).isEqualTo(plain);
    }

    @Test
    void keyBesideTheCertificate() throws Exception {
        bundle("unused.pem", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "key.pem");
        Path crt = Files.copy(dir.resolve("crt.pem"), dir.resolve("site.pem"));
        Files.copy(dir.resolve("key.pem"), dir.resolve("site.pem.key"));
        assertThat(PemFiles.load(new TlsGlobals(), crt).key().getAlgorithm()).isEqualTo("EC");
        Files.delete(dir.resolve("site.pem.key"));
        assertThatThrownBy(() -> PemFiles.load(new TlsGlobals(), crt)).isInstanceOf(ConfigException.class)
                .hasMessage("No Private Key found in '" + crt + ".key'.");
    }

    /** ssl-load-extra-files without key: no side file; ssl-load-extra-del-ext: "site.crt" has its key in "site.key". */
    @Test
    void keyFileSettings() throws Exception {
        bundle("unused.pem", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "key.pem");
        Path crt = Files.copy(dir.resolve("crt.pem"), dir.resolve("site.crt"));
        Files.copy(dir.resolve("key.pem"), dir.resolve("site.crt.key"));
        TlsGlobals noKey = new TlsGlobals();
        noKey.extraFiles = java.util.EnumSet.of(TlsGlobals.ExtraFile.OCSP);
        assertThatThrownBy(() -> PemFiles.load(noKey, crt)).hasMessage("No Private Key found in '" + crt + "'.");
        TlsGlobals delExt = new TlsGlobals();
        delExt.delExt = true;
        assertThatThrownBy(() -> PemFiles.load(delExt, crt)).hasMessage("No Private Key found in '" + dir.resolve("site.key") + "'.");
        Files.move(dir.resolve("site.crt.key"), dir.resolve("site.key"));
        assertThat(PemFiles.load(delExt, crt).key().getAlgorithm()).isEqualTo("EC");
        noKey.delExt = true; // the name of the error is the certificate's, less .crt, as HAProxy's
        assertThatThrownBy(() -> PemFiles.load(noKey, crt)).hasMessage("No Private Key found in '" + dir.resolve("site") + "'.");
    }
}

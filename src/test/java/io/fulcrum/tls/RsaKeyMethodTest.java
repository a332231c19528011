package io.fulcrum.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslPrivateKeyMethod;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The RSA operations OpenSSL 3 does for BoringSSL, and the JDK where OpenSSL refuses (a method without a native key
 * here): every signature scheme a handshake may ask for verifies with the JDK, the decryption is the raw RSA
 * operation. (A handshake with an RSA certificate needs them: BoringSSL gets no key, so every TLS IT with one, the
 * default of TlsKit, goes through them.)
 */
class RsaKeyMethodTest {
    private static final Random RANDOM = new Random(8);
    private static KeyPair rsa;
    private static RsaKeyMethod openssl;

    @BeforeAll
    static void key() throws Exception {
        // Debian's libssl3 (haproxy, curl and openssl need it) puts it there; elsewhere it may be missing.
        if (Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libcrypto.so.3"))) {
            assertThat(LibCrypto.available()).isTrue();
        }
        assumeTrue(LibCrypto.available(), "no OpenSSL 3");
        OpenSsl.ensureAvailability(); // (the schemes' numbers are BoringSSL's, read from it)
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        rsa = g.generateKeyPair();
        openssl = RsaKeyMethod.of(rsa.getPrivate());
    }

    static Stream<RsaKeyMethod> methods() {
        return Stream.of(openssl, new RsaKeyMethod(0, (RSAPrivateKey) rsa.getPrivate()));
    }

    private static byte[] input() {
        byte[] b = new byte[130]; // about what TLS 1.3 signs: 64 spaces, a context string, a transcript hash
        RANDOM.nextBytes(b);
        return b;
    }

    private static void verifies(RsaKeyMethod method, int scheme, Signature jdk) throws Exception {
        byte[] in = input();
        byte[] sig = method.sign(null, scheme, in);
        assertThat(sig).hasSize(256);
        jdk.initVerify(rsa.getPublic());
        jdk.update(in);
        assertThat(jdk.verify(sig)).as(jdk.getAlgorithm() + " " + Integer.toHexString(scheme)).isTrue();
        in[0] ^= 1;
        jdk.update(in);
        assertThat(jdk.verify(sig)).isFalse();
    }

    @ParameterizedTest
    @MethodSource("methods")
    void pkcs1SignaturesVerify(RsaKeyMethod method) throws Exception {
        verifies(method, OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PKCS1_SHA1, Signature.getInstance("SHA1withRSA"));
        verifies(method, OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PKCS1_SHA256, Signature.getInstance("SHA256withRSA"));
        verifies(method, OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PKCS1_SHA384, Signature.getInstance("SHA384withRSA"));
        verifies(method, OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PKCS1_SHA512, Signature.getInstance("SHA512withRSA"));
    }

    @ParameterizedTest
    @MethodSource("methods")
    void pssSignaturesVerifyWithASaltAsLongAsTheDigest(RsaKeyMethod method) throws Exception {
        String[][] digests = {{"SHA-256", "32"}, {"SHA-384", "48"}, {"SHA-512", "64"}};
        int[] schemes = {OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PSS_RSAE_SHA256,
            OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PSS_RSAE_SHA384, OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PSS_RSAE_SHA512};
        for (int i = 0; i < schemes.length; i++) {
            Signature pss = Signature.getInstance("RSASSA-PSS");
            pss.setParameter(new PSSParameterSpec(digests[i][0], "MGF1", new MGF1ParameterSpec(digests[i][0]),
                    Integer.parseInt(digests[i][1]), 1));
            verifies(method, schemes[i], pss);
        }
    }

    /** TLS 1.0 and 1.1 sign MD5 and SHA-1 digests side by side, with PKCS #1 padding and no algorithm identifier. */
    @ParameterizedTest
    @MethodSource("methods")
    void md5Sha1SignatureOfOldVersions(RsaKeyMethod method) throws Exception {
        byte[] in = input();
        byte[] sig = method.sign(null, OpenSslPrivateKeyMethod.SSL_SIGN_RSA_PKCS1_MD5_SHA1, in);
        Signature raw = Signature.getInstance("NONEwithRSA");
        raw.initVerify(rsa.getPublic());
        byte[] md5 = MessageDigest.getInstance("MD5").digest(in);
        byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(in);
        byte[] both = Arrays.copyOf(md5, md5.length + sha1.length);
        System.arraycopy(sha1, 0, both, md5.length, sha1.length);
        raw.update(both);
        assertThat(raw.verify(sig)).isTrue();
    }

    /** TLS 1.2's RSA key exchange: BoringSSL wants the whole block back and checks the padding itself. */
    @ParameterizedTest
    @MethodSource("methods")
    void decryptIsTheRawOperation(RsaKeyMethod method) throws Exception {
        RSAPublicKey pub = (RSAPublicKey) rsa.getPublic();
        byte[] block = new byte[256];
        RANDOM.nextBytes(block);
        block[0] = 0; // below the modulus; the leading zero must come back
        block[1] = 2;
        byte[] encrypted = new BigInteger(1, block).modPow(pub.getPublicExponent(), pub.getModulus()).toByteArray();
        if (encrypted.length > 256) {
            encrypted = Arrays.copyOfRange(encrypted, encrypted.length - 256, encrypted.length);
        }
        assertThat(method.decrypt(null, encrypted)).isEqualTo(block);
    }

    @Test
    void oneMethodPerKeyAndNoneForOtherKeys() throws Exception {
        assertThat(RsaKeyMethod.of(rsa.getPrivate())).isSameAs(openssl);
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(256);
        assertThat(RsaKeyMethod.of(ec.generateKeyPair().getPrivate())).isNull();
    }

    /** What neither can do fails the handshake. */
    @ParameterizedTest
    @MethodSource("methods")
    void otherSchemesAndOversizedBlocksAreRefused(RsaKeyMethod method) {
        assertThatThrownBy(() -> method.sign(null, OpenSslPrivateKeyMethod.SSL_SIGN_ECDSA_SECP256R1_SHA256, input()))
                .isInstanceOf(SignatureException.class).hasMessage("no RSA signature scheme 0x403");
        assertThatThrownBy(() -> method.decrypt(null, new byte[300])).isInstanceOf(GeneralSecurityException.class);
    }
}

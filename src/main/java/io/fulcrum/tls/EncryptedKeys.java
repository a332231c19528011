package io.fulcrum.tls;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Private keys under a pass phrase ({@code ca-sign-pass}): PKCS#8's {@code ENCRYPTED PRIVATE KEY} (what
 * {@code openssl pkcs8 -topk8} and {@code genpkey -aes256} write) and OpenSSL's traditional form, a PKCS#1 or SEC1
 * key with {@code Proc-Type: 4,ENCRYPTED} and {@code DEK-Info} headers ({@code openssl rsa -aes256 -traditional}).
 */
final class EncryptedKeys {
    private EncryptedKeys() {
    }

    /** The PKCS#8 PrivateKeyInfo inside an EncryptedPrivateKeyInfo (PBES2 or PBES1), decrypted with {@code pass}. */
    static byte[] pkcs8(byte[] der, String pass) throws GeneralSecurityException {
        EncryptedPrivateKeyInfo info;
        try {
            info = new EncryptedPrivateKeyInfo(der);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        // For PBES2 the parameters name the real scheme (e.g. PBEWithHmacSHA256AndAES_256); getAlgName() says PBES2.
        String alg = info.getAlgName().equals("PBES2") ? info.getAlgParameters().toString() : info.getAlgName();
        SecretKeyFactory factory = SecretKeyFactory.getInstance(alg);
        Cipher cipher = Cipher.getInstance(alg);
        cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(new PBEKeySpec(pass.toCharArray())), info.getAlgParameters());
        return info.getKeySpec(cipher).getEncoded();
    }

    /**
     * The key of a traditional encrypted PEM block: {@code dekInfo} is the DEK-Info header's value ("AES-256-CBC,<iv
     * hex>"); the cipher key is OpenSSL's EVP_BytesToKey with MD5, one round, the IV's first 8 bytes as salt.
     */
    static byte[] traditional(byte[] body, String dekInfo, String pass) throws GeneralSecurityException {
        int comma = dekInfo.indexOf(',');
        if (comma < 0) {
            throw new GeneralSecurityException("DEK-Info without an IV");
        }
        String name = dekInfo.substring(0, comma).trim().toUpperCase(Locale.ROOT);
        byte[] iv = HexFormat.of().parseHex(dekInfo.substring(comma + 1).trim());
        record Dek(String alg, int keyLen) {
        }
        Dek dek = switch (name) {
            case "AES-128-CBC" -> new Dek("AES", 16);
            case "AES-192-CBC" -> new Dek("AES", 24);
            case "AES-256-CBC" -> new Dek("AES", 32);
            case "DES-EDE3-CBC" -> new Dek("DESede", 24);
            default -> throw new GeneralSecurityException("unsupported PEM cipher " + name);
        };
        byte[] key = bytesToKey(pass.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(iv, 8), dek.keyLen());
        Cipher cipher = Cipher.getInstance(dek.alg() + "/CBC/PKCS5Padding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, dek.alg()), new IvParameterSpec(iv));
        return cipher.doFinal(body);
    }

    /** EVP_BytesToKey(MD5, salt, pass, 1): MD5 blocks D_i = MD5(D_{i-1} || pass || salt) until {@code len} bytes. */
    private static byte[] bytesToKey(byte[] pass, byte[] salt, int len) throws GeneralSecurityException {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        byte[] out = new byte[len];
        byte[] block = new byte[0];
        for (int done = 0; done < len; done += block.length) {
            md5.update(block);
            md5.update(pass);
            md5.update(salt);
            block = md5.digest();
            System.arraycopy(block, 0, out, done, Math.min(block.length, len - done));
        }
        return out;
    }
}

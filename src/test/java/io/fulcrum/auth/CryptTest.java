package io.fulcrum.auth;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Hashes computed by glibc's crypt(3) and OpenSSL's "passwd" command on this machine. */
class CryptTest {

    private static String crypt(String key, String setting) {
        return Crypt.crypt(key.getBytes(StandardCharsets.UTF_8), setting);
    }

    @Test
    void md5Crypt() {
        assertThat(crypt("secret", "$1$saltsalt$")).isEqualTo("$1$saltsalt$9xy1btjgzLYfb7hivXtC//");
    }

    @Test
    void sha256Crypt() {
        assertThat(crypt("secret", "$5$saltsalt$")).isEqualTo("$5$saltsalt$0IyaXrmV7.sGNS6tirgqHLqX/G.FBvgkYA.lpPdS5sA");
        assertThat(crypt("secret", "$5$rounds=1000$saltsalt$"))
                .isEqualTo("$5$rounds=1000$saltsalt$eKLZU9t9OoPWrqOQsoTIKG0aYkZ5rGOoOQhiIvoSWX2");
    }

    @Test
    void sha512Crypt() {
        assertThat(crypt("secret", "$6$saltsalt$"))
                .isEqualTo("$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN.Pq.H91p5hVO1");
        // A key longer than the digest exercises the loops over its blocks.
        assertThat(crypt("a much longer password that is more than sixty four bytes long for testing the loops!!", "$6$abc"))
                .isEqualTo("$6$abc$4r7NeQGhM33ziZfwJYL0zZEq/wWalgA8zbYKqo6A1SahP05LHTLd5sYOlXDZF/Og8/w2O1XYaPB5cUMFfQ66p.");
    }

    /** The schemes the system's library computes; the hashes are Python's crypt module's (the same library). */
    @Test
    void otherSchemesComeFromTheSystemLibrary() {
        assertThat(crypt("secret", "$y$j9T$abcdefghijklmnop$"))
                .isEqualTo("$y$j9T$abcdefghijklmnop$3dL1LkYnZM.OVXuVdnnaKVDlLYT92dRwOzDZ5XiVCe.");
        assertThat(crypt("secret", "$2b$05$abcdefghijklmnopqrstuu"))
                .isEqualTo("$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a");
        assertThat(Crypt.matches("secret", "$y$j9T$abcdefghijklmnop$3dL1LkYnZM.OVXuVdnnaKVDlLYT92dRwOzDZ5XiVCe.")).isTrue();
        assertThat(Crypt.matches("Secret", "$y$j9T$abcdefghijklmnop$3dL1LkYnZM.OVXuVdnnaKVDlLYT92dRwOzDZ5XiVCe.")).isFalse();
        assertThat(crypt("secret", "ab")).as("DES").isEqualTo("abNANd1rDfiNc");
        assertThat(crypt("secret", "$9$bogus")).as("a scheme nobody knows").isNull();
    }

    @Test
    void matchesComparesWholeHashes() {
        String h = "$5$saltsalt$0IyaXrmV7.sGNS6tirgqHLqX/G.FBvgkYA.lpPdS5sA";
        assertThat(Crypt.matches("secret", h)).isTrue();
        assertThat(Crypt.matches("Secret", h)).isFalse();
        assertThat(Crypt.matches("secret", "abcdefghijk")).isFalse();
    }
}

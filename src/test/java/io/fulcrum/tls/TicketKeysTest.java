package io.fulcrum.tls;

import io.fulcrum.listener.BindOptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sizes of a {@code tls-ticket-keys} file's keys, as HAProxy 2.6 checks them (its messages checked with haproxy -c). */
class TicketKeysTest {
    @TempDir
    Path dir;

    private static TicketKeys load(String file) throws BindOptionException {
        return TicketKeys.load(file, Path.of(file));
    }

    private String file(int... sizes) throws Exception {
        StringBuilder b = new StringBuilder();
        for (int size : sizes) {
            b.append(Base64.getEncoder().encodeToString(new byte[size])).append('\n');
        }
        Path p = dir.resolve("keys.txt");
        Files.writeString(p, b);
        return p.toString();
    }

    @Test
    void keysOfEitherSizeAreTakenAndKeepTheirSize() throws Exception {
        assertThat(load(file(48, 48, 48)).size()).isEqualTo(48);
        TicketKeys aes256 = load(file(80, 80, 80, 80));
        assertThat(aes256.size()).isEqualTo(80);
        assertThat(aes256.base64()).allSatisfy(k -> assertThat(Base64.getDecoder().decode(k)).hasSize(80));
    }

    @Test
    void theFirstKeySetsTheSizeOfAll() throws Exception {
        String mixed = file(80, 48, 48);
        assertThatThrownBy(() -> load(mixed)).isInstanceOf(BindOptionException.class)
                .hasMessage("'" + mixed + "' : wrong sized key on line 2");
        String odd = file(40, 48, 48);
        assertThatThrownBy(() -> load(odd)).hasMessage("'" + odd + "' : wrong sized key on line 1");
    }
}

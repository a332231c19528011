package io.fulcrum.runtime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BufferPoolDefaultsTest {
    private String before;

    @BeforeEach
    void save() {
        before = System.getProperty(BufferPoolDefaults.CHUNK_REUSE);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(BufferPoolDefaults.CHUNK_REUSE);
        } else {
            System.setProperty(BufferPoolDefaults.CHUNK_REUSE, before);
        }
    }

    @Test
    void keepsSixtyFourEmptyChunks() {
        System.clearProperty(BufferPoolDefaults.CHUNK_REUSE);
        BufferPoolDefaults.apply();
        assertThat(System.getProperty(BufferPoolDefaults.CHUNK_REUSE)).isEqualTo("64");
    }

    @Test
    void aValueGivenOnTheCommandLineWins() {
        System.setProperty(BufferPoolDefaults.CHUNK_REUSE, "7");
        BufferPoolDefaults.apply();
        assertThat(System.getProperty(BufferPoolDefaults.CHUNK_REUSE)).isEqualTo("7");
    }
}

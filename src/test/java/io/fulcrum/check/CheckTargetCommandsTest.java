package io.fulcrum.check;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ports of {@code set server check-port|agent-port|...port}, read as HAProxy 2.6 reads them (its answers taken from it). */
class CheckTargetCommandsTest {
    @ParameterizedTest
    @CsvSource({"80, 80", "007, 7", "0, 0", "-0, 0", "-, 0", "65535, 65535"})
    void validPorts(String text, int port) throws Exception {
        assertThat(CheckTargetCommands.port(text)).isEqualTo(port);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                | provided port is not an integer",
        "+5                | provided port is not an integer",
        "5a                | provided port is not an integer",
        "99999999999       | provided port is not an integer",
        "2147483648        | provided port is not an integer",
        "-2147483649       | provided port is not an integer",
        "2147483647        | provided port is invalid",
        "-2147483648       | provided port is invalid",
        "1234567           | provided port is invalid",
        "65536             | provided port is invalid",
        "-1                | provided port is invalid"})
    void refusedPorts(String text, String message) {
        assertThatThrownBy(() -> CheckTargetCommands.port(text)).isInstanceOf(CheckTargetCommands.Refused.class).hasMessage(message);
    }
}

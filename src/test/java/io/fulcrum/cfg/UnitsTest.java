package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnitsTest {

    @Test
    void timesDefaultToMilliseconds() throws ConfigException {
        assertThat(Units.time("10", "timeout client")).isEqualTo(10);
        assertThat(Units.time("010", "timeout client")).isEqualTo(10);
        assertThat(Units.time("10ms", "timeout client")).isEqualTo(10);
        assertThat(Units.time("10s", "timeout client")).isEqualTo(10_000);
        assertThat(Units.time("10m", "timeout client")).isEqualTo(600_000);
        assertThat(Units.time("10h", "timeout client")).isEqualTo(36_000_000);
        assertThat(Units.time("10d", "timeout client")).isEqualTo(864_000_000);
        assertThat(Units.time("0", "timeout client")).isZero();
    }

    @Test
    void finerTimesRoundUpSoThatTheyNeverBecomeZero() throws ConfigException {
        assertThat(Units.time("1us", "timeout client")).isEqualTo(1);
        assertThat(Units.time("1000us", "timeout client")).isEqualTo(1);
        assertThat(Units.time("1001us", "timeout client")).isEqualTo(2);
        assertThat(Units.time("0us", "timeout client")).isZero();
        assertThat(Units.time("1500ms", "tune.ssl.lifetime", TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(Units.time("1m", "tune.ssl.lifetime", TimeUnit.SECONDS)).isEqualTo(60);
        assertThat(Units.time("10", "tune.ssl.lifetime", TimeUnit.SECONDS)).isEqualTo(10);
    }

    /** HAProxy's messages for {@code timeout client}. */
    @Test
    void badTimes() {
        assertTimeError("10x", "unexpected character 'x' in 'timeout client'");
        assertTimeError("10S", "unexpected character 'S' in 'timeout client'");
        assertTimeError("1.5s", "unexpected character '.' in 'timeout client'");
        assertTimeError("-1", "unexpected character '-' in 'timeout client'");
        assertTimeError("0x10", "unexpected character 'x' in 'timeout client'");
        assertTimeError("", "'timeout client' expects an integer value (in milliseconds)");
        assertTimeError("2147483648", "timer overflow in argument '2147483648' to 'timeout client' (maximum value is 2147483647 ms or ~24.8 days)");
        assertTimeError("25d", "timer overflow in argument '25d' to 'timeout client' (maximum value is 2147483647 ms or ~24.8 days)");
        assertTimeError("35792m", "timer overflow in argument '35792m' to 'timeout client' (maximum value is 2147483647 ms or ~24.8 days)");
        assertTimeError("99999999999999999999", "timer overflow in argument '99999999999999999999' to 'timeout client'"
                + " (maximum value is 2147483647 ms or ~24.8 days)");
    }

    @Test
    void timeLimitsAreTheOnesOfHaproxy() throws ConfigException {
        assertThat(Units.time("2147483647", "timeout client")).isEqualTo(2147483647L);
        assertThat(Units.time("24d", "timeout client")).isEqualTo(2_073_600_000L);
        assertThat(Units.time("596h", "timeout client")).isEqualTo(2_145_600_000L);
        assertThatThrownBy(() -> Units.time("24856d", "tune.ssl.lifetime", TimeUnit.SECONDS))
                .hasMessage("timer overflow in argument '24856d' to 'tune.ssl.lifetime' (maximum value is 2147483647 s or ~68 years)");
    }

    /** HAProxy 2.6 only warns about characters after the unit ("will be reported as an error in next versions"). */
    @Test
    void charactersAfterTheUnitAreAnError() {
        String supported = ", only (us=microseconds,ms=milliseconds,s=seconds,m=minutes,h=hours,d=days) are supported";
        assertTimeError("10sx", "unexpected character 'x' after the timer value '10sx' in 'timeout client'" + supported);
        assertTimeError("10mss", "unexpected character 's' after the timer value '10mss' in 'timeout client'" + supported);
        assertTimeError("10mn", "unexpected character 'n' after the timer value '10mn' in 'timeout client'" + supported);
    }

    private static void assertTimeError(String text, String message) {
        assertThatThrownBy(() -> Units.time(text, "timeout client")).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void sizes() throws ConfigException {
        assertThat(Units.size("10", "size")).isEqualTo(10);
        assertThat(Units.size("10k", "size")).isEqualTo(10_240);
        assertThat(Units.size("10K", "size")).isEqualTo(10_240);
        assertThat(Units.size("10m", "size")).isEqualTo(10_485_760);
        assertThat(Units.size("3g", "size")).isEqualTo(3L << 30);
        assertThat(Units.size("4194303k", "size")).isEqualTo(4194303L << 10);
        assertThat(Units.size("4294967295", "size")).isEqualTo(4294967295L);
    }

    @Test
    void badSizes() {
        assertSizeError("10kb", "unexpected character 'b' in 'size'");
        assertSizeError("10x", "unexpected character 'x' in 'size'");
        assertSizeError("1t", "unexpected character 't' in 'size'");
        assertSizeError("-1", "unexpected character '-' in 'size'");
        assertSizeError("1.5k", "unexpected character '.' in 'size'");
        assertSizeError("", "'size' expects a size argument");
        assertSizeError("4g", "size '4g' for 'size' is too large (maximum is 4294967295 bytes)");
        assertSizeError("4294967296", "size '4294967296' for 'size' is too large (maximum is 4294967295 bytes)");
        assertSizeError("99999999999999999999k", "size '99999999999999999999k' for 'size' is too large (maximum is 4294967295 bytes)");
    }

    private static void assertSizeError(String text, String message) {
        assertThatThrownBy(() -> Units.size(text, "size")).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void integersAreStrict() throws ConfigException {
        assertThat(Units.integer("42", "maxconn")).isEqualTo(42);
        assertThat(Units.integer("-5", "maxconn")).isEqualTo(-5);
        assertThat(Units.integer("+5", "maxconn")).isEqualTo(5);
        assertThat(Units.integer("64", "nbthread", 1, 64)).isEqualTo(64);
        assertThatThrownBy(() -> Units.integer("lots", "maxconn"))
                .hasMessage("'maxconn' expects an integer argument, got 'lots'.");
        assertThatThrownBy(() -> Units.integer("10k", "maxconn"))
                .hasMessage("'maxconn' expects an integer argument, got '10k'.");
        assertThatThrownBy(() -> Units.integer("-", "maxconn"))
                .hasMessage("'maxconn' expects an integer argument, got '-'.");
        assertThatThrownBy(() -> Units.integer(" 1", "maxconn"))
                .hasMessage("'maxconn' expects an integer argument, got ' 1'.");
        assertThatThrownBy(() -> Units.integer("", "maxconn")).hasMessage("'maxconn' expects an integer argument.");
        assertThatThrownBy(() -> Units.integer("99999999999999999999", "maxconn"))
                .hasMessage("'maxconn' value '99999999999999999999' is out of range.");
        assertThatThrownBy(() -> Units.integer("-5", "nbthread", 1, 64))
                .hasMessage("'nbthread' value must be between 1 and 64 (was -5)");
    }
}

package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** req.ssl_ver's dotted-version patterns; the refusals are haproxy 2.6.12's for the same ACL lines. */
class DottedVersionTest {
    @Test
    void versionsAreMajorTimes65536PlusMinor() throws ConfigException {
        assertThat(DottedVersion.range("3.1")).isEqualTo("196609");
        assertThat(DottedVersion.range("3")).isEqualTo("196608");
        assertThat(DottedVersion.range("3.1:3.3")).isEqualTo("196609:196611");
        assertThat(DottedVersion.range("3.1-3.3")).isEqualTo("196609:196611");
        assertThat(DottedVersion.range("3.1:")).isEqualTo("196609:");
        assertThat(DottedVersion.range(":3.2")).isEqualTo(":196610");
        assertThat(IntRange.withOperator(DottedVersion.range("3.3"), "lt")).isEqualTo(":196610");
    }

    @Test
    void refusals() {
        assertThatThrownBy(() -> DottedVersion.range("196609")).hasMessage("'196609' is not a dotted number");
        assertThatThrownBy(() -> DottedVersion.range("3.x")).hasMessage("'3.x' is not a dotted number");
        assertThatThrownBy(() -> DottedVersion.range("3.3:3.1")).hasMessage("'3.3:3.1' is not a valid dotted number range");
        assertThatThrownBy(() -> DottedVersion.range(":")).hasMessage("':' is not a valid dotted number range");
    }
}

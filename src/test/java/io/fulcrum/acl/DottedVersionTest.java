package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** req.ssl_ver's dotted-version patterns; the refusals are haproxy 2.6.12's for the same ACL lines. */
class DottedVersionTest {
    @TempDir
    Path dir;

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
    void aFileReadByReqSslVerHoldsDottedVersionsToo() throws Exception {
        Files.writeString(dir.resolve("ok.lst"), "3.1\n3.3:3.4\n");
        Files.writeString(dir.resolve("bad.lst"), "3.1\n3.x\n");
        Files.writeString(dir.resolve("int.lst"), "196609\n");
        assertThat(LoadedConfig.load(dir, """
                frontend f
                    mode tcp
                    acl v req.ssl_ver -f $DIR/ok.lst
                    acl w req_ssl_ver -f $DIR/bad.lst
                    acl i req.ssl_ver -m int -f $DIR/int.lst
                    acl j req.ssl_ver -m int -f $DIR/ok.lst
                """).messages()).isEqualTo("""
                [ALERT]    (1) : config : parsing [t.cfg:4] : error detected while parsing ACL 'w' : '3.x' is not a dotted number at line 2 of file '$DIR/bad.lst'.
                [ALERT]    (1) : config : parsing [t.cfg:6] : error detected while parsing ACL 'j' : '3.1' is not a number at line 1 of file '$DIR/ok.lst'.
                [ALERT]    (1) : config : Error(s) found in configuration file : t.cfg
                [ALERT]    (1) : config : Fatal errors found in configuration.
                """);
    }

    @Test
    void refusals() {
        assertThatThrownBy(() -> DottedVersion.range("196609")).hasMessage("'196609' is not a dotted number");
        assertThatThrownBy(() -> DottedVersion.range("3.x")).hasMessage("'3.x' is not a dotted number");
        assertThatThrownBy(() -> DottedVersion.range("3.3:3.1")).hasMessage("'3.3:3.1' is not a valid dotted number range");
        assertThatThrownBy(() -> DottedVersion.range(":")).hasMessage("':' is not a valid dotted number range");
    }
}

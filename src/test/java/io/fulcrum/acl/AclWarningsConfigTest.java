package io.fulcrum.acl;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Warnings about ACLs, each the one HAProxy 2.6.12 printed for the same lines. */
class AclWarningsConfigTest {
    @TempDir
    Path dir;

    /**
     * "No pattern": only when nothing follows the criterion (a flag or "--" is enough to silence it) and its own
     * matching method takes patterns; the criterion is named as written, arguments included.
     */
    @Test
    void noPattern() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    acl a1 str(a),lower -m beg
                    acl a2 req.hdr(x)
                    acl a3 req.hdr(x) --
                    acl a4 path_beg -i
                    acl a5 http_first_req
                    acl a6 int(1)
                    acl a7 req.hdr(host) -m found
                    acl a8 path_beg
                    http-request deny if a1 || a2 || a3 || a4 || a5 || a6 || a7 || a8 || { str(a) }
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing acl keyword 'req.hdr(x)' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                [WARNING]  (1) : config : parsing acl keyword 'int(1)' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                [WARNING]  (1) : config : parsing acl keyword 'path_beg' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                [WARNING]  (1) : config : parsing acl keyword 'str(a)' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                """);
    }
}
